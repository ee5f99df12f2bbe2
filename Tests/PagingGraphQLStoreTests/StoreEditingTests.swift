import Testing

@testable import PagingGraphQLStore

@Suite("GraphQLStore, edits")
struct StoreEditingTests {
    static let list = """
        { favorites { __typename id site } grid { __typename id } launch(id: "2") { __typename id site } }
        """

    static func filledStore() throws -> (GraphQLStore, StoreOperation) {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: list)
        try store.write(
            data: [
                "favorites": [
                    ["__typename": "Launch", "id": "1", "site": "A"],
                    ["__typename": "Launch", "id": "2", "site": "B"],
                    ["__typename": "Launch", "id": "3", "site": "C"],
                ],
                "grid": [[["__typename": "Launch", "id": "2"]], [["__typename": "Launch", "id": "3"]]],
                "launch": ["__typename": "Launch", "id": "2", "site": "B"],
            ],
            for: operation)
        return (store, operation)
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
