import Paging
import PagingTesting
import Testing

// Apollo iOS, "Directional Pagination" (`GraphQLQueryPager`), on the engine.
//
// The document pages one query, `MyQuery(first:after:)` / `(before:)`, three
// ways: forward (`CursorBasedPagination.Forward`: hasNextPage + endCursor,
// `.previous` resolves to nil), reverse (`CursorBasedPagination.Reverse`:
// hasPreviousPage + startCursor, `.next` resolves to nil), and bidirectional
// (both; "the initial query fetched is at neither the head nor tail"). Its
// custom convenience initializer pages forward by offset, with and without a
// transform of each page's data.
//
// `extractPageInfo` + `pageResolver` are what `RelayCursorSource` does: it
// reads the page info into keys and turns a key into the next query's
// arguments. Where the Apollo pager throws `loadInProgress` on a second call
// while loading, the engine joins the load in flight.

@Suite("Apollo GraphQLQueryPager scenario: Directional Pagination")
struct ApolloPagerScenarioTests {
    /// A node of `MyQuery`'s connection.
    struct Node: Identifiable, Sendable, Equatable {
        var id: Int
        var name: String
    }

    static func nodes(_ count: Int) -> [Node] {
        (0..<count).map { Node(id: $0, name: "node \($0)") }
    }

    static func cursor(_ node: Node) -> String {
        // Opaque, as a server's cursors are.
        "YXJyYXljb25uZWN0aW9uOj" + String(node.id, radix: 16)
    }

    static func backend(_ count: Int, reportsOppositeEnd: Bool = false) -> RelayConnectionBackend<Node> {
        RelayConnectionBackend(nodes(count), reportsOppositeEnd: reportsOppositeEnd, cursor: cursor)
    }

