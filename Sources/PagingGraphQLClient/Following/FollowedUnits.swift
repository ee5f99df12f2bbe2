/// What a ``StoreFollower`` follows: its units by id, indexed by the
/// records they depend on, the tokens that keep those records, and the
/// pages pending. A value, mutated under the follower's lock only.
struct FollowedUnits<UnitID: FollowedUnitID, Reading: Sendable, ID: Hashable & Sendable>: Sendable {
    typealias Unit = FollowedUnit<Reading, ID>

    /// A unit the sweep may remove, as it saw it.
    struct Candidate: Sendable {
        let id: UnitID
        let ids: UnitItemIDs<ID>
    }

    /// The units that depend on a record: mostly one, so no set is made then.
    private enum Owners: Sendable {
        case one(UnitID)
        case many(Set<UnitID>)
    }

    /// The units, by id: an item's id and a pointer each, for a list
    /// followed by record.
    private(set) var entries = ShardedTable<UnitID, Unit>()
    private var owners: [CacheKey: Owners] = [:]
    /// The sweeps between taking their candidates and removing them, and
    /// the units learned in the meantime, which they spare: a unit learned
    /// again since a sweep looked at it is no longer the one it looked at.
    /// (No generation per unit: that would cost every unit a word.)
    private var sweepsInProgress = 0
    private var learnedDuringSweeps: Set<UnitID> = []
    /// The number of item ids the units show, in all.
    private(set) var followedCount = 0
    /// Keeps the followed records from the store's garbage collection.
    private var retains: [(units: [UnitID], tokens: [StoreRetainToken])] = []
    /// The pages learned that the pager may still take in.
    var pending = PendingPages<UnitID>()
    /// Whether ``unitsByItem`` is kept: for a list that places records by a
    /// membership rule, which reads the record of the items it compares.
    var indexesItems = false
    /// The unit that shows each item, while ``indexesItems``.
    private(set) var unitsByItem: [ID: UnitID] = [:]

    subscript(id: UnitID) -> Unit? { entries[id] }

    /// Follows a unit, in place of the one with the same id.
    /// - Complexity: O(*r*) for the records of both.
    @inline(__always)
    mutating func insert(_ unit: Unit, as id: UnitID) {
        if sweepsInProgress > 0 { learnedDuringSweeps.insert(id) }
        if let old = entries.updateValue(unit, forKey: id) {
            forget(old, of: id)
        }
        followedCount += unit.itemCount
        if indexesItems { for item in unit.ids { unitsByItem[item] = id } }
        for record in unit.records {
            switch owners[record] {
            case nil: owners[record] = .one(id)
            case .one(let other) where other == id: break
            case .one(let other): owners[record] = .many([other, id])
            case .many(var ids):
                owners[record] = nil
                ids.insert(id)
                owners[record] = .many(ids)
            }
        }
    }

    /// Follows units, each in place of the one with the same id.
    /// - Returns: the number of item ids the units show.
    /// - Complexity: O(*r*) for the records of the units and of those they replace.
    mutating func insert(contentsOf units: [(id: UnitID, unit: Unit)]) -> Int {
        // One call for the batch, not one per unit: in unspecialized code,
        // each call looks up the metadata of the generic types it touches.
        var added = 0
        for (id, unit) in units {
            added += unit.itemCount
            insert(unit, as: id)
        }
        return added
    }

    /// Stops following a unit.
    /// - Complexity: O(*r*) for its records.
    mutating func remove(_ id: UnitID) {
        guard let unit = entries.removeValue(forKey: id) else { return }
        forget(unit, of: id)
    }

    /// Takes a unit no longer followed out of the count and the index.
    /// - Complexity: O(*r*) for its records.
    private mutating func forget(_ unit: Unit, of id: UnitID) {
        followedCount -= unit.itemCount
        if indexesItems { for item in unit.ids where unitsByItem[item] == id { unitsByItem[item] = nil } }
        for record in unit.records {
            switch owners[record] {
            case nil: break
            case .one(let other): if other == id { owners[record] = nil }
            case .many(var ids):
                owners[record] = nil
                ids.remove(id)
                owners[record] = ids.count == 1 ? ids.first.map(Owners.one) : .many(ids)
            }
        }
    }

    /// Keeps tokens as long as any of some units is followed.
    mutating func retain(_ tokens: [StoreRetainToken], for units: [UnitID]) {
        retains.append((units, tokens))
    }

    /// The units a change reaches: those that depend on a changed record
    /// and, for those that keep their read, read a changed field.
    /// - Complexity: O(*c* + *t*) for *c* changed records and *t* units reached.
    func touched(by change: StoreChange) -> [UnitID] {
        var touched: Set<UnitID> = []
        for record in change.changedRecords {
            if let own = UnitID(ownRecord: record), entries[own] != nil { touched.insert(own) }
            switch owners[record] {
            case nil: break
            case .one(let id): touched.insert(id)
            case .many(let ids): touched.formUnion(ids)
            }
        }
        return touched.filter { entries[$0]?.read?.isAffected(by: change) ?? true }
    }

    /// The units the sweep may remove: all but those pending and `spared`.
    /// Each call is to be followed by ``sweep(_:held:)``.
    /// - Complexity: O(*n*) for the *n* units followed.
    mutating func sweepCandidates(sparing spared: Set<UnitID>) -> [Candidate] {
        sweepsInProgress += 1
        let kept = spared.union(pending.units)
        return entries.compactMap { id, unit in
            kept.contains(id) ? nil : Candidate(id: id, ids: unit.ids)
        }
    }

    /// Removes the candidates none of whose items is held, unless they were
    /// learned again or became pending since; lets go of the tokens of
    /// units no longer followed.
    /// - Complexity: O(*n*) for the *n* units followed and retained.
    mutating func sweep(_ candidates: [Candidate], held: (ID) -> Bool) {
        let kept = pending.units
        for candidate in candidates
        where !kept.contains(candidate.id) && !learnedDuringSweeps.contains(candidate.id)
            && !candidate.ids.contains(where: held)
        {
            remove(candidate.id)
        }
        sweepsInProgress -= 1
        if sweepsInProgress == 0 { learnedDuringSweeps = [] }
        retains.removeAll { $0.units.allSatisfy { entries[$0] == nil } }
    }
}
