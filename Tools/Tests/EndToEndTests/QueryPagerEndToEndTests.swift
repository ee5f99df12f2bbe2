import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import Testing

/// Apollo iOS's `GraphQLQueryPager`, as `PagingGraphQL` brings it: forward, reverse and
/// bidirectional cursor pagination over `launchConnection`, offset pagination over
/// `launchPage`, separate initial and paginated queries, pages without a transform, and the
/// forward-offset factory, all against the server on loopback.
@Suite("Apollo-style query pagers, end to end", .timeLimit(.minutes(30)))
struct QueryPagerEndToEndTests {
    @Test("A forward cursor pager loads every launch once, newest first, and never pages backward")
    func forwardCursor() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let pager = GraphQLQuerySource(
                client: server.client,
                initialQuery: LaunchConnectionQuery(first: 15),
                extractPageInfo: { data in
                    CursorBasedPagination.Forward(
                        hasNext: data.launchConnection.pageInfo.hasNextPage,
                        endCursor: data.launchConnection.pageInfo.endCursor)
                },
                pageResolver: { page, direction in
                    direction == .next ? LaunchConnectionQuery(first: 15, after: page.endCursor) : nil
                },
                transform: { data in Array(data.launchConnection) }
            ).makePager()
            let retries = try await Drive.toEnd(pager)
            #expect(retries == 0)
            #expect(pager.items.ids == expected)
            #expect(!pager.hasPrevious)
            let before = try await pager.loadPrevious().value
            #expect(before == .endReached)
        }
    }

    @Test("A reverse cursor pager starts at the oldest launches and prepends newer ones until the newest")
    func reverseCursor() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let pager = GraphQLQuerySource(
                client: server.client,
                initialQuery: LaunchConnectionQuery(last: 15),
                extractPageInfo: { data in
                    CursorBasedPagination.Reverse(
                        hasPrevious: data.launchConnection.pageInfo.hasPreviousPage,
                        startCursor: data.launchConnection.pageInfo.startCursor)
                },
                pageResolver: { page, direction in
                    direction == .previous ? LaunchConnectionQuery(last: 15, before: page.startCursor) : nil
                },
                transform: { data in Array(data.launchConnection) }
            ).makePager()
            #expect(try await pager.loadPrevious().value == .loaded)
            #expect(pager.items.ids == Array(expected.suffix(15)))
            #expect(!pager.hasNext)
            try await Drive.toEnd(pager, .previous)
            #expect(pager.items.ids == expected)
            #expect(pager.items.first?.id == expected.first)
        }
    }

    @Test("A bidirectional cursor pager opened in the middle loads both ways to both ends")
    func bidirectionalCursor() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let client = server.client
            let (middle, launch) = try await client.cursor(ofLaunchAt: 49)
            #expect(launch.id == expected[49])
            let pager = GraphQLQuerySource(
                client: client,
                initialQuery: LaunchConnectionQuery(first: 10, after: middle),
                extractPageInfo: { data in
                    let info = data.launchConnection.pageInfo
                    return CursorBasedPagination.Bidirectional(
                        hasNext: info.hasNextPage, endCursor: info.endCursor,
                        hasPrevious: info.hasPreviousPage, startCursor: info.startCursor)
                },
                pageResolver: { page, direction in
                    switch direction {
                    case .next: LaunchConnectionQuery(first: 10, after: page.endCursor)
                    case .previous: LaunchConnectionQuery(last: 10, before: page.startCursor)
                    }
                },
                transform: { data in Array(data.launchConnection) }
            ).makePager()
            #expect(try await pager.loadNext().value == .loaded)
            #expect(pager.items.ids == Array(expected[50..<60]))
            #expect(pager.hasPrevious)
            #expect(pager.hasNext)
            // Both ends at once: one load in flight at each end.
            async let forward = pager.loadNext().value
            async let backward = pager.loadPrevious().value
            #expect(try await [forward, backward] == [.loaded, .loaded])
            #expect(pager.items.ids == Array(expected[40..<70]))
            try await Drive.toEnd(pager, .next)
            try await Drive.toEnd(pager, .previous)
            #expect(pager.items.ids == expected)
        }
    }

    @Test("Separate initial and paginated queries: a larger first page, then pages of another query")
    func separateInitialAndPaginatedQueries() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let source = GraphQLQuerySource(
                client: server.client,
                initialQuery: LaunchFeedQuery(first: 25),
                extractInitialPageInfo: { data in
                    CursorBasedPagination.Forward(
                        hasNext: data.launchConnection.pageInfo.hasNextPage,
                        endCursor: data.launchConnection.pageInfo.endCursor)
                },
                extractNextPageInfo: { (data: LaunchConnectionQuery.Data) in
                    CursorBasedPagination.Forward(
                        hasNext: data.launchConnection.pageInfo.hasNextPage,
                        endCursor: data.launchConnection.pageInfo.endCursor)
                },
                pageResolver: { page, direction in
                    direction == .next ? LaunchConnectionQuery(first: 10, after: page.endCursor) : nil
                },
                initialTransform: { data in
                    guard data.launchConnection.totalCount == 100, !data.rockets.isEmpty else {
                        throw UnexpectedResponse("the first page lacks its total or its rockets")
                    }
                    return Array(data.launchConnection)
                },
                pageTransform: { data in Array(data.launchConnection) }
            )
            let pager = source.makePager()
            let first = try await pager.loadNext().value
            #expect(first == .loaded)
            #expect(pager.items.count == 25)
            let retries = try await Drive.toEnd(pager)
            #expect(retries == 0)
            #expect(pager.items.ids == expected)
        }
    }

    @Test("Without a transform each page is one QueryPage, and the pages hold every launch once")
    func pagesWithoutTransform() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let pager = GraphQLQuerySource(
                client: server.client,
                initialQuery: LaunchConnectionQuery(first: 30),
                extractPageInfo: { (data: LaunchConnectionQuery.Data) in
                    CursorBasedPagination.Forward(
                        hasNext: data.launchConnection.pageInfo.hasNextPage,
                        endCursor: data.launchConnection.pageInfo.endCursor)
                },
                pageResolver: { page, direction in
                    direction == .next ? LaunchConnectionQuery(first: 30, after: page.endCursor) : nil
                }
            ).makePager()
            try await Drive.toEnd(pager)
            #expect(pager.items.count == 4)
            #expect(pager.items.flatMap { $0.value.launchConnection.map(\.id) } == expected)
            #expect(pager.items.first?.id == PageRequest(.initial(nil), count: 20))
        }
    }

    @Test("An offset pager over launchPage, made with the forward-offset factory, loads every launch once")
    func forwardOffsetFactory() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            // Apollo's example: the next offset is the previous one plus the page's count, and
            // a page shorter than the limit is the last.
            let source = GraphQLQuerySource.makeForwardOffsetQueryPager(
                client: server.client,
                queryProvider: { page in LaunchPageQuery(offset: page?.offset ?? 0, limit: 30) },
                extractPageInfo: { data, previous in
                    OffsetPagination.Forward(
                        offset: (previous?.offset ?? 0) + data.launchPage.launches.count,
                        canLoadNext: data.launchPage.launches.count == 30)
                },
                transform: { data in data.launchPage.launches }
            )
            let pager = source.makePager()
            let retries = try await Drive.toEnd(pager)
            #expect(retries == 0)
            #expect(pager.items.ids == expected)
            #expect(pager.loadStates.next == .endReached)
        }
    }

    @Test("The forward-offset factory without a transform keeps one QueryPage per page, ending on hasMore")
    func forwardOffsetFactoryWithoutTransform() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let source = GraphQLQuerySource.makeForwardOffsetQueryPager(
                client: server.client,
                queryProvider: { page in LaunchPageQuery(offset: page?.offset ?? 0, limit: 20) },
                extractPageInfo: { data, previous in
                    OffsetPagination.Forward(
                        offset: (previous?.offset ?? 0) + data.launchPage.launches.count,
                        canLoadNext: data.launchPage.hasMore)
                }
            )
            let pager = source.makePager()
            try await Drive.toEnd(pager)
            #expect(pager.items.count == 5)
            #expect(pager.items.map(\.value.launchPage.offset) == [0, 20, 40, 60, 80])
            #expect(pager.items.flatMap { $0.value.launchPage.launches.map(\.id) } == expected)
            #expect(pager.items.allSatisfy { $0.value.launchPage.totalCount == 100 })
        }
    }
}
