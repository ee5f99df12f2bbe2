#!/usr/bin/env bash
# The Swift sources swift-format keeps (`make format`, `make check`), one a line: every .swift file
# of the packages but the generator's output checked in for the tests (Tests/*/Generated), which
# the golden tests hold to what the generator writes, byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
find Sources Tests Tools/Sources Tools/Tests Benchmarks/Benchmarks Benchmarks/Sources Examples/Sources \
    Examples/Tests Plugins Fuzz/Sources scripts/doc-blocks -name '*.swift' -not -path '*/Generated/*' | sort
echo Fuzz/Package.swift
