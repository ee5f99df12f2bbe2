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
# The C modules the Swift modules import: the targets SwiftPM wrote a module map for, and the
# system libraries of the checkouts (GRDB's SQLite).
maps=()
while IFS= read -r map; do maps+=(-Xcc "-fmodule-map-file=$PWD/${map#"$PWD"/}"); done < <(
    find "$bin" -maxdepth 2 -name module.modulemap ! -path "*-tool.build/*"
    find .build/checkouts -path "*/Sources/*" -name module.modulemap ! -path "*/include/*" 2>/dev/null
)
includes=()
while IFS= read -r dir; do includes+=(-Xcc -I -Xcc "$dir"); done < <(
    find "$PWD/.build/checkouts" -path "*/Sources/*" -type d -name include 2>/dev/null)
rm -rf "$output"
mkdir -p "$output"
for module in "$@"; do
    swift-symbolgraph-extract -module-name "$module" -I "$bin/Modules" "${maps[@]}" "${includes[@]}" \
        -target "$triple" -minimum-access-level public -output-dir "$output"
done
