import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

/// The follower's table of units: what it indexes, and what its sweep
/// removes while units are learned again around it.
@Suite("Store follower, its units")
struct FollowedUnitsTests {
    typealias Units = FollowedUnits<CacheKey, Void, String>

    static func unit(_ id: String, records: [CacheKey] = []) -> FollowedUnit<Void, String> {
        records.isEmpty
            ? FollowedUnit(reading: (), id: id) : FollowedUnit(reading: (), ids: [id], records: records)
    }

    @Test("a change reaches a unit through its own record and through the records it lists")
    func touchedByRecords() {
        var units = Units()
        _ = units.insert(contentsOf: [
            (CacheKey("Launch:1"), Self.unit("1")),
            (CacheKey("Launch:2"), Self.unit("2", records: ["Rocket:a"])),
        ])
        #expect(units.followedCount == 2)
        #expect(units.touched(by: StoreChange(fieldsByRecord: ["Launch:1": ["site"]])) == ["Launch:1"])
        #expect(units.touched(by: StoreChange(fieldsByRecord: ["Rocket:a": ["name"]])) == ["Launch:2"])
        #expect(units.touched(by: StoreChange(fieldsByRecord: ["Launch:3": ["site"]])).isEmpty)
        units.remove("Launch:2")
        #expect(units.touched(by: StoreChange(fieldsByRecord: ["Rocket:a": ["name"]])).isEmpty)
        #expect(units.followedCount == 1)
    }

    @Test("the sweep removes units none of whose items is held, but spares those learned while it ran")
    func sweepSparesUnitsLearnedMeanwhile() {
        var units = Units()
        _ = units.insert(contentsOf: ["1", "2", "3"].map { (CacheKey("Launch:\($0)"), Self.unit($0)) })
        let candidates = units.sweepCandidates(sparing: ["Launch:3"])
        #expect(Set(candidates.map(\.id)) == ["Launch:1", "Launch:2"])
        // Learned again between the candidates and the sweep: kept.
        _ = units.insert(contentsOf: [(CacheKey("Launch:1"), Self.unit("1"))])
        units.sweep(candidates) { _ in false }
        #expect(units["Launch:1"] != nil)
        #expect(units["Launch:2"] == nil)
        #expect(units["Launch:3"] != nil)
        #expect(units.followedCount == 2)

        // Once no sweep runs, learning again spares nothing of a later sweep.
        let later = units.sweepCandidates(sparing: [])
        units.sweep(later) { $0 == "3" }
        #expect(units["Launch:1"] == nil, "not held, not learned since this sweep began")
        #expect(units["Launch:3"] != nil, "held")
    }
}
