#!/usr/bin/env bash
# Builds the fuzz targets of Fuzz/ with libFuzzer's coverage and AddressSanitizer (LeakSanitizer
# included) and runs each from its seed corpus, Fuzz/Corpus/<target>. Fails on any crash,
# failed check, sanitizer report or leak, leaving the input that caused it in
# Fuzz/.build-fuzz/findings/<target>/ (replay it: Fuzz/.build-fuzz/debug/<target> FILE).
#
#   scripts/fuzz.sh                   every target for FUZZ_SECONDS (default 30) each
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
scratch=.build-fuzz
config="${FUZZ_CONFIG:-debug}"
echo "== build the fuzz targets (libFuzzer, AddressSanitizer, $config)"
# Each target's product alone: a build of the whole package also builds the root package's
# executables (the code generator's tool), whose top-level code does not compile with
# `-sanitize=fuzzer` (swiftc then expects libFuzzer's `main`); in a release build it stopped there.
mkdir -p "$scratch"
for target in "${targets[@]}"; do
    if ! swift build -c "$config" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing \
        --scratch-path "$scratch" --product "$target" >"$scratch/build.log" 2>&1; then
        grep -v "ld.gold: warning: Cannot export local symbol" "$scratch/build.log" | tail -40
        echo "fuzz: $target did not build"
        exit 1
    fi
    tail -1 "$scratch/build.log"
done

limit=(-max_total_time="${FUZZ_SECONDS:-30}")
if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS"); fi
failed=0
for target in "${targets[@]}"; do
    corpus="$scratch/corpus/$target"
    findings="$scratch/findings/$target"
    mkdir -p "$corpus" "$findings"
    log="$scratch/$target.log"
    echo "== $target"
    status=0
    seeds=("Corpus/$target")
    # The documents the code generator's tests read seed the document analysis too.
    if [ "$target" = FuzzDocuments ]; then seeds+=(../Tests/PagingCodegenTests/Fixtures); fi
    "$scratch/$config/$target" "$corpus" "${seeds[@]}" "${limit[@]}" -max_len=4096 -timeout=10 \
        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1 || status=$?
    if ! grep -q "INITED cov:" "$log"; then
        echo "$target: no coverage was measured (was it built with -sanitize=fuzzer?)"
        failed=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
    echo "$target: ${runs:-?} executions, ${speed:-?}/s, peak ${rss:-?} MB, corpus $(ls "$corpus" | wc -l) inputs, exit $status"
    if [ "$status" -ne 0 ]; then
        grep -E -A30 "ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|Fatal error|fatal error" "$log" | head -60 || tail -40 "$log"
        ls "$findings"
        failed=1
    fi
done
if [ "$failed" -ne 0 ]; then
    echo "fuzz: a target failed; its input is in Fuzz/$scratch/findings"
    exit 1
fi
echo "fuzz: every target ran with no crash, report or leak"
