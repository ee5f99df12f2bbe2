import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

@Suite("PaginationFragment", .timeLimit(.minutes(HangLimit.minutes(1))))
@MainActor
struct PaginationFragmentTests {
    static let toDoList = """
        fragment ToDoList_user on User
          @refetchable(queryName: "ToDoListPaginationQuery")
          @argumentDefinitions(count: { type: "Int", defaultValue: 10 }, cursor: { type: "String" }) {
          todos(first: $count, after: $cursor) @connection(key: "ToDoList_todos") {
            edges { node { id ...ToDoItem_todo } }
          }
        }
        fragment ToDoItem_todo on Todo { text }
        """

    static let bidirectional = """
        fragment Timeline_user on User
          @refetchable(queryName: "TimelinePaginationQuery")
          @argumentDefinitions(
            count: { type: "Int" }, cursor: { type: "String" }, last: { type: "Int" }, before: { type: "String" }
          ) {
          todos(first: $count, after: $cursor, last: $last, before: $before) @connection(key: "Timeline_todos") {
            edges { node { id text } }
          }
        }
        """

    static func nodeServer(_ list: RelayList) -> FakeGraphQLServer {
        FakeGraphQLServer { request in
            list.answer(request, first: "count", after: "cursor") {
                ["node": ["__typename": "User", "id": request.variables["id"] ?? nil, "todos": $0]]
            }
        }
    }

    static func client(_ server: FakeGraphQLServer) -> GraphQLClient {
        GraphQLClient(endpoint: testEndpoint, transport: server)
    }

    static func ids(_ range: ClosedRange<Int>) -> [String] { range.map { "t\($0)" } }

    @Test(
        "starting from the parent's data: its nodes are the first page with no request; the next asks after it"
    )
    func startsFromTheParentsData() async throws {
        let list = RelayList(count: 5)
        let server = Self.nodeServer(list)
        let parent = try list.connection(first: 2, after: nil, last: nil, before: nil).get()
        let user = try PaginationFragment(
            PaginationFragmentDocument(Self.toDoList), nodeID: "u1", client: Self.client(server),
            as: Todo.self
        )
        .startingFrom(["todos": parent]).makeList()

        #expect(try await user.loadNext(count: 2).value == .loaded)
        await user.waitUntilCaughtUp()
        #expect(user.items.map(\.id) == Self.ids(0...1))
        #expect(user.hasNext)
        #expect(server.received.isEmpty, "the first page came with the parent query")

        #expect(try await user.loadNext(count: 3).value == .loaded)
        await user.waitUntilCaughtUp()
        #expect(user.items.map(\.id) == Self.ids(0...4))
        #expect(server.received.count == 1)
        #expect(server.received.first?.variables["cursor"] == .string(RelayList.cursor(1)))
        #expect(server.received.first?.variables["id"] == "u1")

        // A refresh asks the refetch query for the first page: the parent's data is old by then.
        #expect(try await user.refresh().value == .loaded)
        #expect(server.received.count == 2)
        #expect(server.received.last?.variables["cursor"] == .null)
    }

    @Test("parent data without the fragment's connection: a clear error, and retry() asks the refetch query")
    func startWithoutTheConnection() async throws {
        let server = Self.nodeServer(RelayList(count: 3))
        let user = try PaginationFragment(
            PaginationFragmentDocument(Self.toDoList), nodeID: "u1", client: Self.client(server),
            as: Todo.self
        )
        .startingFrom(["name": "Ada"]).makeList()
        await #expect(throws: PagingError.self) { try await user.loadNext(count: 2).value }
        #expect(server.received.isEmpty)
        #expect(try await user.retry().value == .loaded)
        await user.waitUntilCaughtUp()
        #expect(user.items.map(\.id) == Self.ids(0...1))
        #expect(server.received.count == 1)
    }

