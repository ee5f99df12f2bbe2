import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import Testing

/// Every seed scenario against a server with no launches at all: one empty page, then the end.
@Suite("Paging an empty list, end to end", .timeLimit(.minutes(30)))
struct EmptyListEndToEndTests {
    /// Loads the first page and expects an empty list at its end.
    static func expectEmpty<Key, Item>(_ pager: Pager<Key, Item>, _ direction: LoadDirection = .next)
        async throws
    {
        let outcome = try await direction == .next ? pager.loadNext().value : pager.loadPrevious().value
        #expect(outcome == .loaded)
        #expect(pager.items.isEmpty)
        #expect(!pager.hasNext)
        #expect(!pager.hasPrevious)
    }

    @Test("Every pager loads one empty page from an empty server and stops")
    func everyPager() async throws {
        try await withLaunchServer({ $0.dataset = .empty }) { server in
            let client = server.client
            let rest = server.rest
            try await Self.expectEmpty(TutorialEndToEndTests.source(client).makePager())
            try await Self.expectEmpty(TimelineEndToEndTests.source(rest).makePager())
            try await Self.expectEmpty(ConsistencyEndToEndTests.relaySource(client).makePager())
            let document = try ConnectionDocument(ConnectionSourceEndToEndTests.bidirectional)
            try await Self.expectEmpty(
                ConnectionSource(client: client, document: document, as: Launch.self).makePager())
            let backward = try ConnectionDocument(ConnectionSourceEndToEndTests.backwardOnly)
            try await Self.expectEmpty(
                ConnectionSource(client: client, document: backward, as: Launch.self).makePager(), .previous)
            let offsets = GraphQLQuerySource.makeForwardOffsetQueryPager(
                client: client,
                queryProvider: { page in LaunchPageQuery(offset: page?.offset ?? 0, limit: 20) },
                extractPageInfo: { data, previous in
                    OffsetPagination.Forward(
                        offset: (previous?.offset ?? 0) + data.launchPage.launches.count,
                        canLoadNext: data.launchPage.hasMore)
                },
                transform: { data in data.launchPage.launches })
            try await Self.expectEmpty(offsets.makePager())
            let links = NextTokenSource<URL, RESTLaunch> { next, count in
                let page = try await rest.listPage(next ?? rest.firstListURL(perPage: count))
                return TokenPage(items: page.launches, nextToken: page.links["next"])
            }
            try await Self.expectEmpty(links.makePager())
        }
    }
}
