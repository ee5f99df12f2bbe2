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
# A plain build: the sanitizers' scripts set PAGING_SANITIZER for their own builds (Package.swift).
unset PAGING_SANITIZER

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
    # Tools/ runs three tests at a time (TOOLS_TEST_WIDTH): each of its tests talks to launch
    # servers over sockets, with the clients' timeouts of 15 and 30 s, and all at once on two
    # cores a request waited past them behind the other tests' work (RELIABILITY.md, "Under
    # load"). Until 2026-12-02 it ran one test at a time, which left a core idle. The root
    # package and Examples/ run all at once.
    width=()
    if [ "$package" = Tools ]; then
        width=(--experimental-maximum-parallelization-width "${TOOLS_TEST_WIDTH:-3}")
    fi
    (cd "$package" && swift test --skip-build --scratch-path "$scratch" ${width[@]+"${width[@]}"})
    if [ "$package" = . ]; then
        # The generator's Swift for names made to break it, type-checked as a user's build would.
        scripts/codegen-torture-check.sh
    fi
done
