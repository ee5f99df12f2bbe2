import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

@Suite("GraphQLStore, garbage collection", .timeLimit(.minutes(HangLimit.minutes(1))))
struct StoreGCTests {
    static let page = """
        query Page($after: String) {
          launches(first: 2, after: $after) { edges { node { __typename id site } } pageInfo { endCursor } }
        }
        """

    static func page(_ ids: [String], end: String) -> JSONValue {
        [
            "launches": [
                "edges": .array(
                    ids.map {
                        ["node": ["__typename": "Launch", "id": .string($0), "site": .string("S" + $0)]]
                    }),
                "pageInfo": ["endCursor": .string(end)],
            ]
        ]
    }

    /// Two pages sharing Launch:2, and a detail record.
    static func filledStore() throws -> (GraphQLStore, first: StoreOperation, second: StoreOperation) {
        let store = GraphQLStore()
        let first = try StoreOperation(document: page, variables: ["after": nil])
        let second = try StoreOperation(document: page, variables: ["after": "c2"])
        try store.write(data: page(["1", "2"], end: "c2"), for: first)
        try store.write(data: page(["2", "3"], end: "c3"), for: second)
        return (store, first, second)
    }

    @Test("with nothing live, everything goes")
    func collectsEverything() throws {
        let (store, _, _) = try Self.filledStore()
        // The root and three launches: connections, edges and page infos
        // have no identity and stay in the root's fields.
        #expect(store.recordCount == 4)
        let result = store.gc()
        #expect(result.removedRecords == [.queryRoot, "Launch:1", "Launch:2", "Launch:3"])
        #expect(result.removedRecords.contains(.queryRoot))
        #expect(store.recordCount == 0)
        #expect(store.state.withLock { $0.danglingReferrers.isEmpty })
        #expect(store.gc().isEmpty)
    }

    @Test("a retained operation keeps its root field and what it reaches; the other page's records go")
    func retainedOperation() throws {
        let (store, first, second) = try Self.filledStore()
        let token = store.retain(second)
        let result = store.gc()
        #expect(
            result.removedRootFields == [
                StoreFieldKey(record: .queryRoot, field: #"launches(after:null,first:2)"#)
            ])
        #expect(result.removedRecords == ["Launch:1"])
        #expect(store.read(second).data == Self.page(["2", "3"], end: "c3"))
        #expect(store.read(first).miss != nil)
        #expect(store.record(for: "Launch:2") != nil)

        token.cancel()
        store.gc()
        #expect(store.recordCount == 0)
    }

    @Test("a live watch keeps what it reads, also after a write moved it to new records")
    func liveWatchKeeps() async throws {
        let (store, first, _) = try Self.filledStore()
        let probe = WatchProbe(store.watch(first))
        #expect(await probe.next() == Self.page(["1", "2"], end: "c2"))
        try store.write(data: Self.page(["4", "1"], end: "c1"), for: first)
        store.gc()  // before or after the watch read again: it keeps the new data
        #expect(store.read(first).data == Self.page(["4", "1"], end: "c1"))
        #expect(await probe.next() == Self.page(["4", "1"], end: "c1"))
        #expect(store.record(for: "Launch:3") == nil)
        #expect(store.record(for: "Launch:2") == nil)

        await probe.cancel()
        store.gc()
        #expect(store.recordCount == 0)
    }

    @Test("a retain token of keys keeps those records and everything reachable from them")
    func retainedKeys() throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(
            document:
                "{ launch(id: 1) { __typename id rocket { __typename id stages { engine { name } } } } }")
        try store.write(
            data: [
                "launch": [
                    "__typename": "Launch", "id": "1",
                    "rocket": [
                        "__typename": "Rocket", "id": "r", "stages": [["engine": ["name": "Merlin"]]],
                    ],
                ]
            ],
            for: operation)
        var token: StoreRetainToken? = store.retain("Launch:1")
        let result = store.gc()
        #expect(result.removedRecords == [.queryRoot])
        #expect(store.recordKeys == ["Launch:1", "Rocket:r"])
        let fragment = try StoreFragment(
            document: "fragment L on Launch { rocket { stages { engine { name } } } }")
        #expect(
            store.read(fragment, at: "Launch:1").data == [
                "rocket": ["stages": [["engine": ["name": "Merlin"]]]]
            ])

        let rocketToken = store.retain(fragment, at: "Launch:1")
        token = nil
        _ = token
        #expect(store.gc().isEmpty, "the fragment's read reaches the same records")
        rocketToken.cancel()
        #expect(store.gc().removedRecords == ["Launch:1", "Rocket:r"])
    }

    @Test("observers hear of a collection as one change")
    func collectionIsAChange() throws {
        let (store, _, second) = try Self.filledStore()
        let recorder = Recorder<StoreChange>()
        let observation = store.observe { recorder.record($0) }
        let token = store.retain(second)
        store.gc()
        #expect(recorder.recorded.count == 1)
        #expect(recorder.recorded.first?.contains(record: "Launch:1", field: "site") == true)
        #expect(recorder.recorded.first?.contains(record: "Launch:2", field: "site") == false)
        observation.cancel()
        token.cancel()
    }
}
