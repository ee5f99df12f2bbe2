import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

@Suite("ConnectionSource", .timeLimit(.minutes(HangLimit.minutes(1))))
struct ConnectionSourceTests {
    static let forwardDocument = """
        query UserTodos($owner: ID!, $first: Int, $after: String) {
          user(id: $owner) {
            list: todos(first: $first, after: $after) @connection(key: "UserTodos_list") {
              edges { node { id text } }
            }
          }
        }
        """

    static let bidirectionalDocument = """
        query Todos($first: Int, $after: String, $last: Int, $before: String) {
          todos(first: $first, after: $after, last: $last, before: $before) @connection(key: "Todos") {
            edges { node { id text } }
          }
        }
        """

    static let reverseDocument = """
        query Latest($count: Int, $cursor: String) {
          todos(last: $count, before: $cursor) @connection(key: "Latest") { nodes { id text } }
        }
        """

    static func userServer(_ list: RelayList) -> FakeGraphQLServer {
        FakeGraphQLServer { request in list.answer(request) { ["user": ["list": $0]] } }
    }

    static func client(_ server: FakeGraphQLServer) -> GraphQLClient {
        GraphQLClient(endpoint: testEndpoint, transport: server)
    }

    static func configuration(_ pageSize: Int) throws -> PagingConfiguration {
        try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0)
    }

    static func ids(_ range: ClosedRange<Int>) -> [String] { range.map { "t\($0)" } }

    @Test("sends the rewritten document with each request's variables, and decodes the nodes")
    func pagesForward() async throws {
        let server = Self.userServer(RelayList(count: 5))
        let document = try ConnectionDocument(Self.forwardDocument)
        let source = ConnectionSource(
            client: Self.client(server), document: document, variables: ["owner": "u1"], as: Todo.self)
        #expect(source.direction == .forward)
        let pager = source.makePager(configuration: try Self.configuration(2))

        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.map(\.id) == Self.ids(0...4))
        #expect(pager.items.first?.text == "Todo 0")
        #expect(
            server.sentVariables == [
                ["owner": "u1", "first": 2, "after": nil],
                ["owner": "u1", "first": 2, "after": "cursor:1"],
                ["owner": "u1", "first": 2, "after": "cursor:3"],
            ])
        let sent = try #require(server.received.first)
        #expect(sent.operationName == "UserTodos")
        #expect(sent.query == document.text)
        #expect(!sent.query.contains("@connection"))
        #expect(sent.query.contains("endCursor"))
        #expect(!pager.hasPrevious, "a document without before: does not page backward")
    }

    @Test("a document that gives its count as a literal pages by cursor, the count never sent as a variable")
    func literalCount() async throws {
        let server = FakeGraphQLServer { request in
            // The server applies the document's count, 2.
            var request = request
            request.variables["first"] = 2
            return RelayList(count: 5).answer(request) { ["todos": $0] }
        }
        let document = try ConnectionDocument(
            #"query Todos($after: String) { todos(first: 2, after: $after) @connection(key: "T") { nodes { id text } } }"#
        )
        let pager = ConnectionSource(client: Self.client(server), document: document, as: Todo.self)
            .makePager(configuration: try Self.configuration(10))

        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.map(\.id) == Self.ids(0...4))
        #expect(server.sentVariables == [["after": nil], ["after": "cursor:1"], ["after": "cursor:3"]])
    }

    @Test("a bidirectional document opened at a cursor pages both ways, first and last never together")
    func pagesBothWaysFromACursor() async throws {
        let server = FakeGraphQLServer { request in RelayList(count: 8).answer(request) { ["todos": $0] } }
        let source = ConnectionSource(
            client: Self.client(server), document: try ConnectionDocument(Self.bidirectionalDocument),
            as: Todo.self)
        #expect(source.direction == .bidirectional)
        let pager = source.makePager(
            initialKey: RelayList.cursor(3), configuration: try Self.configuration(2))

        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == ["t4", "t5"])
        #expect(pager.hasPrevious, "the item at the cursor precedes the page")
        #expect(try await pager.loadPrevious().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == Self.ids(2...7))
        #expect(
            server.sentVariables == [
                ["first": 2, "after": "cursor:3", "last": nil, "before": nil],
                ["first": nil, "after": nil, "last": 2, "before": "cursor:4"],
                ["first": 2, "after": "cursor:5", "last": nil, "before": nil],
            ])
        while pager.hasPrevious, !Task.isCancelled { _ = try await pager.loadPrevious().value }
        #expect(pager.items.map(\.id) == Self.ids(0...7))
        #expect(!pager.hasNext)
        #expect(
            server.sentVariables.allSatisfy {
                $0["first"] == nil || $0["first"] == .null || $0["last"] == .null
            })
    }

    @Test(
        "a bidirectional document opened at the last node's cursor opens on the last nodes, that one included"
    )
    func opensAtTheEnd() async throws {
        let server = FakeGraphQLServer { request in RelayList(count: 8).answer(request) { ["todos": $0] } }
        let source = ConnectionSource(
            client: Self.client(server), document: try ConnectionDocument(Self.bidirectionalDocument),
            as: Todo.self)
        let pager = source.makePager(
            initialKey: RelayList.cursor(7), configuration: try Self.configuration(3))

        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == Self.ids(5...7))
        #expect(pager.hasPrevious && !pager.hasNext)
        while pager.hasPrevious, !Task.isCancelled { _ = try await pager.loadPrevious().value }
        #expect(pager.items.map(\.id) == Self.ids(0...7))
        #expect(
            Array(server.sentVariables.prefix(3)) == [
                ["first": 3, "after": "cursor:7", "last": nil, "before": nil],
                ["first": nil, "after": nil, "last": 3, "before": nil],
                ["first": nil, "after": nil, "last": 3, "before": "cursor:5"],
            ])
    }

    @Test("a document that pages only backward opens at the end with last/before")
    func pagesInReverse() async throws {
        let server = FakeGraphQLServer { request in
            RelayList(count: 5).answer(request, last: "count", before: "cursor") { ["todos": $0] }
        }
        let source = ConnectionSource(
            client: Self.client(server), document: try ConnectionDocument(Self.reverseDocument), as: Todo.self
        )
        #expect(source.direction == .reverse)
        let pager = source.makePager(configuration: try Self.configuration(2))

        #expect(try await pager.loadPrevious().value == .loaded)
        #expect(pager.items.map(\.id) == ["t3", "t4"])
        #expect(!pager.hasNext)
        while pager.hasPrevious, !Task.isCancelled { _ = try await pager.loadPrevious().value }
        #expect(pager.items.map(\.id) == Self.ids(0...4))
        #expect(
            server.sentVariables == [
                ["count": 2, "cursor": nil], ["count": 2, "cursor": "cursor:3"],
                ["count": 2, "cursor": "cursor:1"],
            ])
    }

    @Test("keeps nodes as JSON for tools, identified by the id key, and the engine drops repeated nodes")
    func pagesJSONNodes() async throws {
        let list = RelayList(count: 5)
        let server = FakeGraphQLServer { request in
            // The second page overlaps the first by one node.
            let after =
                request.variables["after"]?.stringValue == "cursor:1"
                ? "cursor:0" : request.variables["after"]?.stringValue
            let connection = try? list.connection(
                first: request.variables["first"]?.intValue, after: after, last: nil, before: nil
            ).get()
            return ["data": ["user": ["list": connection ?? nil]]]
        }
        let source = ConnectionSource(
            client: Self.client(server), document: try ConnectionDocument(Self.forwardDocument),
            variables: ["owner": "u1"])
        let pager = source.makePager(configuration: try Self.configuration(2))

        #expect(try await pager.loadNext().value == .loaded)
        let first = try #require(pager.items.first)
        #expect(first.id == "t0")
        #expect(first.cursor == "cursor:0")
        #expect(first["text"] == "Todo 0")
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == ["t0", "t1", "t2"])
        #expect(pager.snapshot.duplicatesDropped == 1)
    }

    @Test("a JSON node without an id is told apart by its cursor, or else by its content")
    func jsonNodeIdentity() {
        #expect(JSONNode(["id": "a", "x": 1], cursor: "c").id == "a")
        #expect(JSONNode(["id": nil, "x": 1], cursor: "c").id == "c")
        #expect(JSONNode(["x": 1]).id == ["x": 1])
        #expect(JSONNode(["key": 7], idKey: "key").id == 7)
    }

    @Test("a connection nulled by an error fails the load with the GraphQL errors, and retry repeats it")
    func nullConnectionFails() async throws {
        let list = RelayList(count: 6)
        let failing = Recorder<Bool>()
        let server = FakeGraphQLServer { request in
            if request.variables["after"] == "cursor:1", failing.recorded.isEmpty {
                failing.record(true)
                return ["data": ["user": nil], "errors": [["message": "User not found", "path": ["user"]]]]
            }
            return list.answer(request) { ["user": ["list": $0]] }
        }
        let source = ConnectionSource(
            client: Self.client(server), document: try ConnectionDocument(Self.forwardDocument),
            variables: ["owner": "u1"],
            as: Todo.self)
        let pager = source.makePager(configuration: try Self.configuration(2))
        #expect(try await pager.loadNext().value == .loaded)

        await #expect {
            try await pager.loadNext().value
        } throws: { error in
            let client = (error as? PagingError)?.underlyingError as? GraphQLClientError
            return client?.code == .graphQLErrors
                && client?.graphQLErrors.map(\.message) == ["User not found"]
        }
        #expect(pager.items.map(\.id) == ["t0", "t1"])
        #expect(try await pager.retry().value == .loaded)
        #expect(server.sentVariables[2] == server.sentVariables[1])
        #expect(pager.items.map(\.id) == Self.ids(0...3))
    }

    @Test("delivers a page with errors next to its data and reports them")
    func reportsPartialData() async throws {
        let list = RelayList(count: 4)
        let server = FakeGraphQLServer { request in
            let answer = list.answer(request) { ["user": ["list": $0]] }
            return [
                "data": answer["data"] ?? nil,
                "errors": [["message": "avatar failed", "path": ["user", "avatar"]]],
            ]
        }
        let reports = Recorder<PartialDataReport<String>>()
        let source = ConnectionSource(
            client: Self.client(server), document: try ConnectionDocument(Self.forwardDocument),
            variables: ["owner": "u1"],
            as: Todo.self, onPartialData: reports.record)
        let pager = source.makePager(configuration: try Self.configuration(2))

        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == ["t0", "t1"])
        #expect(reports.recorded.map(\.request.position) == [.initial(nil)])
        #expect(reports.recorded.first?.errors.first?.message == "avatar failed")
    }

    @Test("a node that does not decode fails the load, naming its path")
    func undecodableNode() async throws {
        struct Strict: Decodable, Identifiable, Sendable { var id: String; var done: Bool }
        let server = Self.userServer(RelayList(count: 3))
        let source = ConnectionSource(
            client: Self.client(server), document: try ConnectionDocument(Self.forwardDocument),
            variables: ["owner": "u1"],
            as: Strict.self)
        let pager = source.makePager()
        await #expect {
            try await pager.loadNext().value
        } throws: { error in
            let client = (error as? PagingError)?.underlyingError as? GraphQLClientError
            return client?.code == .undecodableResponse
                && client?.codingPath == "data.user.list.edges[0].node.done"
        }
    }

    @Test("a second loadNext joins the one in flight, and a reset cancels it without applying it")
    func joinsAndCancels() async throws {
        let server = Self.userServer(RelayList(count: 6))
        let source = ConnectionSource(
            client: Self.client(server), document: try ConnectionDocument(Self.forwardDocument),
            variables: ["owner": "u1"],
            as: Todo.self)
        let pager = source.makePager(configuration: try Self.configuration(2))
        #expect(try await pager.loadNext().value == .loaded)

        server.hold()
        let first = pager.loadNext()
        await server.waitForRequests(2)
        let second = pager.loadNext()
        #expect(server.received.count == 2)
        pager.reset()
        #expect(try await first.value == .cancelled)
        #expect(try await second.value == .cancelled)
        await server.waitForCancellations(1)
        server.release()
        #expect(pager.items.isEmpty)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(server.sentVariables[2] == ["owner": "u1", "first": 2, "after": nil])
        #expect(pager.items.map(\.id) == ["t0", "t1"])
    }
}
