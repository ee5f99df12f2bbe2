#!/usr/bin/env bash
# Prints, one a line, the flags a swiftc or swift-symbolgraph-extract of this repository's modules
# needs to find the C modules they import: the module maps SwiftPM wrote for the debug build's
# targets (BIN_PATH/*.build), the checkouts' own (GRDB's SQLite), and the checkouts' include
# folders (swift-numerics' shims). Used by scripts/symbol-graphs.sh and scripts/check-doc-blocks.py.
#
# Usage: scripts/clang-module-flags.sh BIN_PATH
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
find "$bin" -maxdepth 2 -name module.modulemap ! -path "*-tool.build/*" | sort | while IFS= read -r map; do
    printf '%s\n' -Xcc "-fmodule-map-file=$(realpath "$map")"
done
find .build/checkouts -path "*/Sources/*" -name module.modulemap ! -path "*/include/*" 2>/dev/null | sort \
    | while IFS= read -r map; do printf '%s\n' -Xcc "-fmodule-map-file=$(realpath "$map")"; done
find "$PWD/.build/checkouts" -path "*/Sources/*" -type d -name include 2>/dev/null | sort \
    | while IFS= read -r dir; do printf '%s\n' -Xcc -I -Xcc "$dir"; done
