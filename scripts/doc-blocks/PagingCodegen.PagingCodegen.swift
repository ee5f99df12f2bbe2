// The context of PagingCodegen.docc/PagingCodegen.md's samples (scripts/check-doc-blocks.py): the
// types the generator writes for the tests' documents (LaunchList.graphql, RocketLaunches.graphql,
// checked in and compared byte for byte by the golden tests).
// doc-blocks: with Tests/PagingCodegenTests/Generated/*.graphql.swift
import PagingGraphQLClient

let client: GraphQLClient = placeholder()
let cursor: String? = nil
let rocketID = "falcon9"

/// The article's `query RocketQuery` is the tests' `query RocketPage`: the same selection of the
/// rocket and its `RocketLaunches_rocket` fragment, under another name.
typealias RocketQuery = RocketPageQuery
