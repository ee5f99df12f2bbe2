import Benchmark
import BenchmarkSupport
import Foundation
import Paging
import PagingGraphQL

// Issue 8: the workload Apollo iOS's GraphQLQueryPager was measured on (apollo-ios 2.4.0 with
// apollo-ios-pagination 1.0.0): 1,000 pages of 100 items loaded one after another through the
// real client (JSON parsing, the normalized store, the list following it) over a transport that
// answers at once from precomputed page bodies (`edges { cursor node { __typename id name } }`
// and `pageInfo`), and the time from `loadNext()` until the `@Observable` list shows the page.
//
// Each "pages a-b" benchmark loads pages 1 … a-1 in its setup, outside the measurement, and then
// measures one page per sample, ten samples: their median is the median time of pages a … b.
// "all 1,000 pages" loads the whole list from an empty store per sample, for the total time and
// the peak memory.

let pageCount = 1_000
let pageSize = 100

let listDocument = """
    query Launches($first: Int, $after: String) {
      launches(first: $first, after: $after) @connection(key: "Launches_launches") {
        edges { cursor node { id name } }
        pageInfo { endCursor hasNextPage }
      }
    }
    """

/// The page bodies, made once: what a server would answer, `__typename` included since the
/// client with a store asks for it.
let pageBodies: [Data] = (0..<pageCount).map { page in
    var edges: [String] = []
    edges.reserveCapacity(pageSize)
    for index in 0..<pageSize {
        let id = page * pageSize + index
        edges.append(
            #"{"__typename":"LaunchEdge","cursor":"c\#(id)","node":{"__typename":"Launch","id":"\#(id)","name":"Launch \#(id)"}}"#
        )
    }
    let next = page + 1 < pageCount
    return Data(
        #"{"data":{"launches":{"__typename":"LaunchConnection","edges":[\#(edges.joined(separator: ","))],"pageInfo":{"__typename":"PageInfo","endCursor":"c\#(page * pageSize + pageSize - 1)","hasNextPage":\#(next)}}}}"#
            .utf8)
}

/// Builds the page bodies (a lazy global) in a benchmark's setup, not in its first sample.
func makePageBodies() { _ = pageBodies.count }

/// Answers each request at once with the page after its `after` cursor.
struct PrecomputedTransport: GraphQLTransport {
    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let body = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
        let variables = body?["variables"] as? [String: Any]
        var page = 0
        if let after = variables?["after"] as? String, let last = Int(after.dropFirst()) {
            page = (last + 1) / pageSize
        }
        guard page < pageBodies.count else { throw URLError(.badServerResponse) }
        return GraphQLHTTPResponse(statusCode: 200, body: pageBodies[page])
    }
}

struct Launch: Decodable, Identifiable, Sendable {
    let id: String
    let name: String
}

/// A fresh list over a fresh store.
@MainActor
func makeList() throws -> PagedList<String, Launch> {
    let client = GraphQLClient(
        endpoint: URL(fileURLWithPath: "/graphql"), transport: PrecomputedTransport(), store: GraphQLStore())
    return ConnectionSource(client: client, document: try ConnectionDocument(listDocument), as: Launch.self)
        .makeList(configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0))
}

/// Loads one page and checks that the list shows it.
@MainActor
func loadPage(_ list: PagedList<String, Launch>) async throws {
    let before = list.items.count
    _ = try await list.loadNext().value
    guard list.items.count == before + pageSize else {
        throw BenchmarkSetupError("the list shows \(list.items.count) items after a page, \(before) before")
    }
}

/// The list of a benchmark, made in its setup.
@MainActor
final class ListHolder {
    var list: PagedList<String, Launch>?

    nonisolated init() {}

    /// Loads the list's next page.
    func step() async throws {
        guard let list else { throw BenchmarkSetupError("setup made no list") }
        try await loadPage(list)
    }
}

let benchmarks: @Sendable () -> Void = {
    let perPage = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 0, maxDuration: .seconds(60),
        maxIterations: 10)
    for first in [1, 91, 491, 991] {
        let holder = ListHolder()
        Benchmark(
            "GraphQL list, pages \(first)-\(first + 9)", configuration: perPage,
            closure: { _ in try await holder.step() },
            setup: {
                makePageBodies()
                try await MainActor.run { holder.list = try makeList() }
                for _ in 1..<first { try await holder.step() }
            },
            teardown: { await MainActor.run { holder.list = nil } })
    }

    Benchmark(
        "GraphQL list, all 1,000 pages",
        configuration: .init(
            metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal], warmupIterations: 0,
            maxDuration: .seconds(60), maxIterations: 3, setup: { makePageBodies() })
    ) { _ in
        let list = try await makeList()
        for _ in 0..<pageCount { try await loadPage(list) }
    }
}
