import Foundation
import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

@Suite("GraphQLQuerySource", .timeLimit(.minutes(HangLimit.minutes(1))))
struct GraphQLQueryPagerTests {
    typealias ForwardPager = GraphQLQuerySource<TodosQuery, TodosQuery, CursorBasedPagination.Forward, Todo>

    static func forward(
        _ server: FakeGraphQLServer, pageSize: Int = 2,
        onPartialData: (@Sendable (PartialDataReport<CursorBasedPagination.Forward>) -> Void)? = nil
    ) -> ForwardPager {
        GraphQLQuerySource(
            client: GraphQLClient(endpoint: testEndpoint, transport: server),
            initialQuery: TodosQuery(first: pageSize),
            extractPageInfo: { data in
                CursorBasedPagination.Forward(
                    hasNext: data.todos.pageInfo.hasNextPage, endCursor: data.todos.pageInfo.endCursor)
            },
            pageResolver: { page, direction in
                switch direction {
                case .next: TodosQuery(first: pageSize, after: page.endCursor)
                case .previous: nil
                }
            },
            transform: { data in Array(data.todos) },
            onPartialData: onPartialData)
    }

    static func ids(_ range: ClosedRange<Int>) -> [String] { range.map { "t\($0)" } }

    @Test("pages forward by cursor with the resolver's queries until hasNextPage is false")
    func pagesForward() async throws {
        let server = RelayList(count: 5).todosServer()
        let pager = Self.forward(server).makePager()

        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.map(\.id) == Self.ids(0...4))
        #expect(
            server.sentVariables == [
                ["first": 2], ["first": 2, "after": "cursor:1"], ["first": 2, "after": "cursor:3"],
            ])
        #expect(!pager.hasNext)
        #expect(!pager.hasPrevious, "a resolver without a previous query turns that end off")
        #expect(try await pager.loadPrevious().value == .endReached)
        #expect(server.received.count == 3)
    }

    @Test("pages backward from the end with last/before")
    func pagesInReverse() async throws {
        let server = RelayList(count: 5).todosServer()
        let pager = GraphQLQuerySource(
            client: GraphQLClient(endpoint: testEndpoint, transport: server),
            initialQuery: TodosQuery(last: 2),
            extractPageInfo: { data in
                CursorBasedPagination.Reverse(
                    hasPrevious: data.todos.pageInfo.hasPreviousPage,
                    startCursor: data.todos.pageInfo.startCursor)
            },
            pageResolver: { page, direction in
                direction == .previous ? TodosQuery(last: 2, before: page.startCursor) : nil
            },
            transform: { data in Array(data.todos) }
        ).makePager()

        #expect(try await pager.loadPrevious().value == .loaded)
        #expect(pager.items.map(\.id) == ["t3", "t4"])
        #expect(pager.hasPrevious)
        #expect(!pager.hasNext)
        while pager.hasPrevious, !Task.isCancelled { _ = try await pager.loadPrevious().value }
        #expect(pager.items.map(\.id) == Self.ids(0...4))
        #expect(
            server.sentVariables == [
                ["last": 2], ["last": 2, "before": "cursor:3"], ["last": 2, "before": "cursor:1"],
            ])
    }

    @Test("pages both ways from the middle, never sending first and last together")
    func pagesBothWays() async throws {
        let server = RelayList(count: 8).todosServer()
        let pager = GraphQLQuerySource(
            client: GraphQLClient(endpoint: testEndpoint, transport: server),
            initialQuery: TodosQuery(first: 2, after: RelayList.cursor(3)),
            extractPageInfo: { data in
                let info = data.todos.pageInfo
                return CursorBasedPagination.Bidirectional(
                    hasNext: info.hasNextPage, endCursor: info.endCursor,
                    hasPrevious: info.hasPreviousPage, startCursor: info.startCursor)
            },
            pageResolver: { page, direction in
                switch direction {
                case .next: TodosQuery(first: 2, after: page.endCursor)
                case .previous: TodosQuery(last: 2, before: page.startCursor)
                }
            },
            transform: { data in Array(data.todos) }
        ).makePager()

        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == ["t4", "t5"])
        #expect(pager.hasNext && pager.hasPrevious)
        #expect(try await pager.loadPrevious().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == Self.ids(2...7))
        #expect(
            server.sentVariables == [
                ["first": 2, "after": "cursor:3"], ["last": 2, "before": "cursor:4"],
                ["first": 2, "after": "cursor:5"],
            ])
        #expect(!pager.hasNext)
        while pager.hasPrevious, !Task.isCancelled { _ = try await pager.loadPrevious().value }
        #expect(pager.items.map(\.id) == Self.ids(0...7))
        #expect(server.sentVariables.allSatisfy { !($0["first"] != nil && $0["last"] != nil) })
    }

    @Test("uses a separate initial query, each query with its own page info and transform")
    func separateInitialAndPaginatedQueries() async throws {
        let server = RelayList(count: 7).todosServer()
        let pager = GraphQLQuerySource(
            client: GraphQLClient(endpoint: testEndpoint, transport: server),
            initialQuery: ViewerTodosQuery(variables: .init(first: 2)),
            extractInitialPageInfo: { data in
                CursorBasedPagination.Forward(
                    hasNext: data.viewer.todos.pageInfo.hasNextPage,
                    endCursor: data.viewer.todos.pageInfo.endCursor)
            },
            extractNextPageInfo: { data in
                CursorBasedPagination.Forward(
                    hasNext: data.todos.pageInfo.hasNextPage, endCursor: data.todos.pageInfo.endCursor)
            },
            pageResolver: { page, direction in
                direction == .next ? TodosQuery(first: 3, after: page.endCursor) : nil
            },
            initialTransform: { data in
                data.viewer.todos.map { Todo(id: $0.id, text: "\(data.viewer.name)'s \($0.text)") }
            },
            pageTransform: { data in Array(data.todos) }
        ).makePager()

        #expect(try await pager.loadAll() == .endReached)
        #expect(server.received.map(\.operationName) == ["ViewerTodos", "Todos", "Todos"])
        #expect(pager.items.map(\.id) == Self.ids(0...6))
        #expect(pager.items.first?.text == "Ada's Todo 0")
        #expect(pager.items.last?.text == "Todo 6")
        #expect(server.sentVariables[1] == ["first": 3, "after": "cursor:1"])
    }

    @Test("without a transform, each page is one item identified by the request that loaded it")
    func pagesWithoutATransform() async throws {
        let server = RelayList(count: 5).todosServer()
        let pager = GraphQLQuerySource(
            client: GraphQLClient(endpoint: testEndpoint, transport: server),
            initialQuery: TodosQuery(first: 2),
            extractPageInfo: { data in
                CursorBasedPagination.Forward(
                    hasNext: data.todos.pageInfo.hasNextPage, endCursor: data.todos.pageInfo.endCursor)
            },
            pageResolver: { page, direction in
                switch direction {
                case .next: TodosQuery(first: 2, after: page.endCursor)
                case .previous: nil
                }
            }
        ).makePager()

        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.count == 3)
        #expect(pager.items.flatMap { $0.value.todos.map(\.id) } == Self.ids(0...4))
        let requests = pager.items.map(\.id.position)
        #expect(
            requests == [
                .initial(nil),
                .next(after: CursorBasedPagination.Forward(hasNext: true, endCursor: "cursor:1")),
                .next(after: CursorBasedPagination.Forward(hasNext: true, endCursor: "cursor:3")),
            ])
        #expect(pager.items.first?.data.resolvedFrom == nil)
        #expect(pager.items.last?.data.direction == .next)
    }

    @Test("delivers a page that came with errors and reports the errors with its request")
    func deliversPartialData() async throws {
        let list = RelayList(count: 4)
        let server = FakeGraphQLServer { request in
            var answer = list.answer(request) { ["todos": $0] }
            if request.variables["after"] != nil {
                answer = [
                    "data": answer["data"] ?? nil,
                    "errors": [["message": "Owner unavailable", "path": ["todos", "edges", 0]]],
                ]
            }
            return answer
        }
        let reports = Recorder<PartialDataReport<CursorBasedPagination.Forward>>()
        let pager = Self.forward(server, onPartialData: reports.record).makePager()

        #expect(try await pager.loadNext().value == .loaded)
        #expect(reports.recorded.isEmpty)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == Self.ids(0...3), "the page with errors is shown")
        let report = try #require(reports.recorded.first)
        #expect(reports.recorded.count == 1)
        #expect(report.errors.map(\.message) == ["Owner unavailable"])
        #expect(report.errors.first?.path == ["todos", "edges", 0])
        #expect(
            report.request.position
                == .next(after: CursorBasedPagination.Forward(hasNext: true, endCursor: "cursor:1")))
    }

    @Test("errors without data fail the load with GraphQLClientError and keep the items")
    func errorsWithoutDataFail() async throws {
        let list = RelayList(count: 6)
        let server = FakeGraphQLServer { request in
            request.variables["after"] == "cursor:1"
                ? ["data": nil, "errors": [["message": "Not authorised"]]]
                : list.answer(request) { ["todos": $0] }
        }
        let pager = Self.forward(server).makePager()
        #expect(try await pager.loadNext().value == .loaded)

        await #expect {
            try await pager.loadNext().value
        } throws: { error in
            let paging = error as? PagingError
            let client = paging?.underlyingError as? GraphQLClientError
            return paging?.code == .loadFailed && client?.code == .graphQLErrors
                && client?.graphQLErrors.map(\.message) == ["Not authorised"]
        }
        #expect(pager.items.map(\.id) == ["t0", "t1"])
        #expect(pager.loadStates.next.error != nil)
    }

    @Test("a transport failure keeps the items, and retry repeats exactly the failed request")
    func transportFailureAndRetry() async throws {
        let server = RelayList(count: 6).todosServer()
        let pager = Self.forward(server).makePager()
        #expect(try await pager.loadNext().value == .loaded)

        server.failNext()
        await #expect {
            try await pager.loadNext().value
        } throws: { error in
            ((error as? PagingError)?.underlyingError as? GraphQLClientError)?.code == .transport
        }
        #expect(pager.items.map(\.id) == ["t0", "t1"])

        #expect(try await pager.retry().value == .loaded)
        #expect(pager.items.map(\.id) == Self.ids(0...3))
        #expect(server.sentVariables.count == 3)
        #expect(server.sentVariables[2] == server.sentVariables[1])
        #expect(server.sentVariables[2] == ["first": 2, "after": "cursor:1"])
    }

    @Test("a second loadNext while one is in flight joins it: one request")
    func secondLoadJoins() async throws {
        let server = RelayList(count: 6).todosServer()
        let pager = Self.forward(server).makePager()
        #expect(try await pager.loadNext().value == .loaded)

        server.hold()
        let first = pager.loadNext()
        await server.waitForRequests(2)
        let second = pager.loadNext()
        #expect(pager.isLoadingNext)
        server.release()
        #expect(try await first.value == .loaded)
        #expect(try await second.value == .loaded)
        #expect(server.received.count == 2)
        #expect(pager.items.map(\.id) == Self.ids(0...3))
    }

    @Test("cancelling the pager cancels the HTTP request, and the next load asks again")
    func cancellationCancelsTheRequest() async throws {
        let server = RelayList(count: 6).todosServer()
        let pager = Self.forward(server).makePager()
        #expect(try await pager.loadNext().value == .loaded)

        server.hold()
        let load = pager.loadNext()
        await server.waitForRequests(2)
        pager.cancel()
        #expect(try await load.value == .cancelled)
        await server.waitForCancellations(1)
        server.release()
        #expect(pager.items.map(\.id) == ["t0", "t1"])

        #expect(try await pager.loadNext().value == .loaded)
        #expect(server.sentVariables[2] == server.sentVariables[1])
        #expect(pager.items.map(\.id) == Self.ids(0...3))
    }

    @Test("a refresh cancels the page in flight and sends the initial query again")
    func refreshOutranksALoad() async throws {
        let server = RelayList(count: 6).todosServer()
        let pager = Self.forward(server).makePager()
        #expect(try await pager.loadNext().value == .loaded)

        server.hold()
        let next = pager.loadNext()
        await server.waitForRequests(2)
        let refresh = pager.refresh()
        #expect(try await next.value == .cancelled)
        await server.waitForRequests(3)
        server.release()
        #expect(try await refresh.value == .loaded)
        #expect(server.sentVariables[2] == ["first": 2])
        #expect(pager.items.map(\.id) == ["t0", "t1"], "the cancelled page is never applied")
    }

    @Test("opening at a key is refused: the initial query is where the pager opens")
    func refusesAnInitialKey() async throws {
        let server = RelayList(count: 6).todosServer()
        let pager = Pager(
            source: Self.forward(server),
            initialKey: CursorBasedPagination.Forward(hasNext: true, endCursor: "cursor:1"))
        await #expect {
            try await pager.loadNext().value
        } throws: { error in
            ((error as? PagingError)?.underlyingError as? GraphQLPagerError)?.code == .initialKey
        }
        #expect(server.received.isEmpty)
    }

    @Test("the list model shows the query pager's pages")
    @MainActor
    func listModel() async throws {
        let server = RelayList(count: 3).todosServer()
        let list = Self.forward(server).makeList()
        server.hold()
        let load = list.loadNext()
        #expect(list.isRefreshing)
        await server.waitForRequests(1)
        server.release()
        #expect(try await load.value == .loaded)
        await list.waitUntilCaughtUp()
        #expect(list.items.map(\.id) == ["t0", "t1"])
        #expect(list.hasNext)
        #expect(try await list.loadNext().value == .loaded)
        await list.waitUntilCaughtUp()
        #expect(list.items.map(\.id) == ["t0", "t1", "t2"])
        #expect(!list.hasNext)
    }
}
