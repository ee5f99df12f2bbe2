#!/usr/bin/env bash
# Builds the fuzz targets of Fuzz/ with libFuzzer's coverage and AddressSanitizer (LeakSanitizer
# included) and runs each from its seed corpus, Fuzz/Corpus/<target>. Fails on any crash,
# failed check, sanitizer report or leak, leaving the input that caused it in
# Fuzz/.build-fuzz/findings/<target>/ (replay it: .build/debug/<target> FILE, after the build here).
#
#   scripts/fuzz.sh                   every target for FUZZ_SECONDS (default 30) each, FUZZ_JOBS (2)
#                                     at a time
#   FUZZ_RUNS=10000000 scripts/fuzz.sh    every target for that many executions each
#   scripts/fuzz.sh FuzzJSON ...      the targets named
#   FUZZ_CONFIG=release scripts/fuzz.sh   an optimized build (faster for some targets, not all:
#                                     see RELIABILITY.md for the speeds measured)
#
# The inputs a run finds go to Fuzz/.build-fuzz/corpus/<target> (kept between runs, not
# committed); the committed seeds are only read.
set -euo pipefail
# A trap is reported by libFuzzer (its input saved); the Swift backtracer would only slow it.
export SWIFT_BACKTRACE=enable=no
# AddressSanitizer keeps the stack of every allocation (30 frames by default) for its reports,
# and keeps each distinct stack for good. In a long run of FuzzRequestBody they kept coming: it
# grew by about 5 KB an execution (4 GB, libFuzzer's limit, after 957,140, with 34 MB of live
# heap). With 4 frames it stays flat (RELIABILITY.md). Not fewer than 2: with 0 or 1 frame
# LeakSanitizer reports no leak at all (it cannot tell who allocated, and lets the block go).
# Replay a finding with ASAN_OPTIONS unset for the whole stacks of the allocation and the free.
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=4}"
cd "$(dirname "$0")/../Fuzz"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(FuzzJSON FuzzDocuments FuzzResponse FuzzLinkHeader FuzzCursor FuzzRequestBody FuzzWebSocketFrames FuzzSubscriptionClient)
fi
# Corpora, findings and logs; the build is in the root package's folder (.build), below.
scratch=.build-fuzz
config="${FUZZ_CONFIG:-debug}"
echo "== build the fuzz targets (libFuzzer, AddressSanitizer, $config)"
# In the folder every package builds in (`make test`, `make leaks`), with PAGING_SANITIZER=fuzzer:
# the root package's and Tools/' own targets get AddressSanitizer and libFuzzer's coverage, the
# dependencies stay as the plain build compiled them, so that after `make leaks` only the fuzz
# targets themselves compile (Package.swift, RELIABILITY.md "One build folder"). Each target's
# product alone: a build of the whole package would also build the root package's executables.
export PAGING_SANITIZER=fuzzer
build=(-c "$config" --scratch-path ../.build)
# A release build leaves out `-enable-testing`, which the targets' `@testable import` needs.
if [ "$config" = release ]; then build+=(-Xswiftc -enable-testing); fi
mkdir -p "$scratch"
for target in "${targets[@]}"; do
    if ! swift build "${build[@]}" --product "$target" >"$scratch/build.log" 2>&1; then
        grep -v "ld.gold: warning: Cannot export local symbol" "$scratch/build.log" | tail -40
        echo "fuzz: $target did not build"
        exit 1
    fi
    tail -1 "$scratch/build.log"
done
bin=$(swift build "${build[@]}" --show-bin-path)

limit=(-max_total_time="${FUZZ_SECONDS:-30}")
if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS"); fi
# One target's run, from its seed corpus; its log and verdict in $scratch/<target>.{log,out,status}.
run_target() {
    local target=$1 corpus="$scratch/corpus/$1" findings="$scratch/findings/$1" log="$scratch/$1.log"
    local status=0 failed=0
    mkdir -p "$corpus" "$findings"
    local seeds=("Corpus/$target")
    # The documents the code generator's tests read seed the document analysis too.
    if [ "$target" = FuzzDocuments ]; then seeds+=(../Tests/PagingCodegenTests/Fixtures); fi
    "$bin/$target" "$corpus" "${seeds[@]}" "${limit[@]}" -max_len=4096 -timeout=10 \
        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1 || status=$?
    {
        echo "== $target"
        if ! grep -q "INITED cov:" "$log"; then
            echo "$target: no coverage was measured (was it built with -sanitize=fuzzer?)"
            failed=1
        fi
        local runs speed rss
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
        rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
        echo "$target: ${runs:-?} executions, ${speed:-?}/s, peak ${rss:-?} MB, corpus $(ls "$corpus" | wc -l) inputs, exit $status"
        if [ "$status" -ne 0 ]; then
            grep -E -A30 "ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|Fatal error|fatal error" "$log" | head -60 || tail -40 "$log"
            ls "$findings"
            failed=1
        fi
    } >"$scratch/$target.out"
    echo "$failed" >"$scratch/$target.status"
}

# Two targets at a time (FUZZ_JOBS): each libFuzzer process runs on one thread, and the machine
# has two cores. Each target still runs for the whole FUZZ_SECONDS (or FUZZ_RUNS).
jobs=${FUZZ_JOBS:-2}
running=()
failed=0
for target in "${targets[@]}"; do
    run_target "$target" &
    running+=($!)
    if [ "${#running[@]}" -ge "$jobs" ]; then
        wait "${running[0]}"
        running=("${running[@]:1}")
    fi
done
wait
for target in "${targets[@]}"; do
    cat "$scratch/$target.out"
    if [ "$(cat "$scratch/$target.status")" != 0 ]; then failed=1; fi
done
if [ "$failed" -ne 0 ]; then
    echo "fuzz: a target failed; its input is in Fuzz/$scratch/findings"
    exit 1
fi
echo "fuzz: every target ran with no crash, report or leak"
