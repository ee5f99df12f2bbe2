#!/usr/bin/env bash
# Issue 17's scale check, the part a benchmark cannot time: the Swift the generator writes for
# 1,000 types and 500 operations with nested fragments (Benchmarks' CodegenScale) type-checks
# against the library, with no error and no warning. Takes a few minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
swift build -c release --product CodegenScale
build=$(swift build -c release --show-bin-path)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/CodegenScale" --write "$out"
# The library's modules as the benchmarks' build made them, and the module maps of its C targets
# (a tool's copy of a map defines the module a second time: left out).
maps=()
while IFS= read -r map; do maps+=(-Xcc "-fmodule-map-file=$map"); done < <(
    find "$build" -maxdepth 2 -name module.modulemap | grep -v -- "-tool.build/")
start=$(date +%s)
log=$(mktemp)
if ! swiftc -typecheck -swift-version 6 -I "$build/Modules" "${maps[@]}" "$out"/*.swift > "$log" 2>&1; then
    head -50 "$log"
    echo "the generated Swift does not type-check"
    exit 1
fi
if grep -q "warning:" "$log"; then
    grep "warning:" "$log" | head -20
    echo "the generated Swift has warnings"
    exit 1
fi
echo "codegen scale: $(ls "$out" | wc -l) files, $(du -sh "$out" | cut -f1), type-checked in $(( $(date +%s) - start )) s with no error or warning"
