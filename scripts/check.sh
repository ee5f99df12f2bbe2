#!/usr/bin/env bash
# Checks beyond the tests: the sources are formatted, every public symbol of
# the libraries has a doc comment, each DocC catalog converts without a
# warning, and the benchmarks build.
set -euo pipefail
cd "$(dirname "$0")/.."
# A plain build: the sanitizers' scripts set PAGING_SANITIZER for their own builds (Package.swift).
unset PAGING_SANITIZER

# Formatted as `make format` formats them (the rules are in .swift-format).
echo "== format"
# The generator's output checked in for the tests (Tests/*/Generated) is left as it writes it:
# the golden tests hold it to that, byte for byte.
sources=()
while IFS= read -r file; do sources+=("$file"); done < <(scripts/swift-sources.sh)
if ! swift format lint --strict "${sources[@]}"; then
    echo "unformatted code: run 'make format' and commit the result"
    exit 1
fi

# The symbol graphs of the library modules, from the debug build (built if needed): every
# public symbol documented, the public API as API.txt lists it, each catalog converted.
modules=$(tr '\n' ' ' <scripts/library-modules.txt)
graphs=.build-docs/graphs
# shellcheck disable=SC2086
scripts/symbol-graphs.sh "$graphs" $modules
for module in $modules; do
    if [ ! -f "$graphs/$module.symbols.json" ]; then
        echo "no symbol graph was written for $module"
        exit 1
    fi
done
# shellcheck disable=SC2086
python3 scripts/check-docs.py "$graphs" $modules
GRAPHS=$graphs scripts/api-listing.sh

# The availability gate: no library module (nor the build plugin's tool) uses an API of the
# toolchain's modules newer than the package's Apple floors, outside a guard (RELIABILITY.md,
# "The availability gate"). Its reading of sources is checked first.
echo "== availability"
python3 scripts/test_availability_source.py
scripts/system-graphs.sh .build-docs/system-graphs
# shellcheck disable=SC2086
python3 scripts/check-availability.py "$(swift build --show-bin-path)/index/store" .build-docs/system-graphs \
    Package.swift $modules PagingLock PagingCodegenTool

# One catalog converted, with only the module's own graphs (and its extensions of other
# modules); its problems, if any, in .build-docs/<module>.problems.
convert_catalog() {
    local module=$1 catalog="Sources/$1/$1.docc" own=".build-docs/graphs-$1" output
    rm -rf "$own"
    mkdir -p "$own"
    cp "$graphs/$module.symbols.json" "$own/"
    cp "$graphs/$module@"*.symbols.json "$own/" 2>/dev/null || true
    output=$(docc convert "$catalog" --additional-symbol-graph-dir "$own" \
        --output-path ".build-docs/$module.doccarchive" --analyze 2>&1 || true)
    if echo "$output" | grep -qE "^(warning|error):"; then
        echo "$output" >".build-docs/$module.problems"
    else
        rm -f ".build-docs/$module.problems"
    fi
}
for module in $modules; do
    [ -d "Sources/$module/$module.docc" ] || { echo "missing DocC catalog Sources/$module/$module.docc"; exit 1; }
done
# Two catalogs at a time: a conversion runs on about one core.
export graphs
export -f convert_catalog
# shellcheck disable=SC2086
printf '%s\n' $modules | xargs -P 2 -I {} bash -c 'convert_catalog "$1"' _ {}
for module in $modules; do
    if [ -f ".build-docs/$module.problems" ]; then
        cat ".build-docs/$module.problems"
        echo "DocC catalog Sources/$module/$module.docc has problems"
        exit 1
    fi
    echo "docc: Sources/$module/$module.docc converts cleanly"
done

# Every Swift block of README.md, Tools/README.md and the catalogs compiles against the library
# (scripts/check-doc-blocks.py; the samples' contexts and UI stubs in scripts/doc-blocks/).
echo "== doc blocks"
python3 scripts/check-doc-blocks.py "$(swift build --show-bin-path)"

# The Swift Package Index builds the documentation of the same modules (.spi.yml).
if ! diff <(sed -n 's/^ *- \([A-Za-z]*\)$/\1/p' .spi.yml | sort) <(sort scripts/library-modules.txt); then
    echo ".spi.yml's documentation_targets are not the library modules (scripts/library-modules.txt)"
    exit 1
fi

# The benchmarks build (debug: a compile check, they are run by
# `make benchmarks`), with no compiler warning in their own files; in the folder `make test`
# builds every package in (scripts/test.sh), so that only what is the benchmarks' own compiles.
echo "== Benchmarks: build"
log=$(mktemp)
(cd Benchmarks && swift build --scratch-path ../.build 2>&1) | tee "$log" | grep -E "error|warning: |Build complete" | grep -v "unhandled" || true
if ! grep -q "Build complete" "$log"; then
    cat "$log"
    echo "the benchmarks do not build"
    exit 1
fi
ours=$(grep -E "^/[^ ]*/Benchmarks/(Benchmarks|Sources)/[^ ]*\.swift:[0-9]+:[0-9]+: warning:" "$log" | grep -v "/\.build" | sort -u || true)
if [ -n "$ours" ]; then
    echo "$ours"
    echo "compiler warnings in Benchmarks: fix them"
    exit 1
fi

# The toolchain each manifest declares, and its dependencies' manifests, against the README's
# Requirements (the packages resolved by the builds of every package above and in `make test`).
echo "== toolchain"
python3 scripts/check-toolchain.py

# An app that names only Paging and PagingGraphQL builds no GRDB.
echo "== products"
scripts/check-products.sh
