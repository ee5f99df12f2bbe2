#!/usr/bin/env bash
# Writes anew the Swift the code generator makes of the test fixtures
# (Tests/PagingCodegenTests/Generated), after a deliberate change to the
# generator: CodegenGoldenTests fails while those files differ from what it
# writes. Read the diff before committing it: the other codegen tests compile
# and use these files.
set -euo pipefail
cd "$(dirname "$0")/.."
fixtures="$PWD/Tests/PagingCodegenTests/Fixtures"
generated="$PWD/Tests/PagingCodegenTests/Generated"
(cd Tools && swift run -q paging codegen --schema "$fixtures/launches.graphqls" \
    --operations "$fixtures"/*.graphql --output "$generated")
# A second schema, of input objects that hold themselves, in a file of its own.
(cd Tools && swift run -q paging codegen --schema "$fixtures/Inputs/inputs.graphqls" \
    --operations "$fixtures/Inputs" --output "$generated/Inputs" \
    --schema-types-file InputsSchemaTypes.graphql.swift)
