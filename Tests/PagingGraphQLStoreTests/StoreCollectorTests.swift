import Testing

@testable import PagingGraphQLStore

/// The collector on its own, over a set of records: what the retains and the
/// live selections reach stays, the rest goes, whether at once or a few
/// shards per commit, and what becomes reachable during a collection is
/// never swept.
@Suite("StoreCollector")
struct StoreCollectorTests {
    static let keying = StoreKeying(GraphQLStore.Configuration())
    static let none: [StoreQuery] = []

    /// A chain Launch:1 → Launch:2 → Launch:3, and Launch:4 … Launch:`count` alone.
    static func records(count: Int = 6) -> StoreRecords {
        var records = StoreRecords()
        let idle = StoreRecords.Marking(epoch: 0, isCollecting: false)
        for id in 1...count {
            let next: StoreValue = id < 3 ? .reference(CacheKey("Launch:\(id + 1)")) : .scalar(nil)
            _ = records.modify(
                CacheKey("Launch:\(id)"), fields: ["id": .scalar(.string("\(id)")), "next": next],
                marking: idle)
        }
        return records
    }

    static func keys(_ records: StoreRecords) -> Set<CacheKey> { Set(records.keys) }

    @Test("a collection keeps what the retained records reach and removes the rest")
    func collectKeepsWhatRetainsReach() {
        var records = Self.records()
        var collector = StoreCollector()
        collector.retainedKeys[1] = ["Launch:1"]
        let (change, removed, _) = collector.collect(&records, watchQueries: Self.none, keying: Self.keying)
        #expect(Self.keys(records) == ["Launch:1", "Launch:2", "Launch:3"])
        #expect(Set(removed) == ["Launch:4", "Launch:5", "Launch:6"])
        #expect(change.records == ["Launch:4", "Launch:5", "Launch:6"])
        #expect(collector.cycle == nil)
        #expect(collector.markEpoch == 1)
    }

    @Test("the fields of a root record that no live selection reads are removed; those read stay")
    func rootFields() throws {
        var records = Self.records()
        _ = records.modify(
            .queryRoot, fields: ["launch": .reference("Launch:1"), "other": .reference("Launch:4")],
            marking: StoreCollector().marking)
        var collector = StoreCollector()
        let watched = try StoreOperation(document: "{ launch { __typename id } }").query
        let (_, removed, rootFields) = collector.collect(
            &records, watchQueries: [watched], keying: Self.keying)
        #expect(rootFields == [StoreFieldKey(record: .queryRoot, field: "other")])
        #expect(records[.queryRoot]?["launch"] == .reference("Launch:1"))
        #expect(records[.queryRoot]?["other"] == nil)
        #expect(Set(removed) == ["Launch:4", "Launch:5", "Launch:6"], "the watched field reaches the chain")
    }

    @Test("what becomes reachable while a collection runs is marked, and its sweep keeps it")
    func reachableDuringACycle() {
        var records = Self.records()
        var collector = StoreCollector()
        var automatic = StoreCollector.AutomaticCollection(limit: 3)
        automatic.shardsPerCommit = 0
        collector.automaticCollection = automatic
        collector.retainedKeys[1] = ["Launch:1"]
        // Past the limit: the commit marks and starts a collection, and sweeps no shard.
        _ = collector.collectIfOverLimit(&records, watchQueries: Self.none, keying: Self.keying)
        #expect(collector.cycle != nil && collector.marking.isCollecting)
        #expect(records.count == 6)
        // Launch:5 becomes reachable; Launch:6 comes, unreachable; Launch:4 stays unreachable.
        _ = records.modify("Launch:3", fields: ["next": .reference("Launch:5")], marking: collector.marking)
        _ = records.modify("Launch:7", fields: ["id": .scalar("7")], marking: collector.marking)
        collector.automaticCollection?.shardsPerCommit = StoreRecordTable.shardCount
        let change = collector.collectIfOverLimit(&records, watchQueries: Self.none, keying: Self.keying)
        #expect(collector.cycle == nil)
        #expect(Self.keys(records) == ["Launch:1", "Launch:2", "Launch:3", "Launch:5", "Launch:7"])
        #expect(change.records == ["Launch:4", "Launch:6"])
        #expect(collector.automaticCollection?.runs == 1)
        #expect(collector.automaticCollection?.threshold == automatic.threshold(afterKeeping: 5))
    }

    @Test("a write during a collection is kept with what it reaches, and a new retain with what it reaches")
    func writesAndRetainsDuringACycle() {
        var records = Self.records()
        var collector = StoreCollector()
        var automatic = StoreCollector.AutomaticCollection(limit: 3)
        automatic.shardsPerCommit = 0
        collector.automaticCollection = automatic
        _ = collector.collectIfOverLimit(&records, watchQueries: Self.none, keying: Self.keying)
        #expect(collector.cycle != nil)
        let written = [StoreNormalizer.Entry(key: "Launch:2", fields: [("id", .scalar("2"))])]
        collector.markWritten(written, in: records)
        collector.retainedKeys[1] = ["Launch:5"]
        collector.markNewRoot(keys: ["Launch:5"], keying: Self.keying, in: records)
        collector.automaticCollection?.shardsPerCommit = StoreRecordTable.shardCount
        _ = collector.collectIfOverLimit(&records, watchQueries: Self.none, keying: Self.keying)
        #expect(collector.cycle == nil)
        #expect(Self.keys(records) == ["Launch:2", "Launch:3", "Launch:5"])
    }

    @Test("under the limit nothing runs; the retains that keep writes take what is written")
    func underTheLimitAndWriteKeepers() {
        var records = Self.records()
        var collector = StoreCollector()
        collector.automaticCollection = StoreCollector.AutomaticCollection(limit: 10)
        let change = collector.collectIfOverLimit(&records, watchQueries: Self.none, keying: Self.keying)
        #expect(change.isEmpty && collector.cycle == nil && records.count == 6)
        collector.writeKeepers = [4]
        collector.retainedKeys[4] = []
        collector.keepWritten([
            StoreNormalizer.Entry(key: "Launch:6", fields: []),
            StoreNormalizer.Entry(key: .queryRoot, fields: []),
        ])
        #expect(collector.retainedKeys[4] == ["Launch:6"])
        _ = collector.collect(&records, watchQueries: Self.none, keying: Self.keying)
        #expect(Self.keys(records) == ["Launch:6"])
    }

    @Test("epochs wrap around without taking old marks for new ones")
    func epochsWrap() {
        var records = Self.records()
        var collector = StoreCollector()
        collector.retainedKeys[1] = ["Launch:1"]
        for round in 0..<300 {
            // An unreachable record, made in the current epoch, between collections.
            _ = records.modify("Launch:9", fields: ["id": .scalar("9")], marking: collector.marking)
            _ = collector.collect(&records, watchQueries: Self.none, keying: Self.keying)
            #expect(records["Launch:9"] == nil, "round \(round)")
            #expect(Self.keys(records) == ["Launch:1", "Launch:2", "Launch:3"], "round \(round)")
            records.forEach { _, record in #expect(record.mark <= collector.markEpoch, "round \(round)") }
        }
        #expect(collector.markEpoch == 300 % 255)
    }
}
