import Testing

@testable import PagingGraphQLStore

@Suite("GraphQLStore, edits")
struct StoreEditingTests {
    static let list = """
        { favorites { __typename id site } grid { __typename id } launch(id: "2") { __typename id site } }
        """

    static let data: JSONValue = [
        "favorites": [
            ["__typename": "Launch", "id": "1", "site": "A"],
            ["__typename": "Launch", "id": "2", "site": "B"],
            ["__typename": "Launch", "id": "3", "site": "C"],
        ],
        "grid": [[["__typename": "Launch", "id": "2"]], [["__typename": "Launch", "id": "3"]]],
        "launch": ["__typename": "Launch", "id": "2", "site": "B"],
    ]

    static func filledStore() throws -> (GraphQLStore, StoreOperation) {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: list)
        try store.write(data: data, for: operation)
        return (store, operation)
    }

    @Test(
        "a deletion outranks a response to a request sent before it; one sent after it, or a write of the app's, brings the record back"
    )
    func deletionOutranksAnEarlierRequest() throws {
        let (store, operation) = try Self.filledStore()
        let earlier = store.beginSend()
        store.delete(record: "Launch:2")
        let later = store.beginSend()
        // The earlier request's answer (the server's, from before the deletion) lands after it.
        #expect(try store.writeCounted(data: Self.data, for: operation, answering: earlier) == nil)
        #expect(store.record(for: "Launch:2") == nil)
        #expect(
            store.record(for: .queryRoot)?["favorites"]
                == .list([.reference("Launch:1"), .reference("Launch:3")]))
        #expect(store.record(for: "Launch:1")?["site"] == .scalar("A"), "the rest is written")
        store.endSend(earlier)
        #expect(
            store.state.withLock { $0.deletions.count } == 0,
            "the request in flight was sent after the deletion: it need not be kept")
        // The later request's answer is the server's word after the deletion.
        #expect(try store.writeCounted(data: Self.data, for: operation, answering: later) != nil)
        #expect(store.record(for: "Launch:2")?["site"] == .scalar("B"))
        store.endSend(later)
        #expect(store.state.withLock { $0.deletions.count } == 0)

        // With no request in flight, nothing is kept; a write of the app's own brings a record back.
        store.delete(record: "Launch:2")
        #expect(store.state.withLock { $0.deletions.count } == 0)
        let inFlight = store.beginSend()
        store.delete(record: "Launch:3")
        #expect(
            store.state.withLock { $0.deletions.count } == 1, "kept while a request sent before is in flight")
        try store.write(data: Self.data, for: operation)
        #expect(store.record(for: "Launch:3") != nil)
        #expect(try store.writeCounted(data: Self.data, for: operation, answering: inFlight) != nil)
        #expect(store.record(for: "Launch:3") != nil, "the app's write forgot the deletion")
        store.endSend(inFlight)
    }

    @Test("deleting a record removes it from every list; a direct reference dangles and its read misses")
    func deleteRemovesFromLists() throws {
        let (store, operation) = try Self.filledStore()
        let change = store.delete(record: "Launch:2")
        #expect(store.record(for: "Launch:2") == nil)
        #expect(
            change.fieldsByRecord == [
                "Launch:2": ["__typename", "id", "site"], .queryRoot: ["favorites", "grid"],
            ])
        #expect(
            store.record(for: .queryRoot)?["favorites"]
                == .list([.reference("Launch:1"), .reference("Launch:3")]))
        #expect(
            store.record(for: .queryRoot)?["grid"] == .list([.list([]), .list([.reference("Launch:3")])]))
        let miss = try #require(store.read(operation).miss)
        #expect(miss.path == ["launch"])
        #expect(miss.record == "Launch:2")
        #expect(miss.recordIsMissing)
        #expect(
            miss.description == "The record Launch:2 is not in the store (reading __typename), at launch.")

        let lists = try StoreOperation(document: "{ favorites { __typename id site } }")
        #expect(
            store.read(lists).data
                == [
                    "favorites": [
                        ["__typename": "Launch", "id": "1", "site": "A"],
                        ["__typename": "Launch", "id": "3", "site": "C"],
                    ]
                ])
        #expect(store.delete(record: "Launch:2").isEmpty)
    }

    @Test("deleting a record found through a list that was rewritten since does not touch the new list")
    func deleteFollowsRewrittenReferences() throws {
        let (store, _) = try Self.filledStore()
        let favorites = try StoreOperation(document: "{ favorites { __typename id } }")
        try store.write(data: ["favorites": [["__typename": "Launch", "id": "1"]]], for: favorites)
        let change = store.delete(record: "Launch:3")
        #expect(change.fieldsByRecord == ["Launch:3": ["__typename", "id", "site"], .queryRoot: ["grid"]])
        #expect(store.record(for: .queryRoot)?["favorites"] == .list([.reference("Launch:1")]))
    }

    @Test("deleting a node removes its edge from every connection, and a recreated node is found again")
    func deleteRemovesEdges() throws {
        let store = GraphQLStore()
        let connection = try StoreOperation(
            document: "{ launches(first: 3) { edges { cursor node { __typename id } } } }")
        let edges: JSONValue = [
            "launches": [
                "edges": [
                    ["cursor": "a", "node": ["__typename": "Launch", "id": "1"]],
                    ["cursor": "b", "node": ["__typename": "Launch", "id": "2"]],
                    ["cursor": "c", "node": ["__typename": "Launch", "id": "3"]],
                ]
            ]
        ]
        try store.write(data: edges, for: connection)
        let change = store.delete(record: "Launch:2")
        #expect(change.contains(record: .queryRoot, field: "launches(first:3)"))
        #expect(
            store.read(connection).data
                == [
                    "launches": [
                        "edges": [
                            ["cursor": "a", "node": ["__typename": "Launch", "id": "1"]],
                            ["cursor": "c", "node": ["__typename": "Launch", "id": "3"]],
                        ]
                    ]
                ])
        // The edge went with the record: nothing references it any more.
        #expect(store.state.withLock { $0.danglingReferrers["Launch:2"] } == nil)
        try store.write(data: edges, for: connection)
        #expect(store.read(connection).data == edges)
        #expect(store.state.withLock { $0.danglingReferrers.isEmpty })
        // The field that holds the connection, edges and all, references it.
        #expect(
            store.state.withLock { $0.referrers(of: "Launch:2") }
                == [StoreFieldKey(record: .queryRoot, field: "launches(first:3)")])
    }

    @Test("modify sets and removes fields, creates records, and reports what changed")
    func modifyFields() throws {
        let (store, operation) = try Self.filledStore()
        let change = store.modify(record: "Launch:1", fields: ["site": .scalar("Z"), "id": .scalar("1")])
        #expect(change.fieldsByRecord == ["Launch:1": ["site"]])
        #expect(
            store.read(operation).data?["favorites"]?[0] == ["__typename": "Launch", "id": "1", "site": "Z"])

        let added = store.modify(
            record: .queryRoot,
            fields: ["favorites": .list([.reference("Launch:3"), .reference("Launch:9")])])
        #expect(added.fieldsByRecord == [.queryRoot: ["favorites"]])
        #expect(store.read(operation).miss?.record == "Launch:9")
        store.modify(
            record: "Launch:9",
            fields: ["__typename": .scalar("Launch"), "id": .scalar("9"), "site": .scalar("N")])
        #expect(
            store.read(operation).data?["favorites"]?[1] == ["__typename": "Launch", "id": "9", "site": "N"])

        let removed = store.modify(record: "Launch:9", fields: ["site": nil, "missing": nil])
        #expect(removed.fieldsByRecord == ["Launch:9": ["site"]])
        #expect(store.read(operation).miss?.field == "site")
        #expect(
            store.delete(record: "Launch:9").fieldsByRecord[.queryRoot] == ["favorites"],
            "the reverse index follows modify")
    }
}
