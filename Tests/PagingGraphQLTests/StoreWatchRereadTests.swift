import PagingTestSupport
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

/// A watch reads again only what changed when a change only set values of
/// records it read, and its whole selection when the shape changed.
@Suite("GraphQLStore, watches read again what changed", .timeLimit(.minutes(HangLimit.minutes(1))))
struct StoreWatchRereadTests {
    static let list = """
        query { launches { __typename id site rocket { __typename id name } mission { name } } }
        """

    static func launch(_ id: Int, site: String = "KSC", rocket: String = "f9") -> JSONValue {
        [
            "__typename": "Launch", "id": .string(String(id)), "site": .string(site),
            "rocket": ["__typename": "Rocket", "id": .string(rocket), "name": .string("Falcon \(rocket)")],
            "mission": ["name": .string("M\(id)")],
        ]
    }

    static func counts(_ store: GraphQLStore) -> (reads: Int, partial: Int) {
        store.state.withLock { ($0.watchReadCount, $0.watchPartialReadCount) }
    }

    /// A store holding a list of launches, a watch of it that has yielded
    /// its first element (checked against a fresh read), and the read counts
    /// after it.
    static func watchedList(_ count: Int) async throws -> (
        store: GraphQLStore, operation: StoreOperation, probe: WatchProbe, before: (reads: Int, partial: Int)
    ) {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: list)
        try store.write(data: ["launches": .array((1...count).map { launch($0) })], for: operation)
        let probe = WatchProbe(store.watch(operation))
        #expect(await probe.next() == store.read(operation).data)
        return (store, operation, probe, counts(store))
    }

    @Test("a value of one launch of a list: that launch is read again, in place")
    func valueChangeRereadsTheRecord() async throws {
        let (store, operation, probe, before) = try await Self.watchedList(50)

        try store.writeFragment(
            ["__typename": "Launch", "id": "7", "site": "VSFB"], document: "fragment S on Launch { id site }",
            at: "Launch:7")
        let after = await probe.next()
        #expect(after == store.read(operation).data)
        #expect(after?["launches"]?[6]?["site"] == "VSFB")
        #expect(Self.counts(store) == (before.reads + 1, before.partial + 1))

        // A record reached from many launches: read again at each place.
        try store.writeFragment(
            ["__typename": "Rocket", "id": "f9", "name": "Falcon 9 Block 5"],
            document: "fragment R on Rocket { id name }", at: "Rocket:f9")
        let renamed = await probe.next()
        #expect(renamed == store.read(operation).data)
        #expect(renamed?["launches"]?[49]?["rocket"]?["name"] == "Falcon 9 Block 5")
        #expect(Self.counts(store) == (before.reads + 2, before.partial + 2))
        await probe.cancel()
    }

    @Test("a changed reference or a changed list: the whole selection is read again")
    func shapeChangeRereadsAll() async throws {
        let (store, operation, probe, before) = try await Self.watchedList(5)

        // Launch:2 now flies on another rocket: a reference changed.
        try store.writeFragment(
            [
                "__typename": "Launch", "id": "2",
                "rocket": ["__typename": "Rocket", "id": "fh", "name": "Heavy"],
            ],
            document: "fragment L on Launch { id rocket { __typename id name } }", at: "Launch:2")
        #expect(await probe.next() == store.read(operation).data)
        // The list loses a launch: the root's field changed.
        try store.write(data: ["launches": .array((1...4).map { Self.launch($0) })], for: operation)
        #expect(await probe.next() == store.read(operation).data)
        #expect(Self.counts(store) == (before.reads + 2, before.partial))
        await probe.cancel()
    }
}
