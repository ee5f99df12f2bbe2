// swift-tools-version: 6.2
//
// The root package holds the libraries an app depends on. It stays lean on
// purpose: `Paging` has no third-party dependency, and `PagingGraphQL` adds
// only GraphQLSwift/GraphQL (for parsing and printing documents).
// `PagingSQLite`, the store on disk, is the one product on GRDB, and
// `PagingHTTPClient` the one on SwiftNIO: SwiftPM builds (and, by
// target-based resolution, fetches) a dependency only for the products an
// app's targets name, so an app that names `Paging` or `PagingGraphQL` alone
// builds neither GRDB nor NIO (`scripts/check-products.sh` checks it). The launch
// server, the command line and the benchmarks live in `Tools/` and
// `Benchmarks/`, their own packages, so an app never resolves them.
import PackageDescription

// `PAGING_SANITIZER=thread`, `address` or `fuzzer` (set by `make race`, `make leaks` and `make fuzz`,
// never by an app): this package's own targets compiled with that sanitizer (`fuzzer`:
// AddressSanitizer and libFuzzer's coverage), the test bundle and executables linked with its
// runtime, the dependencies compiled as they are. So a sanitized build in the folder a plain
// build made (.build) compiles only this repository's code again, not GraphQLSwift, GRDB,
// SwiftNIO and BoringSSL (RELIABILITY.md, "One build folder").
let sanitizer = Context.environment["PAGING_SANITIZER"] ?? ""
let sanitizerSettings: [SwiftSetting] =
    switch sanitizer {
    case "thread", "address": [.unsafeFlags(["-sanitize=\(sanitizer)"])]
    case "fuzzer": [.unsafeFlags(["-sanitize=fuzzer,address"])]
    default: []
    }
let sanitizerLinking: [LinkerSetting] =
    switch sanitizer {
    case "thread": [.unsafeFlags(["-sanitize=thread"])]
    // Not libFuzzer: the fuzz targets (Fuzz/) link it, a test bundle has a main of its own.
    case "address", "fuzzer": [.unsafeFlags(["-sanitize=address"])]
    default: []
    }

let strictSettings: [SwiftSetting] =
    [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ] + sanitizerSettings

