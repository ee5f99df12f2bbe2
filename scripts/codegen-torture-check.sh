#!/usr/bin/env bash
# Issue 37's torture suite, as a user's build would meet it: the generator (the plugin's
# PagingCodegenTool) writes Swift for a schema and documents made to break its names
# (Tests/PagingCodegenTests/Fixtures/Torture), and `swiftc -typecheck -swift-version 6` checks
# that Swift against the library's modules, with no error and no warning. It prints how long the
# type-check took. `make test` runs it after the root package's tests (which built the modules).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -q --product PagingCodegenTool
build=$(swift build --show-bin-path)
torture=Tests/PagingCodegenTests/Fixtures/Torture
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/PagingCodegenTool" --schema "$torture/torture.graphqls" --config "$torture/torture.json" \
    --output "$out" "$torture"/*.graphql
# The module maps of the library's C targets (a tool's copy of a map defines the module again).
maps=()
while IFS= read -r map; do maps+=(-Xcc "-fmodule-map-file=$map"); done < <(
    find "$build" -maxdepth 2 -name module.modulemap | grep -v -- "-tool.build/")
log=$(mktemp)
start=$(date +%s%N)
if ! swiftc -typecheck -swift-version 6 -I "$build/Modules" "${maps[@]}" "$out"/*.swift > "$log" 2>&1; then
    head -60 "$log"
    echo "codegen torture: the generated Swift does not type-check"
    exit 1
fi
milliseconds=$(( ($(date +%s%N) - start) / 1000000 ))
if grep -q "warning:" "$log"; then
    grep "warning:" "$log" | head -20
    echo "codegen torture: the generated Swift has warnings"
    exit 1
fi
echo "codegen torture: $(ls "$out" | wc -l) files, $(cat "$out"/*.swift | wc -l) lines," \
    "type-checked in $((milliseconds / 1000)).$(printf '%03d' $((milliseconds % 1000))) s with no error or warning"
