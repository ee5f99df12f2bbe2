#!/usr/bin/env bash
# Runs the tests of the root package and of Tools/ (the launch server, the
# `paging` command line, the end-to-end tests, and `paging demo` driven in a
# pseudo-terminal, its binary built with the sanitizer too) under
# ThreadSanitizer. Fails on any failing test and on any ThreadSanitizer report,
# in the tests or in a process they start.
#
# In the folder `make test` builds in (.build), with PAGING_SANITIZER=thread: this
# repository's own targets are compiled with the sanitizer and their dependencies stay as
# the plain build compiled them, so that only this repository's code compiles again
# (Package.swift, RELIABILITY.md "One build folder"). The sanitizer sees every access our
# code makes and every lock and thread of the process; it does not see accesses inside the
# dependencies' code.
set -euo pipefail
cd "$(dirname "$0")/.."
# Both packages build in the folder `make test`'s do (scripts/test.sh).
scratch="$PWD/.build"

# Reports go to stderr with the test output; a process that reported exits 66.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 exitcode=66}"
# Our targets compiled with the sanitizer (Package.swift). The tests that start dozens of `paging`
# processes start fewer when told they run sanitized (each is a sanitized build, about ten times
# slower), and the million-row load is left to `make test`.
export PAGING_SANITIZER=thread
# Why the locks tell the sanitizer about themselves (PagingLock): a bare
# Mutex is reported on correct code; the hooked one is not.
scripts/tsan-mutex-repro.sh
# A test run during which no test has started or ended for RACE_STALL seconds (default 900) is
# stopped, after printing the tests that started and did not end and every thread's stack, so that
# a hang fails with what it waited on instead of running on. The watch is on progress, not on the
# run's length: how long a run takes depends on the machine (the root package's took 2 minutes on
# one machine here and more than 10 on another, with every test going on), while the hang it is
# for stops every test at once. The longest single test took 267 s under the sanitizer (the
# store's model test, with every other test of the run beside it). RACE_TIMEOUT (default none)
# also limits the whole run.
watch_tests() {
    local pid=$1 log=$2 package=$3 waited=0 idle=0 size=0 now stall=${RACE_STALL:-900} limit=${RACE_TIMEOUT:-0}
    while kill -0 "$pid" 2>/dev/null; do
        now=$(wc -c <"$log")
        if [ "$now" -ne "$size" ]; then size=$now idle=0; fi
        if [ "$idle" -ge "$stall" ] || { [ "$limit" -gt 0 ] && [ "$waited" -ge "$limit" ]; }; then
            echo "$package: no test started or ended for $idle s ($waited s into the run); the tests started and not ended:"
            grep -oE "Test \"?[^\"]*\"? started" "$log" | sed -E 's/^Test //; s/ started$//' | sort >"$log.started" || true
            grep -oE "Test \"?[^\"]*\"? (passed|failed|recorded|skipped)" "$log" \
                | sed -E 's/^Test //; s/ (passed|failed|recorded|skipped)$//' | sort -u >"$log.ended" || true
            comm -23 "$log.started" "$log.ended" | head -40
            local child
            # This run's test process only (another checkout's tests may run beside it).
            for child in $(pgrep -f "$scratch/.*PackageTests.xctest" || true); do
                echo "== stacks of $child"
                gdb -p "$child" -batch -ex "thread apply all bt 25" 2>/dev/null \
                    | grep -E "^Thread|^#" | grep -vE "__tsan|libclang_rt" | head -400 || true
                kill -9 "$child" 2>/dev/null || true
            done
            kill "$pid" 2>/dev/null || true
            return 124
        fi
        sleep 5
        waited=$((waited + 5))
        idle=$((idle + 5))
    done
}

total=0
# RACE_PACKAGES: the packages to run (default both, as CI runs them).
for package in ${RACE_PACKAGES:-. Tools}; do
    echo "== $package: build and test under ThreadSanitizer"
    log=$(mktemp)
    status=0
    # The root package builds its test bundle and what it needs, not PagingHTTPClient (SwiftNIO),
    # which no root test imports: its tests are Tools/'s, run here too.
    built=(--build-tests)
    if [ "$package" = . ]; then built=(--product PagingPackageTests); fi
    (cd "$package" && swift build "${built[@]}" --scratch-path "$scratch") >"$log" 2>&1 \
        || status=$?
    # Tools/ runs three tests at a time here (TOOLS_RACE_WIDTH), all at once in `make test`. All
    # at once under the sanitizer passed on a quiet machine, but with a busy loop on each core the
    # test process's libdispatch stopped delivering its timers and socket events: every test on a
    # URL session or a timer waited for good, with idle threads (RELIABILITY.md, "Tools/ all at
    # once"). Three at a time keeps a core busy without that pile of timers and sockets.
    width=()
    if [ "$(basename "$package")" = Tools ]; then
        width=(--experimental-maximum-parallelization-width "${TOOLS_RACE_WIDTH:-3}")
    fi
    attempt=1
    while [ "$status" -eq 0 ]; do
        first=$(($(wc -l <"$log") + 1))
        (cd "$package" && exec swift test --skip-build --scratch-path "$scratch" ${width[@]+"${width[@]}"}) \
            >>"$log" 2>&1 &
        tests=$!
        watch_tests "$tests" "$log" "$package" >"$log.watch" || status=$?
        cat "$log.watch"
        if [ "$status" -eq 0 ]; then wait "$tests" || status=$?; fi
        # The sanitizer's hang (RELIABILITY.md, "Race detection"): the test process stopped with
        # threads waiting in the Swift runtime's once (`once_slow`, a futex the sanitizer does not
        # see) for a metadata initialization that waits on the sanitizer's own lock. No code of
        # ours holds it up; a run it stopped, with no report and no failed test, runs once more.
        if [ "$status" -eq 124 ] && [ "$attempt" -eq 1 ] && grep -q "once_slow" "$log.watch" \
            && ! grep -q "WARNING: ThreadSanitizer" "$log"; then
            echo "$package: the sanitizer's hang in the Swift runtime's once (once_slow) stopped the run, with no report; running the tests once more"
            attempt=2
            status=0
            continue
        fi
        # libdispatch's crash (RELIABILITY.md, "Race detection"): a SEGV in its event loop that
        # FoundationNetworking's URL sessions meet with no code of ours
        # (scripts/dispatch-drain-repro.sh). A run it ended with no report and no failed test runs
        # once more, saying so; a report, a failed test or a second crash fails.
        this=$(tail -n +"$first" "$log")
        if [ "$status" -ne 0 ] && [ "$attempt" -eq 1 ] \
            && grep -q "_dispatch_event_loop_drain" <<<"$this" \
            && ! grep -q "WARNING: ThreadSanitizer" <<<"$this" && ! grep -q "^✘" <<<"$this"; then
            echo "$package: libdispatch's crash (_dispatch_event_loop_drain) ended the run, with no report and no failed test; running the tests once more"
            attempt=2
            status=0
            continue
        fi
        break
    done
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
echo "race: every test of ${RACE_PACKAGES:-. Tools} passed under ThreadSanitizer, $total reports"
