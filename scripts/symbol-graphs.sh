#!/usr/bin/env bash
# Writes the symbol graphs of the root package's library modules (public symbols only) into the
# directory given, from the debug build in .build (built first if it is not up to date), with
# swift-symbolgraph-extract: a second build with symbol-graph flags would compile every module
# again, NIO and GRDB included.
#
# Usage: scripts/symbol-graphs.sh OUTPUT_DIR MODULE [MODULE ...]
set -euo pipefail
cd "$(dirname "$0")/.."
output=$1
shift
swift build >/dev/null 2>&1 || swift build  # quiet when it builds; its errors when it does not
bin=$(swift build --show-bin-path)
triple=$(basename "$(dirname "$bin")")
# The C modules the Swift modules import (scripts/clang-module-flags.sh).
flags=()
while IFS= read -r flag; do flags+=("$flag"); done < <(scripts/clang-module-flags.sh "$bin")
rm -rf "$output"
mkdir -p "$output"
for module in "$@"; do
    swift-symbolgraph-extract -module-name "$module" -I "$bin/Modules" "${flags[@]}" \
        -target "$triple" -minimum-access-level public -output-dir "$output"
done
