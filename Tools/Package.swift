// swift-tools-version: 6.2
//
// The tools package: the launch server, the `paging` command line, and the
// end-to-end tests of the client libraries against the server.
// It depends on the root package by path so that the command line can use the
// client libraries, while apps that depend on `Paging` never resolve
// Hummingbird, NIO, Graphiti or GRDB.
//
// `LaunchServer` deliberately imports no module of the root package: it is an
// independent peer of the client, written from the specs, so an end-to-end test
// cannot pass because client and server share one mistake.
import PackageDescription

// `PAGING_SANITIZER` (`make race`, `make fuzz`): this package's own targets compiled with the
// sanitizer, as the root package's are (its Package.swift says why), the dependencies as they are.
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
    name: "Tools",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "LaunchServer", targets: ["LaunchServer"]),
        // The command line as a library, so that the benchmarks run `paging fetch` in process.
        .library(name: "PagingCLI", targets: ["PagingCLI"]),
        .executable(name: "paging", targets: ["paging"]),
    ],
    dependencies: [
        // Named, so that the identity does not depend on the checkout's folder name.
        .package(name: "Paging", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // The launch server's subscriptions over WebSocket, and the tests' WebSocket client.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/GraphQLSwift/Graphiti.git", from: "3.1.0"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", from: "4.3.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // The command line's HTTP client: SwiftNIO, not FoundationNetworking (libcurl).
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        // The one lock of the tools, sources and tests: an `NSLock`, which ThreadSanitizer sees
        // (a `Synchronization.Mutex` waits on a futex it does not see on Linux).
        .target(name: "ToolsLock", swiftSettings: strictSettings),
        .target(
            name: "LaunchServer",
            dependencies: [
                "ToolsLock",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Graphiti", package: "Graphiti"),
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // The data set and its source note: the repository's one copy (the root package's tests read it too).
            exclude: ["Resources/SOURCE.md"],
            resources: [.copy("Resources/spacex-launches.json")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LaunchServerTests",
            dependencies: [
                "LaunchServer", "ToolsLock",
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // The seeded generator of the randomized tests, the sleep recorder.
                .product(name: "PagingTesting", package: "Paging"),
                // A real WebSocket client for the subscription endpoint.
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The command line's logic, as a library so that its tests can drive it.
        .target(
            name: "PagingCLI",
            dependencies: [
                "LaunchServer", "ToolsLock",
                .product(name: "Paging", package: "Paging"),
                // The client without URLSessionTransport: the commands send over
                // AsyncHTTPClient, so that `paging` never loads FoundationNetworking and libcurl.
                .product(name: "PagingGraphQLClient", package: "Paging"),
                .product(name: "PagingHTTPClient", package: "Paging"),
                // `fetch`'s exporter, REST source and writers.
                .product(name: "PagingExport", package: "Paging"),
                // The proxy type of HTTPClientTransport's configuration.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // `demo --database`: the launch list kept in a SQLite file, offline-first.
                .product(name: "PagingSQLite", package: "Paging"),
                .product(name: "PagingCodegen", package: "Paging"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // To add `@connection` to a document that pages by first/after and pageInfo.
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "paging",
            dependencies: ["PagingCLI"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PagingCLITests",
            dependencies: [
                "PagingCLI", "LaunchServer", "ToolsLock",
                .product(name: "Paging", package: "Paging"),
                .product(name: "PagingGraphQL", package: "Paging"),
                .product(name: "PagingExport", package: "Paging"),
                .product(name: "PagingTesting", package: "Paging"),
                // To read what `demo --database` left in its file.
                .product(name: "PagingSQLite", package: "Paging"),
                .product(name: "PagingCodegen", package: "Paging"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // A scripted HTTP server on loopback, for answers the launch server never gives.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The commands' transport, its responses and errors made by hand.
                .product(name: "PagingHTTPClient", package: "Paging"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            swiftSettings: strictSettings
        ),
        // Every pager of the client libraries against the real server on loopback, and the
        // client, its pagers and `paging fetch` against a hostile one.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "LaunchServer", "ToolsLock",
                // `paging fetch` run in process, against the hostile server.
                "PagingCLI",
                .product(name: "Paging", package: "Paging"),
                .product(name: "PagingGraphQL", package: "Paging"),
                // The recorder of the waits `paging fetch` asks for.
                .product(name: "PagingTesting", package: "Paging"),
                // The commands' transport, through a proxy.
                .product(name: "PagingHTTPClient", package: "Paging"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)

// The test bundle and `paging` link the sanitizer's runtime.
for target in package.targets where target.type == .test || target.type == .executable {
    target.linkerSettings = (target.linkerSettings ?? []) + sanitizerLinking
}
