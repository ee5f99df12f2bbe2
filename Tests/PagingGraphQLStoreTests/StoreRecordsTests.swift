import PagingTesting
import Testing

@testable import PagingGraphQLStore

/// The records on their own: the referrers kept exactly in step with the
/// references, dangling ones handed to the record that arrives, the objects
/// of the root records counted, and what is made or referenced during a
/// collection marked.
@Suite("StoreRecords")
struct StoreRecordsTests {
    static let idle = StoreRecords.Marking(epoch: 0, isCollecting: false)

    /// A reference to the launch of an id.
    static func launch(_ id: Int) -> StoreValue { .reference(CacheKey("Launch:\(id)")) }

    @Test("a reference made before its record arrives dangles, and the record takes it when it comes")
    func danglingReferrers() {
        var records = StoreRecords()
        _ = records.modify(.queryRoot, fields: ["favorite": Self.launch(1)], marking: Self.idle)
        let holder = StoreFieldKey(record: .queryRoot, field: "favorite")
        #expect(records.danglingReferrers == ["Launch:1": [holder]])
        #expect(records.referrers(of: "Launch:1") == [holder])
        _ = records.modify("Launch:1", fields: ["site": .scalar("KSC")], marking: Self.idle)
        #expect(records.danglingReferrers.isEmpty)
        #expect(records["Launch:1"]?.referrers.all == [holder])
        expectConsistent(records)
    }

    @Test("referrers: a second makes a set, and removing down to one goes back to a single holder")
    func referrersShrinkBackToOne() {
        let list = StoreFieldKey(record: .queryRoot, field: "launches")
        let event = StoreFieldKey(record: .queryRoot, field: "launchUpdated")
        var referrers = StoredRecord.Referrers.none
        referrers.insert(list)
        referrers.insert(event)
        guard case .many(let both) = referrers else {
            Issue.record("two referrers are not a set: \(referrers)")
            return
        }
        #expect(both == [list, event])
        referrers.remove(event)
        guard case .one(let holder) = referrers else {
            Issue.record("one referrer left is not a single holder: \(referrers)")
            return
        }
        #expect(holder.key == list)
        referrers.remove(list)
        #expect(referrers.isEmpty)
    }

    @Test("deleting a record takes it out of lists; a direct reference to it dangles")
    func delete() {
        var records = StoreRecords()
        for id in 1...3 {
            _ = records.modify(
                CacheKey("Launch:\(id)"), fields: ["id": .scalar(.string("\(id)"))], marking: Self.idle)
        }
        _ = records.modify(
            .queryRoot,
            fields: [
                "list": .list([Self.launch(1), Self.launch(2), Self.launch(3)]), "one": Self.launch(2),
            ],
            marking: Self.idle)
        let change = records.delete("Launch:2", marking: Self.idle)
        #expect(records["Launch:2"] == nil && records.count == 3)
        #expect(records[.queryRoot]?["list"] == .list([Self.launch(1), Self.launch(3)]))
        #expect(records[.queryRoot]?["one"] == Self.launch(2))
        #expect(records.danglingReferrers == ["Launch:2": [StoreFieldKey(record: .queryRoot, field: "one")]])
        #expect(change.deletedRecords == ["Launch:2"])
        #expect(change.contains(record: .queryRoot, field: "list"))
        expectConsistent(records)
    }

    @Test("the objects without identity of the root records are counted as they come and go")
    func rootHeldObjects() {
        var records = StoreRecords()
        let edge = StoreValue.object(StoreObject(["node": Self.launch(1), "cursor": .scalar("a")]))
        let page = StoreValue.object(StoreObject(["edges": .list([edge, edge, edge])]))
        _ = records.modify(.queryRoot, fields: ["page": page], marking: Self.idle)
        #expect(records.rootHeldObjects == 4)
        _ = records.modify("Launch:9", fields: ["page": page], marking: Self.idle)
        #expect(records.rootHeldObjects == 4, "a record with identity holds its own objects")
        _ = records.modify(.queryRoot, fields: ["page": nil], marking: Self.idle)
        #expect(records.rootHeldObjects == 0)
        _ = records.apply(
            [StoreNormalizer.Entry(key: .queryRoot, fields: [("page", page)])], marking: Self.idle)
        records.remove(.queryRoot, marking: Self.idle)
        #expect(records.rootHeldObjects == 0)
        expectConsistent(records)
    }

