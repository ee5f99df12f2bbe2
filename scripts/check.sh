#!/usr/bin/env bash
# Documentation checks: every public symbol of the libraries has a doc
# comment, and each DocC catalog converts without a warning.
set -euo pipefail
cd "$(dirname "$0")/.."

graphs=.build-docs/symbol-graphs
rm -rf "$graphs"
mkdir -p "$graphs"
for module in Paging PagingGraphQL; do
    swift build --scratch-path .build-docs --target "$module" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" 2>&1 | grep -E "error:" && exit 1
done
python3 scripts/check-docs.py "$graphs" Paging PagingGraphQL

for module in Paging PagingGraphQL; do
    catalog="Sources/$module/$module.docc"
    [ -d "$catalog" ] || { echo "missing DocC catalog $catalog"; exit 1; }
    output=$(docc convert "$catalog" --additional-symbol-graph-dir "$graphs" \
        --output-path ".build-docs/$module.doccarchive" --analyze 2>&1 || true)
    problems=$(echo "$output" | grep -E "^(warning|error):" || true)
    if [ -n "$problems" ]; then
        echo "$output"
        echo "DocC catalog $catalog has problems"
        exit 1
    fi
    echo "docc: $catalog converts cleanly"
done
