#!/usr/bin/env bash
# Runs the tests of the root package and of Tools/ (the launch server, the
# `paging` command line, the end-to-end tests, and `paging demo` driven in a
# pseudo-terminal, its binary built with the sanitizer too) under
# ThreadSanitizer, each package in a build of its own (.build-tsan). Fails on
# any failing test and on any ThreadSanitizer report, in the tests or in a
# process they start.
set -euo pipefail
cd "$(dirname "$0")/.."

# Reports go to stderr with the test output; a process that reported exits 66.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 exitcode=66}"
# Why the locks tell the sanitizer about themselves (PagingLock): a bare
# Mutex is reported on correct code; the hooked one is not.
scripts/tsan-mutex-repro.sh
total=0
for package in . Tools; do
    echo "== $package: build and test under ThreadSanitizer"
    log=$(mktemp)
    status=0
    (cd "$package" && swift build --build-tests --sanitize=thread --scratch-path .build-tsan \
        && swift test --skip-build --sanitize=thread --scratch-path .build-tsan) >"$log" 2>&1 || status=$?
    grep -E "WARNING: ThreadSanitizer|Test run with|^✘|: error:" "$log" || true
    reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
    total=$((total + reports))
    echo "$package: $reports ThreadSanitizer reports"
    if [ "$status" -ne 0 ] || ! grep -q "Test run with .* passed" "$log"; then
        grep -B2 -A30 "WARNING: ThreadSanitizer" "$log" | head -200 || true
        echo "$package: the tests failed under ThreadSanitizer"
        exit 1
    fi
    if [ "$reports" -ne 0 ]; then
        grep -A40 "WARNING: ThreadSanitizer" "$log" | head -400
        exit 1
    fi
done
echo "race: every test of both packages passed under ThreadSanitizer, $total reports"