    @Test("forward: MyQuery(first: 10, after: nil), then after each endCursor while hasNextPage")
    func forward() async throws {
        let backend = Self.backend(35)
        let pager = Pager(
            source: RelayCursorSource(.forward) { try backend.connection($0) },
            configuration: try .testing(pageSize: 10))
        #expect(try await pager.loadNext().value == .loaded)
        #expect(backend.received == [RelayArguments(first: 10, after: nil)])
        // `.previous` resolves to no query.
        #expect(!pager.hasPrevious)
        #expect(try await pager.loadPrevious().value == .endReached)

        #expect(try await pager.loadAll() == .endReached)
        let nodes = Self.nodes(35)
        #expect(Array(pager.items) == nodes)
        #expect(
            backend.received
                == [nil, 9, 19, 29].map {
                    RelayArguments(first: 10, after: $0.map { Self.cursor(nodes[$0]) })
                })
        #expect(!pager.hasNext)
    }

    @Test("reverse: the last 10, then before each startCursor while hasPreviousPage")
    func reverse() async throws {
        let backend = Self.backend(35)
        let pager = Pager(
            source: RelayCursorSource(.reverse) { try backend.connection($0) },
            configuration: try .testing(pageSize: 10))
        #expect(try await pager.loadPrevious().value == .loaded)
        let nodes = Self.nodes(35)
        #expect(Array(pager.items) == Array(nodes[25..<35]))
        // `.next` resolves to no query.
        #expect(!pager.hasNext)
        #expect(try await pager.loadNext().value == .endReached)

        while try await pager.loadPrevious().value == .loaded {}
        #expect(Array(pager.items) == nodes)
        #expect(
            backend.received
                == [nil, 25, 15, 5].map {
                    RelayArguments(last: 10, before: $0.map { Self.cursor(nodes[$0]) })
                })
        #expect(!pager.hasPrevious)
    }

    @Test(
        "bidirectional, opened in the middle at a cursor: both ends, every node once, in order",
        arguments: [false, true])
    func bidirectional(reportsOppositeEnd: Bool) async throws {
        let backend = Self.backend(100, reportsOppositeEnd: reportsOppositeEnd)
        let nodes = Self.nodes(100)
        let pager = Pager(
            source: RelayCursorSource(.bidirectional) { try backend.connection($0) },
            initialKey: Self.cursor(nodes[49]), configuration: try .testing(pageSize: 10))
        #expect(try await pager.loadNext().value == .loaded)
        #expect(backend.received == [RelayArguments(first: 10, after: Self.cursor(nodes[49]))])
        #expect(Array(pager.items) == Array(nodes[50..<60]))
        // At neither the head nor the tail.
        #expect(pager.hasNext && pager.hasPrevious)

        #expect(try await pager.loadPrevious().value == .loaded)
        #expect(backend.received.last == RelayArguments(last: 10, before: Self.cursor(nodes[50])))
        #expect(try await pager.loadNext().value == .loaded)
        #expect(backend.received.last == RelayArguments(first: 10, after: Self.cursor(nodes[59])))
        #expect(Array(pager.items) == Array(nodes[40..<70]))

        while try await pager.loadPrevious().value == .loaded {}
        while try await pager.loadNext().value == .loaded {}
        #expect(Array(pager.items) == nodes)
        #expect(!pager.hasNext && !pager.hasPrevious)
        // Every query after the first went forward from an endCursor or backward from a startCursor.
        #expect(backend.received.count == 10)
    }

    @Test("a second loadNext while a page loads joins it: no loadInProgress error, one query")
    func fastScrolling() async throws {
        let backend = Self.backend(35)
        let gate = FetchGate<RelayArguments>()
        let source = RelayCursorSource<Node>(.forward) { arguments in
            try await gate.pass(arguments)
            return try backend.connection(arguments)
        }
        let pager = Pager(source: source, configuration: try .testing(pageSize: 10))
        let first = pager.loadNext()
        await gate.nextArrival().open()
        #expect(try await first.value == .loaded)

        let loads = (0..<3).map { _ in pager.loadNext() }
        let query = await gate.nextArrival()
        query.open()
        for load in loads { #expect(try await load.value == .loaded) }
        #expect(backend.received.count == 2)
        #expect(pager.items.count == 20)
    }

    // MARK: The forward-offset convenience initializer

    /// `MyQuery(offset:limit:)` over an offset API that reports whether more follow.
    final class OffsetBackend: Sendable {
        struct Query: Sendable, Equatable {
            var offset: Int
            var limit: Int
        }

        /// The data of one response, before any transform.
        struct Data: Sendable {
            var values: [Node]
            var totalCount: Int
        }

        let all: [Node]
        let queries = Recorder<Query>()

        init(count: Int) { all = ApolloPagerScenarioTests.nodes(count) }

        func query(offset: Int, limit: Int) -> Data {
            queries.record(Query(offset: offset, limit: limit))
            return Data(
                values: Array(all[min(offset, all.count)..<min(all.count, offset + limit)]),
                totalCount: all.count)
        }
    }

    /// A row made from a node: the transform of the second initializer.
    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var title: String
    }

    @Test(
        "the forward-offset convenience pager asks offset 0, then each page from the last node held (the drift check), until the total, every node once"
    )
    func forwardOffset() async throws {
        let backend = OffsetBackend(count: 45)
        let pager = try Pager<Int, Node>.makeForwardOffsetPager(pageSize: 10) { offset, limit in
            let data = backend.query(offset: offset, limit: limit)
            return OffsetPage(items: data.values, totalCount: data.totalCount)
        }
        #expect(try await pager.loadAll() == .endReached)
        #expect(Array(pager.items) == backend.all)
        #expect(backend.queries.recorded.map(\.offset) == [0, 9, 18, 27, 36])
        #expect(backend.queries.recorded.allSatisfy { $0.limit == 10 })
        #expect(!pager.hasPrevious)
    }

    @Test("the forward-offset convenience pager with a transform turns each page once")
    func forwardOffsetWithTransform() async throws {
        let backend = OffsetBackend(count: 45)
        let transformed = Counter()
        let pager = try Pager<Int, Row>.makeForwardOffsetPager(
            pageSize: 10,
            fetch: { offset, limit in
                let data = backend.query(offset: offset, limit: limit)
                return OffsetPage(items: data.values, totalCount: data.totalCount)
            },
            transform: { (node: Node) in
                transformed.increment()
                return Row(id: node.id, title: node.name.uppercased())
            })
        #expect(try await pager.loadAll(maxPages: 2) == .loaded)
        #expect(transformed.count == 20)
        #expect(try await pager.loadAll() == .endReached)
        #expect(transformed.count == 45)
        #expect(pager.items.map(\.title) == backend.all.map { $0.name.uppercased() })
    }
}

extension Pager where Key == Int {
    /// The document's custom convenience initializer, for an app whose
    /// lists all page forward by offset over one query.
    static func makeForwardOffsetPager(
        pageSize: Int,
        fetch: @escaping @Sendable (_ offset: Int, _ limit: Int) async throws -> OffsetPage<Item>
    ) throws -> Pager<Int, Item> {
        Pager(source: OffsetSource(.forward, fetch: fetch), configuration: try .testing(pageSize: pageSize))
    }

    /// The same, with a transform of each page's values.
    static func makeForwardOffsetPager<Value: Sendable>(
        pageSize: Int,
        fetch: @escaping @Sendable (_ offset: Int, _ limit: Int) async throws -> OffsetPage<Value>,
        transform: @escaping @Sendable (Value) throws -> Item
    ) throws -> Pager<Int, Item> {
        Pager(
            source: OffsetSource(.forward, fetch: fetch).map(transform),
            configuration: try .testing(pageSize: pageSize))
    }
}
