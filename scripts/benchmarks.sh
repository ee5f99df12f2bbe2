#!/usr/bin/env bash
# Runs every benchmark suite of Benchmarks/ in release mode, then prints the
# table of ratios the issues set as targets (scripts/benchmark-report.py),
# each ratio taken from this one run. Pass a suite name to run only it:
#   scripts/benchmarks.sh                # all, about 20 minutes on 2 cores
#   scripts/benchmarks.sh EngineBenchmarks
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"

out="${BENCHMARK_OUTPUT:-$(pwd)/.benchmark-results}"
mkdir -p "$out"
targets=()
for suite in "$@"; do targets+=(--target "$suite"); done

# The machine: the figures are ratios, but the reader should know where they come from.
{
    echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | xargs || uname -m)"
    echo "cores: $(getconf _NPROCESSORS_ONLN)"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
    swift --version 2>&1 | head -1
} > "$out/machine.txt"

# GraphQLListBenchmarks, CodegenBenchmarks and ExportBenchmarks run these executables, each a workload in a
# process of its own.
swift build -c release --product GraphQLListMemory
swift build -c release --product CodegenScale
swift build -c release --product CodegenGitHubScale
swift build -c release --product ExportMemory
swift package --disable-sandbox benchmark "${targets[@]}" --no-progress --time-units microseconds --format markdown | tee "$out/results.md"
echo
cat "$out/machine.txt"
echo
partial=()
if [ "$#" -gt 0 ]; then partial=(--partial); fi
python3 ../scripts/benchmark-report.py "$out/results.md" "${partial[@]}"
