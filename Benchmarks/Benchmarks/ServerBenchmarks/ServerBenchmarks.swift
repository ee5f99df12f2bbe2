import Benchmark
import BenchmarkSupport
import Foundation
import GraphQL
import Graphiti
import LaunchServer

// Issue 6, target 4: the launch server's Relay connection with 1,000,000 rows, a page at depth
// 100 against one at depth 900,000 (target: at most 1.3 times), and against Graphiti's
// `connection(from:)` over an array of 1,000,000 rows at depth 900,000, what a Graphiti user
// writes today (target: ours at least 100 times faster). Both run the same GraphQL document
// through GraphQLSwift in this process (`LaunchServer.executeGraphQL(body:)` for ours), so the
// difference is the resolver: a keyset query on an index against a scan of the array.
//
// The targets are read on pages of 20 (the Apollo tutorial's page size). Pages of 100 are
// measured too: GraphQLSwift's executor runs a task per field and per list item, about 0.15 ms
// a row here, the same for both resolvers, and at 100 rows that fixed cost bounds the ratio.

let rowCount = 1_000_000

/// The page document, `size` rows after a cursor.
func pageDocument(size: Int) -> String {
    """
    query Page($after: String) {
      launchConnection(first: \(size), after: $after) {
        edges { cursor node { id site mission { name } } }
        pageInfo { endCursor hasNextPage }
      }
    }
    """
}

/// The launch server over a million synthetic rows, and the cursors at the two depths.
struct DeepServer: Sendable {
    let server: LaunchServer
    let bodies: [Int: Data]

    static func start(size: Int) async throws -> DeepServer {
        var configuration = LaunchServerConfiguration()
        configuration.dataset = .synthetic(count: rowCount)
        let server = try await LaunchServer.start(configuration)
        var bodies: [Int: Data] = [:]
        for depth in [100, 900_000] {
            guard let cursor = try await server.cursor(atDepth: depth) else {
                throw BenchmarkSetupError("no launch at depth \(depth)")
            }
            let body = try JSONSerialization.data(withJSONObject: [
                "query": pageDocument(size: size), "variables": ["after": cursor],
            ])
            try checkPage(await server.executeGraphQL(body: body), field: "launchConnection", size: size)
            bodies[depth] = body
        }
        return DeepServer(server: server, bodies: bodies)
    }
}

/// Checks that a response holds a page of 100 edges, so that every variant measures a real page.
func checkPage(_ response: Data, field: String, size: Int) throws {
    let object = try JSONSerialization.jsonObject(with: response) as? [String: Any]
    let data = object?["data"] as? [String: Any]
    let edges = (data?[field] as? [String: Any])?["edges"] as? [Any]
    guard edges?.count == size else {
        throw BenchmarkSetupError(
            "expected \(size) edges, got \(String(decoding: response, as: UTF8.self).prefix(300))")
    }
}

/// What a Graphiti user writes today: the rows in an array, paged by `connection(from:)`.
struct ArrayMission: Sendable, Codable {
    let name: String
}

struct ArrayLaunch: Sendable, Codable, Identifiable {
    let id: Int
    let site: String
    let mission: ArrayMission
}

struct ArrayResolver: Sendable {
    let rows: [ArrayLaunch]

    func launchConnection(context: NoContext, arguments: PaginationArguments) throws
        -> Graphiti.Connection<ArrayLaunch>
    {
        try rows.connection(from: arguments)
    }
}

struct ArrayAPI: Sendable {
    let resolver: ArrayResolver
    let schema: Schema<ArrayResolver, NoContext>
    let cursor: String

    init() throws {
        let sites = ["CCAFS SLC 40", "KSC LC 39A", "VAFB SLC 4E", "Kwajalein Atoll"]
        let rows = (0..<rowCount).map { index in
            ArrayLaunch(
                id: rowCount - index, site: sites[index % sites.count],
                mission: ArrayMission(name: "Mission \(rowCount - index)"))
        }
        resolver = ArrayResolver(rows: rows)
        schema = try Schema<ArrayResolver, NoContext> {
            Type(ArrayMission.self) { Field("name", at: \.name) }
            Type(ArrayLaunch.self) {
                Field("id", at: \.id)
                Field("site", at: \.site)
                Field("mission", at: \.mission)
            }
            ConnectionType(ArrayLaunch.self)
            Query {
                Field("launchConnection", at: ArrayResolver.launchConnection) {
                    Argument("first", at: \.first)
                    Argument("after", at: \.after)
                    Argument("last", at: \.last)
                    Argument("before", at: \.before)
                }
            }
        }
        cursor = Graphiti.Connection<ArrayLaunch>.cursor(rows[899_999])
    }

    func page(size: Int) async throws -> GraphQLResult {
        try await schema.execute(
            request: pageDocument(size: size),
            resolver: resolver, context: NoContext(), variables: ["after": .string(cursor)])
    }
}

let benchmarks: @Sendable () -> Void = {
    let fast = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal], warmupIterations: 10, maxDuration: .seconds(10),
        maxIterations: 2_000)

    for size in [20, 100] {
        for depth in [100, 900_000] {
            let deep = Shared<DeepServer>()
            Benchmark(
                "relay page of \(size) at depth \(depth == 100 ? "100" : "900,000"), 1,000,000 rows",
                configuration: fast,
                closure: { _ in
                    let server = try deep.get()
                    guard let body = server.bodies[depth] else { throw BenchmarkSetupError("no body") }
                    blackHole(await server.server.executeGraphQL(body: body))
                },
                setup: { deep.set(try await DeepServer.start(size: size)) },
                teardown: {
                    if let server = try? deep.get() { await server.server.stop() }
                    deep.set(nil)
                })
        }

        let array = Shared<ArrayAPI>()
        Benchmark(
            "Graphiti connection(from:), page of \(size) at depth 900,000, 1,000,000 rows",
            configuration: .init(
                metrics: [.wallClock, .cpuTotal], warmupIterations: 1, maxDuration: .seconds(20),
                maxIterations: 10),
            closure: { _ in
                let result = try await array.get().page(size: size)
                guard result.errors.isEmpty else { throw BenchmarkSetupError("\(result.errors)") }
                blackHole(result)
            },
            setup: {
                let api = try ArrayAPI()
                let result = try await api.page(size: size)
                try checkPage(try GraphQLJSONEncoder().encode(result), field: "launchConnection", size: size)
                array.set(api)
            },
            teardown: { array.set(nil) })
    }
}
