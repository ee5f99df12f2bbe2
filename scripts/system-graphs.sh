#!/usr/bin/env bash
# Writes the symbol graphs of the toolchain's own modules (the standard library, _Concurrency,
# Observation, Synchronization, Dispatch, Foundation) into the directory given, for the
# availability gate (scripts/check-availability.py): their availability entries carry every Apple
# platform's version, on Linux too. About 15 s; kept while the toolchain's `swift --version` is
# the same.
#
# Usage: scripts/system-graphs.sh OUTPUT_DIR
set -euo pipefail
output=$1
modules=(Swift _Concurrency _StringProcessing Observation Synchronization Dispatch Foundation
    FoundationEssentials FoundationInternationalization)
toolchain=$(swift --version 2>&1 | head -1)
if [ -f "$output/toolchain.txt" ] && [ "$(cat "$output/toolchain.txt")" = "$toolchain" ]; then exit 0; fi
rm -rf "$output"
mkdir -p "$output"
triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
for module in "${modules[@]}"; do
    swift-symbolgraph-extract -module-name "$module" -target "$triple" -minimum-access-level public \
        -output-dir "$output"
done
echo "$toolchain" >"$output/toolchain.txt"
