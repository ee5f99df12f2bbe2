import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import Testing

/// Runs against a server that fails a share of its requests (an HTTP 500, a GraphQL error, or
/// a dropped connection), seeded so that a failing run replays: a loop that loads and, on
/// each failure, calls `retry()` must end with exactly the list a fault-free run loads.
@Suite("Paging to the end through injected faults, end to end", .timeLimit(.minutes(30)))
struct FaultInjectionEndToEndTests {
    /// The seed of the faults; change it to explore, keep it to replay.
    static let seed: UInt64 = 0x5EED_2024
    static let rate = 0.3

    /// A server configuration that fails `rate` of the requests, every kind, with `seed`.
    static func faulty(_ configuration: inout LaunchServerConfiguration) {
        configuration.faults = FaultInjection(rate: rate, kinds: FaultKind.allCases)
        configuration.seed = seed
    }

    /// How a failed load failed, in a word.
    static func kind(of error: PagingError) -> String {
        switch error.underlyingError {
        case let error as GraphQLClientError: "\(error.code)"
        case let error as RESTClient.StatusError: "HTTP \(error.status)"
        case let error?: "\(type(of: error))"
        case nil: "\(error.code)"
        }
    }

    /// Loads a list to its end once without faults and once with them, and compares.
    /// - Returns: the retries and the kinds of failure of the run with faults.
    @discardableResult
    static func compare<Key, Item: Identifiable>(
        _ name: String,
        direction: LoadDirection = .next,
        makePager: (LaunchServer) throws -> Pager<Key, Item>
    ) async throws -> (retries: Int, kinds: Set<String>) where Item.ID: Sendable {
        let clean = try await withLaunchServer { server in
            let pager = try makePager(server)
            #expect(try await Drive.toEnd(pager, direction) == 0)
            return pager.items.ids
        }
        print("\(name): faults at rate \(rate) with seed \(seed)")
        return try await withLaunchServer(faulty) { server in
            let pager = try makePager(server)
            var kinds: Set<String> = []
            let retries = try await Drive.toEnd(pager, direction, onFailure: { kinds.insert(kind(of: $0)) })
            print("\(name): \(retries) retries after \(kinds.sorted().joined(separator: ", "))")
            #expect(pager.items.ids == clean, "\(name) with seed \(seed)")
            #expect(Set(pager.items.ids).count == pager.items.count, "\(name) with seed \(seed)")
            #expect(retries > 0, "\(name): no request failed, so the faults were not exercised")
            return (retries, kinds)
        }
    }

    @Test("The tutorial's pager retries through the faults and ends with the fault-free list")
    func tutorial() async throws {
        let expected = try ReferenceLaunches.ids()
        let run = try await Self.compare("tutorial") { server in
            TutorialEndToEndTests.source(server.client).makePager(
                configuration: try PagingConfiguration(pageSize: 5))
        }
        // With this seed, every kind of fault occurs: an HTTP 500, a GraphQL error, a dropped connection.
        #expect(run.kinds == ["graphQLErrors", "httpStatus", "transport"])
        // The fault-free list is the reference data.
        let clean = try await withLaunchServer { server in
            let pager = TutorialEndToEndTests.source(server.client).makePager(
                configuration: try PagingConfiguration(pageSize: 5))
            try await Drive.toEnd(pager)
            return pager.items.ids
        }
        #expect(clean == expected)
    }

    @Test("A Relay document pager retries through the faults and ends with the fault-free list")
    func relayDocument() async throws {
        let document = try ConnectionDocument(ConnectionSourceEndToEndTests.bidirectional)
        let run = try await Self.compare("relay") { server in
            ConnectionSource(client: server.client, document: document, as: Launch.self)
                .makePager(configuration: try PagingConfiguration(pageSize: 5))
        }
        #expect(run.kinds == ["graphQLErrors", "httpStatus", "transport"])
    }

    @Test("An Apollo-style reverse pager retries through the faults and ends with the fault-free list")
    func reverseQueryPager() async throws {
        try await Self.compare("reverse query pager", direction: .previous) { server in
            GraphQLQuerySource(
                client: server.client,
                initialQuery: LaunchConnectionQuery(last: 6),
                extractPageInfo: { data in
                    CursorBasedPagination.Reverse(
                        hasPrevious: data.launchConnection.pageInfo.hasPreviousPage,
                        startCursor: data.launchConnection.pageInfo.startCursor)
                },
                pageResolver: { page, direction in
                    direction == .previous ? LaunchConnectionQuery(last: 6, before: page.startCursor) : nil
                },
                transform: { data in Array(data.launchConnection) }
            ).makePager()
        }
    }

    @Test("The Makestagram timeline retries through REST faults and ends with the fault-free list")
    func timeline() async throws {
        let run = try await Self.compare("timeline") { server in
            TimelineEndToEndTests.source(server.rest).makePager(
                configuration: try PagingConfiguration(pageSize: 5, prefetchDistance: 0))
        }
        // The REST routes answer both an injected HTTP error and a GraphQL error with HTTP 500.
        #expect(run.kinds == ["HTTP 500", "URLError"])
    }

    @Test("A windowed pager of three pages scrolls to the end and all the way back through the faults")
    func windowed() async throws {
        let expected = try ReferenceLaunches.ids()
        let document = try ConnectionDocument(ConnectionSourceEndToEndTests.bidirectional)
        let configuration = try PagingConfiguration(pageSize: 10, prefetchDistance: 5, maximumHeld: .pages(3))
        for faults in [false, true] {
            if faults { print("windowed: faults at rate \(Self.rate) with seed \(Self.seed)") }
            try await withLaunchServer({ if faults { Self.faulty(&$0) } }) { server in
                let pager = ConnectionSource(client: server.client, document: document, as: Launch.self)
                    .makePager(configuration: configuration)
                var seen: Set<String> = []
                var mostHeld = 0
                // Every window is a run of consecutive launches of the reference list.
                func check(_ pager: Pager<String, Launch>) throws {
                    let ids = pager.items.ids
                    let first = try #require(ids.first)
                    let start = try #require(expected.firstIndex(of: first))
                    #expect(ids == Array(expected[start..<min(start + ids.count, expected.count)]))
                    seen.formUnion(ids)
                    mostHeld = max(mostHeld, ids.count)
                }
                var retries = try await Drive.toEnd(pager, .next, afterEachPage: check)
                #expect(pager.items.last?.id == expected.last)
                #expect(pager.items.count <= 30)
                #expect(pager.hasPrevious)
                retries += try await Drive.toEnd(pager, .previous, afterEachPage: check)
                #expect(!pager.hasPrevious)
                #expect(pager.items.ids == Array(expected.prefix(pager.items.count)))
                #expect(seen == Set(expected))
                #expect(mostHeld <= 30)
                if faults {
                    print("windowed: \(retries) retries")
                    #expect(retries > 0, "windowed: no request failed with seed \(Self.seed)")
                } else {
                    #expect(retries == 0)
                }
            }
        }
    }
}
