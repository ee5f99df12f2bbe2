import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import Testing

/// The synthetic dataset: thousands of launches paged to the end, 100 at a time.
@Suite("Paging a large synthetic dataset, end to end", .timeLimit(.minutes(30)))
struct LargeDatasetEndToEndTests {
    static let count = 5_000

    /// Checks that a list is every launch once, newest first.
    static func checkNewestFirst(_ launches: some Collection<Launch>) {
        #expect(launches.count == count)
        #expect(Set(launches.map(\.id)).count == count)
        let positions = launches.map { ($0.launchDate ?? "", Int($0.id) ?? -1) }
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 > $1 }, "not newest first")
    }

    @Test("A Relay document pager pages 5,000 launches to the end, 100 a page, every id once")
    func relay() async throws {
        let document = try ConnectionDocument(ConnectionSourceEndToEndTests.bidirectional)
        try await withLaunchServer({ $0.dataset = .synthetic(count: Self.count) }) { server in
            let total = try await server.client.send(LaunchConnectionQuery(first: 0)).data?.launchConnection
                .totalCount
            #expect(total == Self.count)
            let pager = ConnectionSource(client: server.client, document: document, as: Launch.self)
                .makePager(configuration: try PagingConfiguration(pageSize: 100))
            var pages = 0
            try await Drive.toEnd(pager, afterEachPage: { _ in pages += 1 })
            #expect(pages == Self.count / 100)
            Self.checkNewestFirst(pager.items)
        }
    }

    @Test("The tutorial's pager pages 5,000 launches to the end, 100 a page, every id once")
    func tutorial() async throws {
        try await withLaunchServer({ $0.dataset = .synthetic(count: Self.count) }) { server in
            let pager = TutorialEndToEndTests.source(server.client).makePager(
                configuration: try PagingConfiguration(pageSize: 100))
            try await Drive.toEnd(pager)
            Self.checkNewestFirst(pager.items)
        }
    }

    @Test("A windowed pager holds at most five pages while it scrolls through 5,000 launches")
    func windowed() async throws {
        let document = try ConnectionDocument(ConnectionSourceEndToEndTests.bidirectional)
        try await withLaunchServer({ $0.dataset = .synthetic(count: Self.count) }) { server in
            let pager = ConnectionSource(client: server.client, document: document, as: Launch.self)
                .makePager(configuration: try PagingConfiguration(pageSize: 100, maximumHeld: .pages(5)))
            var seen: Set<String> = []
            var mostHeld = 0
            try await Drive.toEnd(
                pager,
                afterEachPage: { pager in
                    seen.formUnion(pager.items.ids)
                    mostHeld = max(mostHeld, pager.items.count)
                })
            #expect(seen.count == Self.count)
            #expect(mostHeld <= 500)
            #expect(pager.hasPrevious)
        }
    }
}