    @Test(
        "during a collection, what becomes referenced is marked with what it reaches; outside one, it is not")
    func marking() {
        var records = StoreRecords()
        _ = records.modify("Launch:1", fields: ["next": Self.launch(2)], marking: Self.idle)
        _ = records.modify("Launch:2", fields: ["next": Self.launch(3)], marking: Self.idle)
        _ = records.modify("Launch:3", fields: ["id": .scalar("3")], marking: Self.idle)
        _ = records.modify(.queryRoot, fields: ["a": Self.launch(1)], marking: Self.idle)
        #expect([1, 2, 3].allSatisfy { records[CacheKey("Launch:\($0)")]?.mark == 0 })
        _ = records.modify(
            .queryRoot, fields: ["b": Self.launch(2)], marking: .init(epoch: 7, isCollecting: false))
        #expect(records["Launch:2"]?.mark == 0)
        _ = records.modify(
            .queryRoot, fields: ["c": Self.launch(2)], marking: .init(epoch: 7, isCollecting: true))
        #expect(records["Launch:1"]?.mark == 0)
        #expect(records["Launch:2"]?.mark == 7 && records["Launch:3"]?.mark == 7)
        // A record made takes the epoch, collecting or not.
        _ = records.modify(
            "Launch:4", fields: ["id": .scalar("4")], marking: .init(epoch: 9, isCollecting: false))
        #expect(records["Launch:4"]?.mark == 9)
        records.markReach(from: ["Launch:1"], epoch: 8)
        #expect([1, 2, 3].allSatisfy { records[CacheKey("Launch:\($0)")]?.mark == 8 })
        #expect(records["Launch:4"]?.mark == 9)
    }

    @Test("random writes, modifies, deletes and removals keep the referrers exactly the references")
    // `remove(_:marking:)` is the collector's: it drops the record's referrers with it, and
    // is only called for records nothing references.
    func randomized() {
        let seed = SeededGenerator.testSeed()
        print("StoreRecords randomized test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var records = StoreRecords()
        let keys: [CacheKey] = [.queryRoot] + (0..<8).map { CacheKey("Launch:\($0)") }
        func value() -> StoreValue {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: .scalar(.string("\(Int.random(in: 0..<3, using: &random))"))
            case 1: Self.launch(Int.random(in: 0..<8, using: &random))
            case 2:
                .list(
                    (0..<Int.random(in: 0...3, using: &random)).map { _ in
                        Self.launch(Int.random(in: 0..<8, using: &random))
                    })
            default: .object(StoreObject(["node": Self.launch(Int.random(in: 0..<8, using: &random))]))
            }
        }
        for step in 0..<400 {
            let key = keys.randomElement(using: &random)!
            let field = ["a", "b", "c"].randomElement(using: &random)!
            switch Int.random(in: 0..<6, using: &random) {
            case 0: _ = records.delete(key, marking: Self.idle)
            // The collector's removal, of a record nothing references.
            case 1 where records.referrers(of: key).isEmpty: records.remove(key, marking: Self.idle)
            case 2: records.remove(field: field, of: key, marking: Self.idle)
            case 3:
                _ = records.apply(
                    [StoreNormalizer.Entry(key: key, fields: [(field, value())])], marking: Self.idle)
            default:
                _ = records.modify(
                    key, fields: [field: Bool.random(using: &random) ? value() : nil], marking: Self.idle)
            }
            expectConsistent(records, "seed \(seed), step \(step)")
        }
    }

    /// Checks the referrers against the references recomputed from scratch,
    /// and the count of the root records' objects.
    func expectConsistent(
        _ records: StoreRecords, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var expected: [CacheKey: Set<StoreFieldKey>] = [:]
        var actual = records.danglingReferrers
        var rootObjects = 0
        records.forEach { key, record in
            for (field, value) in record.dictionary {
                value.forEachReference {
                    expected[$0, default: []].insert(StoreFieldKey(record: key, field: field))
                }
                if key.isRoot { rootObjects += value.heldObjectCount }
            }
            if !record.referrers.isEmpty { actual[key, default: []].formUnion(record.referrers.all) }
        }
        #expect(actual == expected, comment, sourceLocation: sourceLocation)
        #expect(
            records.danglingReferrers.keys.allSatisfy { records[$0] == nil }, comment,
            sourceLocation: sourceLocation)
        #expect(
            records.danglingReferrers.values.allSatisfy { !$0.isEmpty }, comment,
            sourceLocation: sourceLocation)
        #expect(records.rootHeldObjects == rootObjects, comment, sourceLocation: sourceLocation)
        #expect(records.keys.count == records.count, comment, sourceLocation: sourceLocation)
    }
}
