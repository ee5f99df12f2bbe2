import Foundation
import Paging
import PagingTestSupport
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

/// Pagers, lists, followers and watches made and dropped by the thousand on one store leave
/// nothing behind: no cycle keeps one alive, the store forgets their handlers, and the heap
/// comes back to where it was (issue 18's leak check; `make leaks` runs every test under
/// LeakSanitizer besides).
@MainActor
@Suite("Lifetimes: made and dropped by the thousand", .serialized, .timeLimit(.minutes(HangLimit.minutes(5))))
struct LifetimeTests {
    static let document = """
        query Launches($first: Int, $after: String) {
          launchConnection(first: $first, after: $after) @connection(key: "Fleet_launches") {
            edges { node { \(FollowedLaunch.selection) } }
          }
        }
        """

    static let detail = "query($id: ID!) { launch(id: $id) { __typename id site } }"

    /// One page of three launches, the last: what every request gets. A transport of its own,
    /// which keeps nothing per request, so the heap measures the library alone.
    struct OnePageTransport: GraphQLTransport {
        let body: Data

        init() throws {
            let nodes: [JSONValue] = (1...3).map { number in
                [
                    "__typename": "Launch", "id": .string("\(number)"), "site": .string("Site \(number)"),
                    "isBooked": false,
                    "rocket": ["__typename": "Rocket", "id": "falcon9", "name": "Falcon 9"],
                ]
            }
            let page: JSONValue = [
                "data": [
                    "launchConnection": [
                        "__typename": "LaunchConnection",
                        "edges": .array(
                            nodes.enumerated().map { index, node in
                                [
                                    "__typename": "LaunchEdge", "cursor": .string("c\(index + 1)"),
                                    "node": node,
                                ]
                            }),
                        "pageInfo": ["__typename": "PageInfo", "hasNextPage": false, "endCursor": "c3"],
                    ]
                ]
            ]
            body = page.jsonData(sortingKeys: true)
        }

        func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
            GraphQLHTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body)
        }
    }

    /// What one round leaves to check: weak references to what it made.
    struct Made {
        weak var pager: Pager<String, FollowedLaunch>?
        weak var list: PagedList<String, FollowedLaunch>?
    }

    /// Makes a pager over the store (which makes its follower), loads its page, shows it in a
    /// list, watches a record of the store and reads the watch's first value, then drops all.
    static func round(_ client: GraphQLClient, _ store: GraphQLStore, _ operation: StoreOperation)
        async throws -> Made
    {
        let source = ConnectionSource(
            client: client, document: try ConnectionDocument(document), as: FollowedLaunch.self)
        let pager = source.makePager(configuration: try PagingConfiguration(pageSize: 3, prefetchDistance: 0))
        let list = PagedList(pager: pager)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.snapshot.items.count == 3, "\(Array(pager.snapshot.items))")
        var iterator = store.watch(operation).makeAsyncIterator()
        #expect(await iterator.next() != nil)
        return Made(pager: pager, list: list)
    }

    /// Whether what a round made is gone once the main actor has run what the round queued.
    ///
    /// A load's task lets go of its pager before the load's value comes back (so nothing of
    /// the load holds it then), but a list takes its last snapshot in a task on the main actor,
    /// queued during the round: the check yields to it (a bounded number of times, no
    /// sleeping) before it calls anything a leak.
    static func released(_ made: Made) async -> Bool {
        await eventually { made.pager == nil && made.list == nil }
    }

    /// Whether a condition holds, yielding (a bounded number of times, no sleeping) to what
    /// was queued before it does.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1_000 {
            if condition() { return true }
            await Task.yield()
        }
        return condition()
    }

    @Test(
        "10,000 pagers, lists, followers and watches on one store (1,000 under a sanitizer): none outlives its round"
    )
    func nothingOutlivesItsRound() async throws {
        let store = GraphQLStore()
        let client = GraphQLClient(endpoint: testEndpoint, transport: try OnePageTransport(), store: store)
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        try store.write(
            data: ["launch": ["__typename": "Launch", "id": "1", "site": "Site 1"]], for: operation)

        // The first rounds fill what is made once (the store's records, caches of parsed
        // documents, the runtime's metadata); the heap is measured after them.
        for _ in 0..<200 {
            let made = try await Self.round(client, store, operation)
            #expect(await Self.released(made))
        }
        let before = ResidentMemory.bytes()
        var survivors = 0
        // Under a sanitizer the resident size is not measured (below), only what outlives its
        // round, which 1,000 rounds show as well: each round is several times slower there, and
        // the 10,000 took minutes of the race run's two cores.
        let rounds = ResidentMemory.underAddressSanitizer || HangLimit.underThreadSanitizer ? 1_000 : 10_000
        for _ in 0..<rounds {
            let made = try await Self.round(client, store, operation)
            if await !Self.released(made) { survivors += 1 }
        }
        let after = ResidentMemory.bytes()

        #expect(survivors == 0, "pagers or lists kept alive past their round")
        // The last round's load task holds its source (and so its follower) until it ends,
        // just after the load's value came back.
        #expect(
            await Self.eventually { store.state.withLock { $0.observers.count } == 0 },
            "followers left registered")
        #expect(store.liveWatchCount == 0, "watches left registered")
        #expect(store.recordKeys == ["QUERY_ROOT", "Launch:1", "Launch:2", "Launch:3", "Rocket:falcon9"])
        if ResidentMemory.underAddressSanitizer {
            // Its allocator keeps freed memory in quarantine (up to 256 MB), so the resident
            // size grows whatever the code keeps; LeakSanitizer checks what is kept instead.
            print("resident: not measured under AddressSanitizer (freed memory is held in quarantine)")
        } else if HangLimit.underThreadSanitizer {
            // Its shadow memory grows with every address any test running beside this one
            // touches (a run grew by 4.7 MB so); the survivors above are counted all the same.
            print("resident: not measured under ThreadSanitizer (its shadow memory follows the other tests)")
        } else if let before, let after {
            // Freed memory stays with the process and is used again, so the resident size stays
            // where it was unless something is kept: a round that kept 400 bytes would add 4 MB.
            let growth = after - before
            print("resident: \(before) bytes after 200 rounds, \(after) after 10,000 more")
            #expect(growth < 4_000_000, "the process grew by \(growth) bytes over 10,000 rounds")
        }
    }
}

/// The process's resident size, where the system reports it (`/proc/self/statm` on Linux).
enum ResidentMemory {
    /// Whether AddressSanitizer runs in the process (its runtime defines `__asan_init`).
    static let underAddressSanitizer = dlsym(nil, "__asan_init") != nil

    static func bytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
