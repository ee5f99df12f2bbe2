// swift-tools-version: 6.1
//
// The fuzz targets: one executable per reader of outside data, each a libFuzzer
// `LLVMFuzzerTestOneInput`. They build only with the fuzzer's runtime, which gives them
// their `main`:
//
//     swift build --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
//
// `--sanitize=fuzzer` makes SwiftPM build the targets without a `main` of their own; the
// `-Xswiftc` option, which comes last and so is the one swiftc keeps, adds AddressSanitizer.
// (SwiftPM's `--sanitize=fuzzer --sanitize=address` passes two `-sanitize=` options, and
// swiftc keeps only the last: each file would get coverage or AddressSanitizer, not both.)
// `-enable-testing`: the targets reach internal readers with `@testable import` (and
// `FuzzRequestBody` the launch server's database, to wait for its queue).
//
// `scripts/fuzz.sh` (`make fuzz`) builds them so and runs each from its seed corpus in
// `Corpus/`. Nothing else builds this package: `make test` and apps never resolve it.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Paging", path: ".."),
        .package(name: "Tools", path: "../Tools"),
        // The parser, to check that what the document rewriter writes is GraphQL.
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", from: "4.3.0"),
    ],
    targets: [
        // The client's JSON reader: JSONValue(json:).
        .executableTarget(
            name: "FuzzJSON",
            dependencies: [.product(name: "PagingGraphQLClient", package: "Paging")],
            swiftSettings: strictSettings),
        // Document analysis: connection documents and pagination fragments.
        .executableTarget(
            name: "FuzzDocuments",
            dependencies: [
                .product(name: "PagingGraphQLClient", package: "Paging"),
                .product(name: "PagingExport", package: "Paging"),
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            swiftSettings: strictSettings),
        // The client's reading of an HTTP response as a GraphQL response.
        .executableTarget(
            name: "FuzzResponse",
            dependencies: [.product(name: "PagingGraphQLClient", package: "Paging")],
            swiftSettings: strictSettings),
        // RFC 8288 Link headers, as PagingExport (and so `paging fetch`) reads them.
        .executableTarget(
            name: "FuzzLinkHeader",
            dependencies: [.product(name: "PagingExport", package: "Paging")],
            swiftSettings: strictSettings),
        // The launch server's cursors.
        .executableTarget(
            name: "FuzzCursor",
            dependencies: [.product(name: "LaunchServer", package: "Tools")],
            swiftSettings: strictSettings),
        // The launch server's side of graphql-transport-ws: frames through its connection's state machine.
        .executableTarget(
            name: "FuzzWebSocketFrames",
            dependencies: [
                .product(name: "LaunchServer", package: "Tools"),
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            swiftSettings: strictSettings),
        // The client's side of graphql-transport-ws: server frames and client actions through its
        // state machine (internal: `@testable import`).
        .executableTarget(
            name: "FuzzSubscriptionClient",
            dependencies: [.product(name: "PagingGraphQLClient", package: "Paging")],
            swiftSettings: strictSettings),
        // The launch server's GraphQL request bodies, executed against the launch data.
        .executableTarget(
            name: "FuzzRequestBody",
            dependencies: [.product(name: "LaunchServer", package: "Tools")],
            swiftSettings: strictSettings),
    ]
)
