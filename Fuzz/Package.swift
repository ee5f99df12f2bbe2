// swift-tools-version: 6.2
//
// The fuzz targets: one executable per reader of outside data, each a libFuzzer
// `LLVMFuzzerTestOneInput` with a `main.swift` that runs libFuzzer's driver on it (FuzzMain).
// Each is compiled with AddressSanitizer and libFuzzer's coverage and linked with libFuzzer
// (the flags below: this package is only for fuzzing). `scripts/fuzz.sh` (`make fuzz`) builds
// them in the folder the root package builds in (.build) with `PAGING_SANITIZER=fuzzer`, which
// compiles the root package's and Tools/' own targets with the same flags and their
// dependencies as they are, so that the code under test is covered and checked and only this
// repository's code is compiled again; then it runs each from its seed corpus in `Corpus/`.
// Nothing else builds this package: `make test` and apps never resolve it.
//
// The flags are one `-sanitize=fuzzer,address`: two `-sanitize=` options would leave only the
// last. The targets reach internal readers with `@testable import` (and `FuzzRequestBody` the
// launch server's database, to wait for its queue), which a debug build allows.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .unsafeFlags(["-sanitize=fuzzer,address"]),
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
        // Every target's `main`: libFuzzer's driver on the target's `LLVMFuzzerTestOneInput`.
        .target(name: "FuzzMain"),
        // The client's JSON reader: JSONValue(json:).
        .executableTarget(
            name: "FuzzJSON",
            dependencies: ["FuzzMain", .product(name: "PagingGraphQLClient", package: "Paging")],
            swiftSettings: strictSettings),
        // Document analysis: connection documents and pagination fragments.
        .executableTarget(
            name: "FuzzDocuments",
            dependencies: [
                "FuzzMain",
                .product(name: "PagingGraphQLClient", package: "Paging"),
                .product(name: "PagingExport", package: "Paging"),
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            swiftSettings: strictSettings),
        // The client's reading of an HTTP response as a GraphQL response.
        .executableTarget(
            name: "FuzzResponse",
            dependencies: ["FuzzMain", .product(name: "PagingGraphQLClient", package: "Paging")],
            swiftSettings: strictSettings),
        // RFC 8288 Link headers, as PagingExport (and so `paging fetch`) reads them.
        .executableTarget(
            name: "FuzzLinkHeader",
            dependencies: ["FuzzMain", .product(name: "PagingExport", package: "Paging")],
            swiftSettings: strictSettings),
        // The launch server's cursors.
        .executableTarget(
            name: "FuzzCursor",
            dependencies: ["FuzzMain", .product(name: "LaunchServer", package: "Tools")],
            swiftSettings: strictSettings),
        // The launch server's side of graphql-transport-ws: frames through its connection's state machine.
        .executableTarget(
            name: "FuzzWebSocketFrames",
            dependencies: [
                "FuzzMain",
                .product(name: "LaunchServer", package: "Tools"),
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            swiftSettings: strictSettings),
        // The client's side of graphql-transport-ws: server frames and client actions through its
        // state machine (internal: `@testable import`).
        .executableTarget(
            name: "FuzzSubscriptionClient",
            dependencies: ["FuzzMain", .product(name: "PagingGraphQLClient", package: "Paging")],
            swiftSettings: strictSettings),
        // The launch server's GraphQL request bodies, executed against the launch data.
        .executableTarget(
            name: "FuzzRequestBody",
            dependencies: ["FuzzMain", .product(name: "LaunchServer", package: "Tools")],
            swiftSettings: strictSettings),
    ]
)

// Each fuzz target links libFuzzer, with AddressSanitizer's runtime.
for target in package.targets where target.type == .executable {
    target.linkerSettings = [.unsafeFlags(["-sanitize=fuzzer,address"])]
}
