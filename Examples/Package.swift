// swift-tools-version: 6.2
//
// The seed systems in their own spelling, on types generated from `.graphql` files by the
// PagingCodegenPlugin at build time: the targets hold a schema, `.graphql` files and the Swift
// that uses what they become; and a server-side export on the library products alone. The
// tests run them against the launch server (Tools/) on loopback.
import PackageDescription

let settings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "Examples",
    // Tools/'s floors: the tests run against its launch server, which needs macOS 15 and iOS 18.
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "Paging", path: ".."),
        .package(name: "Tools", path: "../Tools"),
        // The tests compare documents as GraphQLSwift prints them.
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", from: "4.3.0"),
    ],
    targets: [
        // The Apollo iOS tutorial's "Paginate results": LaunchList.graphql, LaunchListQuery(cursor:).
        .target(
            name: "TutorialLaunchList",
            dependencies: [.product(name: "PagingGraphQL", package: "Paging")],
            swiftSettings: settings,
            plugins: [.plugin(name: "PagingCodegenPlugin", package: "Paging")]
        ),
        // RelaySwiftUI's @PaginationFragment on Rocket.launches: RocketLaunches.graphql, whose list
        // starts from what its parent query fetched.
        .target(
            name: "RelayRocketLaunches",
            dependencies: [.product(name: "PagingGraphQL", package: "Paging")],
            swiftSettings: settings,
            plugins: [.plugin(name: "PagingCodegenPlugin", package: "Paging")]
        ),
        // A server-side export of a REST list (GitHub's Link headers), on PagingExport and the
        // transport over SwiftNIO: the library products alone, without Tools/.
        .target(
            name: "LaunchExport",
            dependencies: [
                .product(name: "PagingExport", package: "Paging"),
                .product(name: "PagingHTTPClient", package: "Paging"),
            ],
            swiftSettings: settings
        ),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "TutorialLaunchList", "RelayRocketLaunches", "LaunchExport",
                .product(name: "PagingExport", package: "Paging"),
                .product(name: "PagingGraphQL", package: "Paging"),
                .product(name: "LaunchServer", package: "Tools"),
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            swiftSettings: settings
        ),
    ]
)
