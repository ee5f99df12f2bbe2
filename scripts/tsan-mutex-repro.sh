#!/usr/bin/env bash
# Shows why `PagingLock`'s `Lock` tells ThreadSanitizer about itself: a bare
# `Synchronization.Mutex` (a futex on Linux) makes the sanitizer report
# correct code as a race, and the same lock with the acquire and release
# hooks does not. Builds scripts/tsan-mutex-repro.swift and runs it both
# ways. Fails if the hooked lock is reported; without the hooks a report is
# expected (a toolchain that sees futexes would print 0, and that is fine).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Swift 5 mode: top-level code, which the two threads run, is not main-actor isolated there.
swiftc -sanitize=thread -O scripts/tsan-mutex-repro.swift -o "$dir/repro"
count() { TSAN_OPTIONS=exitcode=0 "$@" 2>&1 | grep -c "WARNING: ThreadSanitizer" || true; }
bare=$(count "$dir/repro")
hooked=$(count env HOOKS=1 "$dir/repro")
echo "tsan-mutex-repro: a bare Mutex, $bare reports; with the hooks, $hooked"
[ "$hooked" -eq 0 ] || { echo "the lock with the hooks was reported"; exit 1; }
