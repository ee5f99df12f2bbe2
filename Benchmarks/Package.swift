// swift-tools-version: 6.3
//
// The benchmarks: ordo-one/benchmark suites over the engine, the GraphQL
// layer, the command line and the launch server. Every target the issues set
// is a ratio of two measurements taken in one run; `make benchmarks` (or
// `scripts/benchmarks.sh`) runs them all and prints the table of ratios.
//
// Its own package so that neither an app depending on `Paging` nor the test
// run resolves the harness.
import PackageDescription

let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

/// One executable per suite, each found by the harness's plugin under
/// `Benchmarks/<Suite>`.
func suite(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark")] + dependencies,
        path: "Benchmarks/\(name)",
        swiftSettings: settings,
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "PagingBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(
            url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "Paging", path: ".."),
        .package(name: "Tools", path: "../Tools"),
        .package(url: "https://github.com/GraphQLSwift/Graphiti.git", from: "3.1.0"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", from: "4.3.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Paging", package: "Paging")],
            swiftSettings: settings
        ),
        .target(
            name: "GraphQLBenchmarkSupport",
            dependencies: [
                "BenchmarkSupport", .product(name: "Paging", package: "Paging"),
                .product(name: "PagingGraphQLClient", package: "Paging"),
            ],
            swiftSettings: settings
        ),
        suite(
            "EngineBenchmarks",
            [
                "BenchmarkSupport", .product(name: "Paging", package: "Paging"),
                .product(name: "PagingTesting", package: "Paging"),
            ]),
        suite(
            "ServerBenchmarks",
            [
                "BenchmarkSupport", .product(name: "LaunchServer", package: "Tools"),
                .product(name: "Graphiti", package: "Graphiti"),
                .product(name: "GraphQL", package: "GraphQL"),
            ]),
        suite(
            "ExportBenchmarks",
            [
                "BenchmarkSupport", .product(name: "LaunchServer", package: "Tools"),
                .product(name: "PagingCLI", package: "Tools"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        suite(
            "GraphQLListBenchmarks",
            [
                "BenchmarkSupport", "GraphQLBenchmarkSupport", .product(name: "Paging", package: "Paging"),
                .product(name: "PagingGraphQLClient", package: "Paging"),
            ]),
        // Its own process: a scroll's peak memory is not the list benchmarks' high-water mark.
        suite(
            "GraphQLScrollBenchmarks",
            [
                "BenchmarkSupport", "GraphQLBenchmarkSupport", .product(name: "Paging", package: "Paging"),
                .product(name: "PagingGraphQLClient", package: "Paging"),
            ]),
        // The 1,000-page list in a process without the harness, for its peak resident memory
        // (GraphQLListBenchmarks runs it; scripts/benchmarks.sh builds it first).
        .executableTarget(
            name: "GraphQLListMemory",
            dependencies: [
                "GraphQLBenchmarkSupport", .product(name: "Paging", package: "Paging"),
                .product(name: "PagingGraphQLClient", package: "Paging"),
            ],
            swiftSettings: settings
        ),
        // Issue 17: the generator on 1,000 types and 500 operations, in a process of its own
        // (CodegenBenchmarks runs it; scripts/benchmarks.sh builds it first).
        .executableTarget(
            name: "CodegenScale",
            dependencies: ["BenchmarkSupport", .product(name: "PagingCodegen", package: "Paging")],
            swiftSettings: settings
        ),
        // Issue 37: the generator on a GitHub-sized schema read from introspection JSON and 15
        // operations as a GitHub client writes them, in a process of its own (CodegenBenchmarks).
        .executableTarget(
            name: "CodegenGitHubScale",
            dependencies: ["BenchmarkSupport", .product(name: "PagingCodegen", package: "Paging")],
            swiftSettings: settings
        ),
        // Issue 19: `paging fetch` of 1,000,000 launches in a child process of its own, for the
        // export's peak resident memory (ExportBenchmarks runs it; scripts/benchmarks.sh builds it).
        .executableTarget(
            name: "ExportMemory",
            dependencies: [
                .product(name: "LaunchServer", package: "Tools"),
                .product(name: "PagingCLI", package: "Tools"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: settings
        ),
        suite("CodegenBenchmarks", ["BenchmarkSupport"]),
        suite(
            "StoreFileBenchmarks",
            [
                "BenchmarkSupport", "GraphQLBenchmarkSupport", .product(name: "Paging", package: "Paging"),
                .product(name: "PagingGraphQL", package: "Paging"),
                .product(name: "PagingSQLite", package: "Paging"),
            ]),
        // Issue 40, lists that move: anchored and head refreshes, query switching.
        suite("ListsThatMoveBenchmarks", ["BenchmarkSupport", .product(name: "Paging", package: "Paging")]),
        suite(
            "MembershipBenchmarks",
            [
                "BenchmarkSupport", "GraphQLBenchmarkSupport", .product(name: "Paging", package: "Paging"),
                .product(name: "PagingGraphQLClient", package: "Paging"),
            ]),
        // Issue 42, live lists: a list of 100,000 launches kept live over a subscription.
        suite(
            "LiveListBenchmarks",
            [
                "BenchmarkSupport", "GraphQLBenchmarkSupport", .product(name: "Paging", package: "Paging"),
                .product(name: "PagingGraphQLClient", package: "Paging"),
            ]),
        suite(
            "PrefetchBenchmarks",
            [
                "BenchmarkSupport", .product(name: "LaunchServer", package: "Tools"),
                .product(name: "Paging", package: "Paging"),
                .product(name: "PagingGraphQL", package: "Paging"),
            ]),
    ]
)
