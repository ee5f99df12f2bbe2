#!/usr/bin/env bash
# Measures PagingLock's Lock against Synchronization.Mutex (uncontended
# withLock, interleaved rounds, one run) in a release build. The lock is
# `package`, so it is copied, made public, into a throwaway package with the
# benchmark's main.swift from Benchmarks/LockBenchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/LockBenchmark"
cat > "$work/Package.swift" <<'SWIFT'
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "LockBenchmark", platforms: [.macOS(.v15)],
    targets: [
        .target(name: "PagingLockHooks"),
        .executableTarget(
            name: "LockBenchmark", dependencies: ["PagingLockHooks"], swiftSettings: [.swiftLanguageMode(.v6)]),
    ])
SWIFT
cp -R Sources/PagingLockHooks "$work/Sources/PagingLockHooks"
sed -e 's/^package struct Lock/public struct Lock/' -e 's/^    package init/    public init/' \
    -e 's/^    package func withLock/    public func withLock/' Sources/PagingLock/Lock.swift \
    > "$work/Sources/LockBenchmark/Lock.swift"
cp Benchmarks/LockBenchmark/main.swift "$work/Sources/LockBenchmark/main.swift"
(cd "$work" && swift build -c release > build.log 2>&1) || { cat "$work/build.log"; exit 1; }
"$work/.build/release/LockBenchmark"