    @Test(
        "pages the fragment's connection through node(id:) with loadNext(count:), hasNext and isLoadingNext")
    func pagesLikeRelay() async throws {
        let server = Self.nodeServer(RelayList(count: 5))
        let fragment = try PaginationFragmentDocument(Self.toDoList)
        let user = try PaginationFragment(fragment, nodeID: "u1", client: Self.client(server), as: Todo.self)
            .makeList()
        #expect(user.hasNext)

        #expect(try await user.loadNext(count: 3).value == .loaded)
        await user.waitUntilCaughtUp()
        #expect(user.items.map(\.id) == Self.ids(0...2))
        #expect(user.items.first?.text == "Todo 0")
        #expect(user.hasNext)
        #expect(!user.hasPrevious)
        #expect(!user.isLoadingNext)

        server.hold()
        let more = user.loadNext(count: 3)
        #expect(user.isLoadingNext, "a tap shows Loading… at once")
        #expect(!user.isLoadingPrevious)
        await server.waitForRequests(2)
        server.release()
        #expect(try await more.value == .loaded)
        await user.waitUntilCaughtUp()
        #expect(!user.isLoadingNext)
        #expect(!user.hasNext)
        #expect(user.items.map(\.id) == Self.ids(0...4))
        #expect(try await user.loadNext(count: 3).value == .endReached)
        #expect(try await user.loadPrevious(count: 3).value == .endReached)

        #expect(
            server.received.map(\.operationName) == ["ToDoListPaginationQuery", "ToDoListPaginationQuery"])
        #expect(server.received.first?.query == fragment.text)
        #expect(
            server.sentVariables == [
                ["id": "u1", "count": 3, "cursor": nil], ["id": "u1", "count": 3, "cursor": "cursor:2"],
            ])
    }

    @Test("a bidirectional fragment opened at a cursor loads previous pages with loadPrevious(count:)")
    func pagesBackward() async throws {
        let list = RelayList(count: 8)
        let server = FakeGraphQLServer { request in
            list.answer(request, first: "count", after: "cursor") { ["node": ["id": "u1", "todos": $0]] }
        }
        let fragment = try PaginationFragmentDocument(Self.bidirectional)
        let user = try PaginationFragment(fragment, nodeID: "u1", client: Self.client(server), as: Todo.self)
            .makeList(initialKey: RelayList.cursor(3))

        #expect(try await user.loadNext(count: 2).value == .loaded)
        await user.waitUntilCaughtUp()
        #expect(user.items.map(\.id) == ["t4", "t5"])
        #expect(user.hasPrevious && user.hasNext)

        server.hold()
        let earlier = user.loadPrevious(count: 3)
        #expect(user.isLoadingPrevious)
        #expect(!user.isLoadingNext)
        await server.waitForRequests(2)
        server.release()
        #expect(try await earlier.value == .loaded)
        await user.waitUntilCaughtUp()
        #expect(user.items.map(\.id) == Self.ids(1...5))
        #expect(!user.isLoadingPrevious)
        #expect(
            server.sentVariables[1] == [
                "id": "u1", "count": nil, "cursor": nil, "last": 3, "before": "cursor:4",
            ])
    }

    @Test("a fragment on Query pages at the root without an id")
    func pagesAQueryFragment() async throws {
        let list = RelayList(count: 3)
        let server = FakeGraphQLServer { request in
            list.answer(request, first: "count", after: "cursor") { ["launches": $0] }
        }
        let fragment = try PaginationFragmentDocument(
            """
            fragment Feed_query on Query @refetchable(queryName: "FeedQuery")
              @argumentDefinitions(count: {type: "Int", defaultValue: 5}, cursor: {type: "String"}, site: {type: "String"}) {
              launches(first: $count, after: $cursor, site: $site) @connection(key: "Feed_launches") { nodes { id text } }
            }
            """)
        let feed = try PaginationFragment(
            fragment, client: Self.client(server), variables: ["site": "KSC"], idKey: "id")
        let pager = feed.makePager()
        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.map(\.id) == ["t0", "t1", "t2"])
        #expect(server.sentVariables == [["site": "KSC", "count": 20, "cursor": nil]])
        #expect(feed.nodeID == nil)
    }

    @Test("a node id is required on a Node fragment and refused on a Query fragment")
    func checksTheNodeID() throws {
        let client = Self.client(Self.nodeServer(RelayList(count: 1)))
        let node = try PaginationFragmentDocument(Self.toDoList)
        #expect {
            _ = try PaginationFragment(node, client: client, as: Todo.self)
        } throws: { error in
            (error as? GraphQLPagerError)?.code == .nodeID
                && "\(error)".contains("pass the id of the User as nodeID")
        }
        let query = try PaginationFragmentDocument(
            """
            fragment F on Query @refetchable(queryName: "FQ") @argumentDefinitions(count: {type: "Int"}, cursor: {type: "String"}) {
              launches(first: $count, after: $cursor) @connection(key: "F_launches") { nodes { id } }
            }
            """)
        #expect(throws: GraphQLPagerError.self) {
            _ = try PaginationFragment(query, nodeID: "u1", client: client, idKey: "id")
        }
    }
}
