#!/usr/bin/env bash
# Builds and tests every package of the repository: the root package (Paging,
# PagingGraphQL, PagingCodegen), Tools/ (the launch server, the command line)
# and Examples/ (the seeds on generated types, built with the codegen plugin).
# A compiler warning in our own
# sources fails the run, as does any failing test.
#
# The three packages build into one folder, the root package's .build: Tools/ and Examples/
# depend on the root package by path and on the same packages, so that each module (ours and
# the dependencies') is compiled once, not once per package. Built apart, Tools/ took 501 s and
# Examples/ 465 s here after the root package's 536 s; in the shared folder, 155 s and 55 s.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="$PWD/.build"

packages=(. Tools Examples)

for package in "${packages[@]}"; do
    echo "== $package: build"
    log=$(mktemp)
    # pipefail: a failed build stops the run here, its errors printed above.
    (cd "$package" && swift build --build-tests --scratch-path "$scratch" 2>&1) | tee "$log"
    # Warnings in our own files (not in dependencies under .build).
    ours=$(grep -E "^/[^ ]*/(Sources|Tests)/[^ ]*\.swift:[0-9]+:[0-9]+: warning:" "$log" | grep -v "/\.build" | sort -u || true)
    if [ -n "$ours" ]; then
        echo "$ours"
        echo "compiler warnings in $package: fix them (the project builds with none)"
        exit 1
    fi
    echo "== $package: test"
    # Tools/ one test at a time: all at once, its 60-odd suites' launch servers and their clients
    # share the test process's two cooperative threads with every CPU-heavy test beside them, and a
    # request to a server in the process waited past its command's 30 s timeout (RELIABILITY.md,
    # "Under load"); one at a time, every test passed in 188 s against 124 s all at once.
    serial=()
    if [ "$package" = Tools ]; then serial=(--no-parallel); fi
    (cd "$package" && swift test --skip-build --scratch-path "$scratch" ${serial[@]+"${serial[@]}"})
    if [ "$package" = . ]; then
        # The generator's Swift for names made to break it, type-checked as a user's build would.
        scripts/codegen-torture-check.sh
    fi
done
