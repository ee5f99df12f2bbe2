import Paging
import PagingTestSupport
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

@Suite("GraphQLQuerySource with offsets and factories", .timeLimit(.minutes(HangLimit.minutes(1))))
struct OffsetQueryPagerTests {
    static func ids(_ range: ClosedRange<Int>) -> [String] { range.map { "t\($0)" } }

    static func client(_ server: FakeGraphQLServer) -> GraphQLClient {
        GraphQLClient(endpoint: testEndpoint, transport: server)
    }

    @Test("the forward offset factory with a transform pages until a short page")
    func forwardOffsetWithTransform() async throws {
        let server = RelayList(count: 7).todosServer()
        let source = GraphQLQuerySource.makeForwardOffsetQueryPager(
            client: Self.client(server),
            queryProvider: { page in TodoFeedQuery(offset: page?.offset ?? 0, limit: 3) },
            extractPageInfo: { data, previous in
                OffsetPagination.Forward(
                    offset: (previous?.offset ?? 0) + data.feed.count, canLoadNext: data.feed.count == 3)
            },
            transform: { data in data.feed })
        let pager = source.makePager()

        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.map(\.id) == Self.ids(0...6))
        #expect(
            server.sentVariables == [
                ["offset": 0, "limit": 3], ["offset": 3, "limit": 3], ["offset": 6, "limit": 3],
            ])
        #expect(!pager.hasNext)
    }

    @Test("the forward offset factory without a transform lists one item per page")
    func forwardOffsetWithoutTransform() async throws {
        let server = RelayList(count: 4).todosServer()
        let source = GraphQLQuerySource.makeForwardOffsetQueryPager(
            client: Self.client(server),
            queryProvider: { page in TodoFeedQuery(offset: page?.offset ?? 0, limit: 2) },
            extractPageInfo: { data, previous in
                OffsetPagination.Forward(
                    offset: (previous?.offset ?? 0) + data.feed.count, canLoadNext: data.feed.count == 2)
            })
        let pager = source.makePager()

        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.map { $0.value.feed.map(\.id) } == [["t0", "t1"], ["t2", "t3"], []])
        #expect(
            pager.items.last?.id.position
                == .next(after: OffsetPagination.Forward(offset: 4, canLoadNext: true)))
    }

    @Test("a forward offset page that does not advance is reported, not followed forever")
    func repeatedOffsetIsReported() async throws {
        let server = RelayList(count: 4).todosServer()
        let source = GraphQLQuerySource.makeForwardOffsetQueryPager(
            client: Self.client(server),
            queryProvider: { page in TodoFeedQuery(offset: page?.offset ?? 0, limit: 2) },
            extractPageInfo: { _, _ in OffsetPagination.Forward(offset: 2, canLoadNext: true) },
            transform: { data in data.feed })
        let pager = source.makePager()
        #expect(try await pager.loadNext().value == .loaded)
        await #expect {
            try await pager.loadNext().value
        } throws: { error in
            (error as? PagingError)?.code == .repeatedKey
        }
    }

    @Test("reverse offset pagination pages from the end towards the start")
    func reverseOffset() async throws {
        let server = RelayList(count: 7).todosServer()
        let pager = GraphQLQuerySource(
            client: Self.client(server),
            initialQuery: TodoFeedQuery(offset: 4, limit: 3),
            extractPageInfo: { page in
                let start =
                    switch page {
                    case .initial: 4
                    case .paginated(let data, let from, _): from.offset - data.feed.count
                    }
                return OffsetPagination.Reverse(offset: start, canLoadPrevious: start > 0)
            },
            pageResolver: { (page: OffsetPagination.Reverse, direction) in
                direction == .previous
                    ? TodoFeedQuery(offset: max(0, page.offset - 3), limit: min(3, page.offset)) : nil
            },
            transform: { page in page.data.feed }
        ).makePager()

        #expect(try await pager.loadPrevious().value == .loaded)
        #expect(pager.items.map(\.id) == Self.ids(4...6))
        while pager.hasPrevious, !Task.isCancelled { _ = try await pager.loadPrevious().value }
        #expect(pager.items.map(\.id) == Self.ids(0...6))
        #expect(
            server.sentVariables == [
                ["offset": 4, "limit": 3], ["offset": 1, "limit": 3], ["offset": 0, "limit": 1],
            ])
        #expect(!pager.hasNext)
    }

    @Test("bidirectional offset pagination pages both ways from the middle")
    func bidirectionalOffset() async throws {
        let server = RelayList(count: 8).todosServer()
        let pager = GraphQLQuerySource(
            client: Self.client(server),
            initialQuery: TodoFeedQuery(offset: 4, limit: 2),
            extractPageInfo: { page in
                let start =
                    switch page {
                    case .initial: 4
                    case .paginated(_, let from, .next): from.offset + 2
                    case .paginated(_, let from, .previous): from.offset - 2
                    }
                return OffsetPagination.Bidirectional(
                    offset: start, canLoadNext: page.data.feed.count == 2, canLoadPrevious: start > 0)
            },
            pageResolver: { (page: OffsetPagination.Bidirectional, direction) -> TodoFeedQuery? in
                switch direction {
                case .next: TodoFeedQuery(offset: page.offset + 2, limit: 2)
                case .previous: TodoFeedQuery(offset: page.offset - 2, limit: 2)
                }
            },
            transform: { page in page.data.feed }
        ).makePager()

        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.hasNext && pager.hasPrevious)
        #expect(try await pager.loadPrevious().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == Self.ids(2...7))
        #expect(try await pager.loadNext().value == .loaded, "a full last page cannot know it is the last")
        #expect(!pager.hasNext)
        while pager.hasPrevious, !Task.isCancelled { _ = try await pager.loadPrevious().value }
        #expect(pager.items.map(\.id) == Self.ids(0...7))
        #expect(server.sentVariables.map { $0["offset"] } == [4, 2, 6, 8, 0])
    }
}
