import Testing

@testable import PagingGraphQLStore

/// The watch registry on its own: the index in step with the dependencies,
/// and what a change dirties and hands out.
@Suite("StoreWatches")
struct StoreWatchesTests {
    static func query() throws -> StoreQuery {
        try StoreOperation(document: "{ launch { __typename id site } }").query
    }

    /// A change of some fields of records.
    static func change(_ fields: [(CacheKey, String)], structural: [CacheKey] = []) -> StoreChange {
        var change = StoreChange()
        for (key, field) in fields { change.insert(record: key, field: field) }
        for key in structural { change.insertStructural(record: key) }
        return change
    }

    @Test("the index names exactly the watches that depend on each record, and holds no empty set")
    func indexInStep() throws {
        var watches = StoreWatches()
        watches.add(try Self.query(), id: 1)
        watches.add(try Self.query(), id: 2)
        #expect(watches.index.isEmpty && watches.count == 2)
        watches.setDependencies(["Launch:1": ["site"], .queryRoot: ["launch"]], of: 1)
        watches.setDependencies(["Launch:1": ["id"], "Launch:2": ["id"]], of: 2)
        watches.setDependencies([:], of: 3)  // not registered: nothing
        expectIndexInStep(watches)
        #expect(watches.index["Launch:1"] == [1, 2])
        watches.setDependencies(["Launch:2": ["id"]], of: 1)
        expectIndexInStep(watches)
        #expect(watches.index["Launch:1"] == [2] && watches.index[.queryRoot] == nil)
        _ = watches.remove(2)
        expectIndexInStep(watches)
        #expect(watches.index == ["Launch:2": [1]])
        _ = watches.remove(1)
        #expect(watches.index.isEmpty && watches.count == 0)
    }

    @Test("a change to a field read dirties the watch; a change to another field of the record does not")
    func dirtying() throws {
        var watches = StoreWatches()
        watches.add(try Self.query(), id: 1)
        watches.setDependencies(["Launch:1": ["site"], .queryRoot: ["launch"]], of: 1)
        _ = watches.update(1) {
            $0.isDirty = false
            $0.changedRecords = []
        }
        _ = watches.delivery(of: Self.change([("Launch:1", "rocket")]))
        #expect(watches[1]?.isDirty == false && watches[1]?.changedRecords == [])
        let delivery = watches.delivery(of: Self.change([("Launch:1", "site")]))
        #expect(watches[1]?.isDirty == true && watches[1]?.changedRecords == ["Launch:1"])
        #expect(delivery.change == Self.change([("Launch:1", "site")]))
        // A structural change, or one of a root record, asks for the whole selection.
        _ = watches.delivery(of: Self.change([("Launch:1", "site")], structural: ["Launch:1"]))
        #expect(watches[1]?.changedRecords == nil)
        _ = watches.update(1) { $0.changedRecords = [] }
        _ = watches.delivery(of: Self.change([(.queryRoot, "launch")]))
        #expect(watches[1]?.changedRecords == nil)
        #expect(watches.delivery(of: StoreChange()).observers.isEmpty)
    }

    @Test("the waiter of a clean watch is handed out once, by the change that dirties it")
    func waiterOnce() async throws {
        var watches = StoreWatches()
        watches.add(try Self.query(), id: 1)
        watches.setDependencies(["Launch:1": ["site"]], of: 1)
        _ = watches.update(1) { $0.isDirty = false }
        watches.observers[7] = { _ in }
        var handedOut: [Int] = []
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            _ = watches.update(1) { $0.waiter = waiter }
            let first = watches.delivery(of: Self.change([("Launch:1", "site")]))
            let second = watches.delivery(of: Self.change([("Launch:1", "site")]))
            handedOut = [first.waiters.count, second.waiters.count]
            #expect(first.observers.count == 1)
            // Resume it here if the delivery did not hand it out, so that the test ends.
            if first.waiters.isEmpty { waiter.resume() } else { first.run() }
        }
        #expect(handedOut == [1, 0])
        #expect(watches[1]?.waiter == nil)
        #expect(watches.update(2) { _ in true } == nil, "no watch 2")
    }

    /// Checks the index against the dependencies, recomputed.
    func expectIndexInStep(_ watches: StoreWatches, sourceLocation: SourceLocation = #_sourceLocation) {
        var expected: [CacheKey: Set<Int>] = [:]
        for (id, watch) in watches.registered {
            for key in watch.dependencies.keys { expected[key, default: []].insert(id) }
        }
        #expect(watches.index == expected, sourceLocation: sourceLocation)
        #expect(watches.index.values.allSatisfy { !$0.isEmpty }, sourceLocation: sourceLocation)
    }
}