let package = Package(
    name: "Paging",
    // The floor is what Observation (`PagedList`) needs.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "Paging", targets: ["Paging"]),
        .library(name: "PagingGraphQL", targets: ["PagingGraphQL"]),
        .library(name: "PagingGraphQLClient", targets: ["PagingGraphQLClient"]),
        .library(name: "PagingGraphQLStore", targets: ["PagingGraphQLStore"]),
        .library(name: "PagingGraphQLCore", targets: ["PagingGraphQLCore"]),
        // Test doubles for apps that page: scripted sources, gates, recorders.
        .library(name: "PagingTesting", targets: ["PagingTesting"]),
        // The GraphQL store persisted in SQLite (GRDB): lists that open from disk.
        .library(name: "PagingSQLite", targets: ["PagingSQLite"]),
        // The transport over SwiftNIO (AsyncHTTPClient): the one to use on Linux.
        .library(name: "PagingHTTPClient", targets: ["PagingHTTPClient"]),
        // Exports of whole lists (a REST list, a GraphQL connection) as JSON Lines or an array,
        // resumable: the engine of `paging fetch`, for servers and scripts.
        .library(name: "PagingExport", targets: ["PagingExport"]),
        // The code generator behind `paging schema` and `paging codegen`:
        // schemas from SDL or introspection, documents checked against them.
        .library(name: "PagingCodegen", targets: ["PagingCodegen"]),
        // The same generator at build time, on a target's .graphql files.
        .plugin(name: "PagingCodegenPlugin", targets: ["PagingCodegenPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", from: "4.3.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // PagingHTTPClient's: an app that does not name it builds none of them.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // NIOWebSocketTransport's (in PagingHTTPClient): the WebSocket client over NIO.
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // The lock the modules share (not a product): `Synchronization.Mutex`
        // would raise the platform floor to iOS 18 and macOS 15.
        // ThreadSanitizer's view of the lock on Linux (a C header).
        .target(name: "PagingLockHooks"),
        .target(name: "PagingLock", dependencies: ["PagingLockHooks"], swiftSettings: strictSettings),
        .target(name: "Paging", dependencies: ["PagingLock"], swiftSettings: strictSettings),
        .target(name: "PagingTesting", dependencies: ["Paging", "PagingLock"], swiftSettings: strictSettings),
        // GraphQL in three layers; each imports only those below it.
        // JSON, operations, documents and their rewriting, their errors.
        .target(
            name: "PagingGraphQLCore",
            dependencies: ["PagingLock", .product(name: "GraphQL", package: "GraphQL")],
            swiftSettings: strictSettings
        ),
        // The normalized store: records, reads, writes, watches, gc. It knows
        // no client and no pager.
        .target(
            name: "PagingGraphQLStore",
            dependencies: ["PagingLock", "PagingGraphQLCore", .product(name: "GraphQL", package: "GraphQL")],
            swiftSettings: strictSettings
        ),
        // The client, the pagers and the followers that tie them to the
        // store, over any transport; re-exports the two layers below. It
        // does not link FoundationNetworking (on Linux, curl and its TLS
        // libraries), so that an app bringing its own transport loads none
        // of it.
        .target(
            name: "PagingGraphQLClient",
            dependencies: [
                "Paging", "PagingLock", "PagingGraphQLCore", "PagingGraphQLStore",
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            swiftSettings: strictSettings
        ),
        // What apps import: the client over URLSession, and everything below.
        .target(name: "PagingGraphQL", dependencies: ["PagingGraphQLClient", "PagingLock"], swiftSettings: strictSettings),
        // Offline-first: the store on disk, and any page source paired with a
        // local list. It sees the store's package interface (to load records
        // in one commit) and the engine, nothing of the client.
        .target(
            name: "PagingSQLite",
            dependencies: [
                "Paging", "PagingLock", "PagingGraphQLCore", "PagingGraphQLStore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        // A transport over SwiftNIO (AsyncHTTPClient), not FoundationNetworking: on Linux it
        // loads no libcurl, keeps nothing of a request once it ends and does not stall on a
        // dropped kept-alive connection. Its tests are end-to-end, in Tools/ (real servers and
        // proxies on loopback), so that the root package's sanitizer builds need no NIO.
        .target(
            name: "PagingHTTPClient",
            dependencies: [
                "PagingGraphQLClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                // NIOWebSocketTransport: GraphQL subscriptions over WebSocket.
                "PagingLock",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The exporter: the pager run page by page into a writer, over any transport.
        .target(
            name: "PagingExport",
            dependencies: [
                "Paging", "PagingLock", "PagingGraphQLClient", "PagingGraphQLCore",
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            swiftSettings: strictSettings),
        // The generator: it reads schemas and documents with GraphQLSwift, on
        // the GraphQL core; it knows nothing of the client, the store or the pager.
        .target(
            name: "PagingCodegen",
            dependencies: ["PagingGraphQLCore", .product(name: "GraphQL", package: "GraphQL")],
            swiftSettings: strictSettings
        ),
        // The generator as the plugin runs it: a command line without ArgumentParser, so that
        // the root package stays lean.
        .executableTarget(name: "PagingCodegenTool", dependencies: ["PagingCodegen"], swiftSettings: strictSettings),
        .plugin(
            name: "PagingCodegenPlugin", capability: .buildTool(), dependencies: ["PagingCodegenTool"]
        ),
        .testTarget(
            name: "PagingCodegenTests",
            // PagingGraphQL for the generated types the tests compile and use.
            dependencies: [
                "PagingCodegen", "PagingGraphQL", "PagingGraphQLCore", .product(name: "GraphQL", package: "GraphQL"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        // The Swift the generator writes for a schema and documents made to break its names
        // (Tests/PagingCodegenTests/Fixtures/Torture), compiled and decoded in a module of its own:
        // its schema's enums are named `Bool`, `Optional`, `Decoder`, which would hide Swift's
        // types from other tests. It depends on the client layer alone, as an app's target of
        // generated models may: no URLSession transport, no Foundation networking.
        .testTarget(
            name: "PagingCodegenTortureTests", dependencies: ["PagingGraphQLClient", "PagingGraphQLCore"],
            swiftSettings: strictSettings),
        // What the root package's test targets share (their time limits); not a product.
        .target(name: "PagingTestSupport", path: "Tests/PagingTestSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "PagingTests", dependencies: ["Paging", "PagingLock", "PagingTesting", "PagingTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PagingTestingTests", dependencies: ["Paging", "PagingTesting"], swiftSettings: strictSettings),
        // Each layer's own tests see only that layer (and what it imports),
        // so they show it works without the layers above.
        .testTarget(
            name: "PagingGraphQLCoreTests", dependencies: ["PagingGraphQLCore"], swiftSettings: strictSettings),
        .testTarget(
            name: "PagingGraphQLStoreTests",
            dependencies: ["PagingGraphQLStore", .product(name: "GraphQL", package: "GraphQL")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PagingGraphQLTests",
            dependencies: [
                "PagingGraphQL", "PagingGraphQLClient", "PagingGraphQLStore", "PagingGraphQLCore", "Paging",
                "PagingLock", "PagingTesting", "PagingTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PagingExportTests", dependencies: ["PagingExport", "PagingLock", "PagingTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PagingSQLiteTests",
            dependencies: [
                "PagingSQLite", "PagingGraphQL", "PagingGraphQLStore", "PagingGraphQLCore", "Paging", "PagingTesting",
                "PagingTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)

// What links a program (the test bundle, the generator's tool) links the sanitizer's runtime.
for target in package.targets where target.type == .test || target.type == .executable {
    target.linkerSettings = (target.linkerSettings ?? []) + sanitizerLinking
}
