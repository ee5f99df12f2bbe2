import Benchmark
import BenchmarkSupport
import Foundation
import GraphQLBenchmarkSupport
import Paging
import PagingGraphQLClient

// Issue 41, records in the right lists: what a membership rule costs a list of 100,000 launches
// (1,000 pages of 100, loaded through the real client and store) when one launch of it changes.
//
// With the rule (`launches` lists every launch not named "hidden", by id), a rename to "hidden"
// takes the launch out of the list, and the rename back puts it in again at its place, found by
// binary search over the 100,000 held; one sample is both changes. Beside it, the same two renames
// over the same list without a rule, which update the row in place: the cost of following the
// store at all. The list is checked after each change. And what the rule costs the 1,000 pages as
// they load, against the same load without it.

let heldPages = 1_000
let launchesPerPage = 100
let heldCount = heldPages * launchesPerPage

/// The page bodies, made once.
let bodies: [Data] = (0..<heldPages).map {
    launchPageBody(page: $0, pageSize: launchesPerPage, pageCount: heldPages)
}

/// The rule of the list: every launch not named "hidden", by id.
let rule = ConnectionMembershipRule(
    connection: "Launches_launches", typename: "Launch", filter: .not(.field("name", equals: "hidden")),
    order: [.ascending("id", comparison: .numericText)])

/// A list of every launch, loaded to its end, and its store.
///
/// `@unchecked Sendable`: the harness calls a benchmark's setup, samples and teardown one after
/// another, never at once, so its mutable properties are never accessed concurrently.
final class HeldList: @unchecked Sendable {
    var pager: Pager<String, Launch>?
    var store: GraphQLStore?
    let rules: [ConnectionMembershipRule]

    init(rules: [ConnectionMembershipRule]) {
        self.rules = rules
    }

    func load() async throws {
        var configuration = GraphQLStore.Configuration()
        configuration.membershipRules = rules
        let store = GraphQLStore(configuration: configuration)
        let client = GraphQLClient(
            endpoint: URL(fileURLWithPath: "/graphql"),
            transport: LaunchPageTransport(pageSize: launchesPerPage, pageCount: heldPages) { bodies[$0] },
            store: store)
        let pager = ConnectionSource(
            client: client, document: try ConnectionDocument(launchListDocument), as: Launch.self
        ).makePager(configuration: try PagingConfiguration(pageSize: launchesPerPage, prefetchDistance: 0))
        for _ in 0..<heldPages { _ = try await pager.loadNext().value }
        guard pager.items.count == heldCount else {
            throw BenchmarkSetupError("the list holds \(pager.items.count) launches")
        }
        self.pager = pager
        self.store = store
    }

    /// Renames launch 50,000, as a query's answer written to the store would.
    func rename(to name: String) throws {
        guard let store else { throw BenchmarkSetupError("no list") }
        try store.write(
            data: ["renamed": ["__typename": "Launch", "id": "50000", "name": .string(name)]],
            for: StoreOperation(document: "{ renamed { __typename id name } }"))
    }

    /// Renames it away and back, and checks what the list shows after each.
    func step() throws {
        guard let pager else { throw BenchmarkSetupError("no list") }
        try rename(to: "hidden")
        let hidden = rules.isEmpty ? heldCount : heldCount - 1
        guard pager.items.count == hidden else { throw BenchmarkSetupError("not taken out") }
        try rename(to: "Launch 50000")
        guard pager.items.count == heldCount, pager.items[50_000].name == "Launch 50000" else {
            throw BenchmarkSetupError("not put back at its place")
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 2, maxDuration: .seconds(20),
        maxIterations: 200)
    // What a rule costs the pages as they load: each page's records are placed once it is in
    // (they are in place: nothing moves).
    for (name, rules) in [("with a rule", [rule]), ("without a rule", [])] {
        Benchmark(
            "Membership, loading 100,000 launches (1,000 pages), \(name)",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal], warmupIterations: 0, maxIterations: 3)
        ) { _ in
            let list = HeldList(rules: rules)
            try await list.load()
        }
    }
    for (name, rules) in [
        ("with a rule: out and back in at its place", [rule]), ("without a rule: updated in place", []),
    ] {
        let list = HeldList(rules: rules)
        Benchmark(
            "Membership, 100,000 held, one launch renamed twice, \(name)", configuration: configuration,
            closure: { _ in try list.step() },
            setup: { try await list.load() },
            teardown: {
                list.pager = nil
                list.store = nil
            })
    }
}
