#!/usr/bin/env bash
# Runs the root package's tests under AddressSanitizer, whose LeakSanitizer reports, when the
# test process ends, every allocation nothing points to any more (a cycle of pagers,
# followers or watches included once nothing outside reaches it). Fails on any failing test,
# memory error or leak.
#
# In the folder `make test` builds in (.build), with PAGING_SANITIZER=fuzzer: this repository's own
# targets are compiled with AddressSanitizer and libFuzzer's coverage (which only counts, here),
# their dependencies stay as the plain build compiled them, so that only this repository's code
# compiles again, and `make fuzz` after it compiles only the fuzz targets (Package.swift,
# RELIABILITY.md "One build folder").
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1}"
# What is not this repository's to fix, each with its reason: scripts/lsan-suppressions.txt.
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=1"
export PAGING_SANITIZER=fuzzer
log=$(mktemp)
status=0
# The test bundle and what it needs, not PagingHTTPClient (SwiftNIO), which no root test imports.
(swift build --product PagingPackageTests && swift test --skip-build) >"$log" 2>&1 || status=$?
grep -E "Test run with|^✘|: error:" "$log" || true
if grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)" "$log"; then
    grep -A60 -E "ERROR: (AddressSanitizer|LeakSanitizer)" "$log" | head -200
    echo "leaks: a sanitizer report (above)"
    exit 1
fi
if [ "$status" -ne 0 ] || ! grep -q "Test run with .* passed" "$log"; then
    tail -60 "$log"
    echo "leaks: the tests failed under AddressSanitizer"
    exit 1
fi
grep -E "^resident:" "$log" || true
grep -A12 "Suppressions used" "$log" | grep -E "^ +[0-9]" || true
echo "leaks: every test of the root package passed under AddressSanitizer and LeakSanitizer, no report"
