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
    # Every test of a package at once, Tools/' too: its clients wait for their in-process servers
    # with a patience of minutes, not a user's 30 s (RELIABILITY.md, "Tools/ all at once").
    (cd "$package" && swift test --skip-build --scratch-path "$scratch")
    if [ "$package" = . ]; then
        # The generator's Swift for names made to break it, type-checked as a user's build would.
        scripts/codegen-torture-check.sh
    fi
done
