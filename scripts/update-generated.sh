#!/usr/bin/env bash
# Writes anew the Swift the code generator makes of the test fixtures
# (Tests/PagingCodegenTests/Generated, Tests/PagingCodegenTortureTests/Generated), after a
# deliberate change to the generator: the golden tests fail while those files differ from what it
# writes. Read the diff before committing it: the other codegen tests compile and use these files.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -q --product PagingCodegenTool
tool="$(swift build --show-bin-path)/PagingCodegenTool"
fixtures="$PWD/Tests/PagingCodegenTests/Fixtures"
generated="$PWD/Tests/PagingCodegenTests/Generated"
"$tool" --schema "$fixtures/launches.graphqls" --output "$generated" "$fixtures"/*.graphql
# A second schema, of input objects that hold themselves, in a file of its own.
"$tool" --schema "$fixtures/Inputs/inputs.graphqls" --output "$generated/Inputs" \
    --schema-types-file InputsSchemaTypes.graphql.swift "$fixtures"/Inputs/*.graphql
# The names torture suite, in a test target of its own (its schema's enums hide Swift's types).
torture="$fixtures/Torture"
"$tool" --schema "$torture/torture.graphqls" --config "$torture/torture.json" \
    --output "$PWD/Tests/PagingCodegenTortureTests/Generated" "$torture"/*.graphql
