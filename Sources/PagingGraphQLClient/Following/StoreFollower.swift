import Paging
import PagingLock

/// Keeps a pager's items in step with a ``GraphQLStore``: turns each store
/// change into one batch of the engine's local edits (`Pager.apply(_:)`) of
/// the rows that show what changed, never a reload of the list.
///
/// It learns, as pages load, what each page showed (its units, by its
/// ``StoreTracking`` strategy: by record or by page) and which records they
/// depend on. A change then reads again only the units it reached, and
/// edits their rows in one batch: updates, removals of items whose record
/// was deleted, and the inserts and removals of the connection edits that
/// name the list.
///
/// Locks and order: the follower's own lock guards what it follows and is
/// never held while it calls the pager or the store. Each round reads the
/// rows concerned and their version first (`Pager.items(withIDs:)`, one
/// hold of the pager's lock), then the store, then applies edits
/// conditioned on the rows being unchanged since that version (one more
/// hold). An edit whose row changed meanwhile (another change's edit came
/// first, a page or a refresh swapped in) fails its condition and is read
/// and computed again, so the rows end with the latest read of the store,
/// whichever order concurrent changes arrive in.
///
/// Across a refresh: the rows on screen follow a change at once, while the
/// refresh is in flight. A page the refresh has loaded (or any page in
/// flight) was read before the change, so the change marks what it reached
/// in that page stale (``PendingPages``); once the pager has taken the page
/// in (the follower watches its snapshots, after each change), it reads the
/// stale units again and edits the rows the page brought. After the swap,
/// the new rows follow as any other.
///
/// It reaches the pager's rows weakly (`FollowedRows`: the pager's own, or
/// seen through a transform such as `map`), and is kept for the pager in
/// what the pager lends its loads (`PagerAttachments`), found by the source
/// through any wrapper; so it lives as long as the list.
final class StoreFollower<Key: Hashable & Sendable, Tracking: StoreTracking>: Sendable {
    typealias Item = Tracking.Item
    typealias UnitID = Tracking.UnitID
    typealias Unit = FollowedUnit<Tracking.Reading, Item.ID>
    private typealias Edit = FollowedConnectionEdit<UnitID, Tracking.Reading, Item.ID>

    private struct State: Sendable {
        var units = FollowedUnits<UnitID, Tracking.Reading, Item.ID>()
        var observation: StoreObservation?
        /// Whether the follower watches the pager's changes (from its first page).
        var watchesPager = false
        /// For a list with a membership rule: the items where the pages
        /// loaded last at each end stopped, with their rule values as
        /// loaded (where the next page starts).
        var boundaries = Boundaries()
        /// The records a membership rule decided on while a load was in
        /// flight, to place again once none is.
        var deferred: Set<CacheKey> = []
    }

    let store: GraphQLStore
    let tracking: Tracking
    private let state = Lock(State())
    /// The rows that follow the store, while the pager lives.
    private let rows: any FollowedRows<Item>

    /// Creates a follower, which follows the store from now on.
    /// - Parameters:
    ///   - store: the store to follow.
    ///   - tracking: how the list's pages are learned and read again.
    ///   - rows: the pager's rows, as items of the tracking's type.
    init(store: GraphQLStore, tracking: Tracking, rows: any FollowedRows<Item>) {
        self.store = store
        self.tracking = tracking
        self.rows = rows
        if tracking.membership != nil { state.withLock { $0.units.indexesItems = true } }
        let observation = store.observe { [weak self] change in self?.follow(change) }
        state.withLock { $0.observation = observation }
    }

    /// The follower kept for the pager of a load, made the first time: `nil`
    /// when the request comes from no pager, or from one whose rows are not
    /// items of the tracking's type (a transform between that cannot be
    /// followed).
    /// - Parameters:
    ///   - request: the load's request.
    ///   - owner: the object the source's copies share, which the follower
    ///     is kept for.
    ///   - store: the store to follow.
    ///   - tracking: makes the tracking, the first time.
    /// - Complexity: O(1).
    static func forLoad(
        _ request: PageRequest<Key>, owner: AnyObject, store: GraphQLStore, tracking: () -> Tracking
    ) -> StoreFollower? {
        guard let load = request.load, let rows = load.rows(of: Item.self) else { return nil }
        return load.attachments?.attachment(for: owner) {
            StoreFollower(store: store, tracking: tracking(), rows: rows)
        }
    }

    // MARK: Learning

    /// Follows the units of a page that has loaded, before the pager takes
    /// it in.
    ///
    /// The units are followed first, then checked against what the page
    /// showed (``StoreTracking/changed(_:since:in:)``): a change before
    /// the check shows in it, one after it reaches the units. Either way
    /// the page, if pending, is read again where it is stale once the pager
    /// has taken it in.
    /// - Parameters:
    ///   - learned: the page's units, by id.
    ///   - shown: what the page showed.
    ///   - written: the store's commit count right after the page's response
    ///     was written, if known: when the store's count is still that once
    ///     the units are followed, nothing changed the store in between, and
    ///     the check is skipped.
    ///   - request: the request that loaded the page.
    /// - Complexity: O(*u*) for *u* units and the strategy's check, plus now
    ///   and then a sweep of what the pager no longer holds, O(1) amortized
    ///   per unit.
    func learn(
        _ learned: [(id: UnitID, unit: Unit)], shown: Tracking.Shown, written: Int?,
        for request: PageRequest<Key>
    ) {
        guard !learned.isEmpty else { return }
        if let membership = tracking.membership { learnBoundaries(of: learned, for: request, by: membership) }
        let cancelled = Task.isCancelled
        let ids = learned.map(\.id)
        let tokens = tracking.retain(learned, ids: ids, in: store)
        // Watched first, then read: a page the pager takes in after this
        // read settles through the watch.
        watch()
        // Read before the units are pending: any snapshot that settles them
        // is newer.
        guard let snapshot = rows.state else { return }
        let page = Set(ids)
        let (settled, candidates) = state.withLock {
            state -> (
                PendingPages<UnitID>.Settled, [FollowedUnits<UnitID, Tracking.Reading, Item.ID>.Candidate]?
            ) in
            let added = state.units.insert(contentsOf: learned)
            state.units.retain(tokens, for: ids)
            let settled = state.units.pending.arrived(
                page, for: request, snapshot: snapshot, cancelled: cancelled)
            // What the window dropped is forgotten now and then: at most
            // twice as many items are followed as are held (plus the pages
            // pending), for O(1) amortized work per item.
            guard state.units.followedCount > 2 * max(snapshot.count, 1) + added else {
                return (settled, nil)
            }
            return (settled, state.units.sweepCandidates(sparing: page))
        }
        // The units are followed now: a change from here on reaches them, and
        // one since the page's write shows in the commit count.
        let unchanged = written != nil && store.commitCount == written
        let changed = unchanged ? [] : tracking.changed(learned, since: shown, in: store)
        if unchanged, tracking.membership != nil {
            // The page shows its records as the store holds them: it places
            // them itself, and the rule need not again.
            let records = ids.compactMap(\.ownRecord)
            state.withLock { $0.deferred.subtract(records) }
        }
        if !changed.isEmpty { state.withLock { $0.units.pending.changed(changed) } }
        if let candidates {
            // The ids the pager holds now, in one pass over them: asking the
            // pager for each candidate's row costs a scan of its page each
            // (hundreds of candidates in a windowed list), where the sweep
            // runs only once as many items again have been learned as are
            // held, so this pass is O(1) amortized per item.
            if let held = rows.heldIDs {
                state.withLock { $0.units.sweep(candidates) { held.contains($0) } }
            }
        }
        if !settled.isEmpty { follow(settled) }
    }

    /// Watches the pager's changes, once: a page pending that the pager has
    /// taken in is read again where the store changed since it was read.
    private func watch() {
        let first = state.withLock { state in
            defer { state.watchesPager = true }
            return !state.watchesPager
        }
        guard first else { return }
        rows.onChange { [weak self] state in self?.settle(state) }
    }

    /// Reads again the stale units of the pages a snapshot shows taken in,
    /// and removes the rows they brought of units taken out since.
    /// - Complexity: O(*k*) for the *k* pages pending, plus the reads.
    private func settle(_ snapshot: FollowedRowsState) {
        let (settled, deferred) = state.withLock { state -> (PendingPages<UnitID>.Settled, [CacheKey]) in
            let settled = state.units.pending.settle(snapshot)
            // Records a membership rule decided on while a load was in
            // flight are placed again once none is: the pages it brought
            // are in, and where they end is where the next ones start.
            guard !state.deferred.isEmpty, !snapshot.loadStates.isLoading else { return (settled, []) }
            defer { state.deferred = [] }
            return (settled, Array(state.deferred))
        }
        if !deferred.isEmpty, let membership = tracking.membership {
            let placed = place(deferred, by: membership)
            // What the rule did not place is read again as any unit is.
            let rest = deferred.compactMap { UnitID(ownRecord: $0) }.filter { !placed.contains($0) }
            if !rest.isEmpty { reread(state.withLock { state in rest.filter { state.units[$0] != nil } }) }
        }
        guard !settled.isEmpty else { return }
        follow(settled)
    }

    /// Brings the rows of pages that stopped pending up to date with the
    /// changes made while they pended.
    private func follow(_ settled: PendingPages<UnitID>.Settled) {
        reread(Array(settled.stale), connectionEdits: settled.removed.map { .remove($0) })
    }

    // MARK: Following

    /// Turns a store change into one batch of edits of the pager's rows.
    /// - Complexity: O(*t* (*m* + log *p*)) and *t* reads for the *t* units
    ///   the change reaches, in pages of *m* items out of *p*.
    private func follow(_ change: StoreChange) {
        // The records a membership rule placed are edited by it, each in
        // one edit of its batch, not read again here.
        let placed =
            tracking.membership.map { membership in
                place(
                    change.changedRecords.filter { !change.deletedRecords.contains($0) }, by: membership)
            } ?? []
        let edits = tracking.connectionEdits(of: change)
        let touched = state.withLock { state in
            var touched = state.units.touched(by: change)
            if !placed.isEmpty { touched.removeAll { placed.contains($0) } }
            state.units.pending.changed(touched)
            for edit in edits {
                switch edit {
                case .insert(let id, _, _): state.units.pending.restored(id)
                case .remove(let id): state.units.pending.removed(id)
                }
            }
            return touched
        }
        guard !touched.isEmpty || !edits.isEmpty else { return }
        reread(touched, connectionEdits: edits)
    }

    /// Reads units again and edits their rows to match, in one batch per
    /// round; a unit whose edit failed its condition goes round again.
    private func reread(_ ids: [UnitID], connectionEdits: [Edit] = []) {
        var ids = ids
        var connectionEdits = connectionEdits
        // The data an insert was made of: its confirming round edits nothing
        // when the store still holds it.
        var inserted: [UnitID: JSONValue] = [:]
        while !ids.isEmpty || !connectionEdits.isEmpty {
            let round = state.withLock {
                Round(ids: ids, connectionEdits: connectionEdits, followed: $0.units)
            }
            // The rows first, then the store: what is applied is read after
            // the rows it is conditioned on.
            guard let (version, held) = rows.items(withIDs: round.rowIDs) else { return }
            var plan = Plan(version: version)
            for (id, unit) in round.units {
                let read = tracking.reread(unit, id: id, held: held, in: store)
                plan.update(id, unit: unit, read: read, held: held, unchangedFrom: inserted[id])
            }
            for (id, unit, position) in round.inserts {
                plan.insert(
                    id, unit: unit, read: tracking.reread(unit, id: id, held: [:], in: store), at: position)
            }
            for id in round.removals { plan.remove(id, ids: round.removedIDs[id] ?? []) }
            guard let outcomes = plan.edits.isEmpty ? [] : rows.apply(plan.edits) else { return }
            let result = plan.result(outcomes)
            // Outside the lock: retaining calls the store.
            let tokens = result.inserted.map {
                (ids: [$0.id], tokens: tracking.retain([$0], ids: [$0.id], in: store))
            }
            state.withLock { state in
                for (id, unit) in result.read { state.units.insert(unit, as: id) }
                // A unit of a pending page stays followed, gone or not: once
                // the page is taken in, what it brings of the unit is read
                // again or removed (see `PendingPages`).
                let pending = result.gone.isEmpty ? [] : state.units.pending.units
                // A boundary's item deleted, or taken out of the connection, still marks where the
                // next page starts: the page's cursor does not move with it.
                for id in result.gone {
                    if let unit = state.units[id] { state.boundaries.markRemoved(unit.ids) }
                }
                for id in result.gone where !pending.contains(id) { state.units.remove(id) }
                for ((id, unit), retained) in zip(result.inserted, tokens) {
                    state.units.insert(unit, as: id)
                    state.units.retain(retained.tokens, for: retained.ids)
                }
            }
            // An inserted unit is read once more: a change between its read
            // and its learning would have missed it.
            inserted = result.insertedData
            ids = result.retry + result.inserted.map(\.id)
            connectionEdits = []
        }
    }

    /// The units a round reads again, as followed when it starts.
    private struct Round {
        var units: [(UnitID, Unit)] = []
        var inserts: [(UnitID, Unit, InsertPosition<Item.ID>)] = []
        var removals: [UnitID] = []
        var removedIDs: [UnitID: [Item.ID]] = [:]

        init(
            ids: [UnitID], connectionEdits: [Edit], followed: FollowedUnits<UnitID, Tracking.Reading, Item.ID>
        ) {
            units = ids.compactMap { id in followed[id].map { (id, $0) } }
            for edit in connectionEdits {
                switch edit {
                case .insert(let id, let unit, let position): inserts.append((id, unit, position))
                case .remove(let id):
                    guard let unit = followed[id] else { continue }
                    removals.append(id)
                    removedIDs[id] = Array(unit.ids)
                }
            }
        }

        /// The rows whose items the round reads.
        var rowIDs: [Item.ID] { units.flatMap(\.1.ids) }
    }

    /// The batch of a round, and which unit each edit is for.
    private struct Plan {
        let version: Int
        var edits: [PagerEdit<Item>] = []
        /// The units read again, their read, and their edits.
        var updates: [(id: UnitID, unit: Unit, read: UnitRead<Item>, edits: Range<Int>)] = []
        var inserts: [(id: UnitID, unit: Unit, data: JSONValue?, edits: Range<Int>)] = []
        var removals: [(id: UnitID, edits: Range<Int>)] = []

        init(version: Int) {
            self.version = version
        }

        /// Updates the rows of a unit read again, or removes them when it is
        /// gone; rows that equal what they would become are left alone.
        mutating func update(
            _ id: UnitID, unit: Unit, read: UnitRead<Item>, held: [Item.ID: Item],
            unchangedFrom data: JSONValue?
        ) {
            let start = edits.count
            switch read {
            case .items(let items, let storeRead, _):
                guard data == nil || storeRead.data != data else { break }
                for item in items {
                    if let row = held[item.id], equalIfEquatable(row, item) { continue }
                    edits.append(.update(item, if: .unchanged(since: version)))
                }
            case .gone:
                for itemID in unit.ids { edits.append(.remove(id: itemID, if: .unchanged(since: version))) }
            case .unreadable:
                break
            }
            updates.append((id, unit, read, start..<edits.count))
        }

        /// Inserts the items of a new unit.
        mutating func insert(
            _ id: UnitID, unit: Unit, read: UnitRead<Item>, at position: InsertPosition<Item.ID>
        ) {
            guard case .items(let items, let storeRead, let records) = read else { return }
            let start = edits.count
            // A refresh in flight may have been answered before the edit: the
            // item stays when it swaps in (the store holds it).
            for item in items { edits.append(PagerEdit.insert(item, at: position).survivingRefresh()) }
            var unit = unit
            unit.ids = UnitItemIDs(items.map(\.id))
            unit.records = records
            unit.read = Tracking.keepsReads ? storeRead : nil
            inserts.append((id, unit, storeRead.data, start..<edits.count))
        }

        /// Removes the rows of a unit a connection edit takes out.
        mutating func remove(_ id: UnitID, ids: [Item.ID]) {
            let start = edits.count
            for itemID in ids { edits.append(PagerEdit.remove(id: itemID).survivingRefresh()) }
            removals.append((id, start..<edits.count))
        }

        /// What the round did, given the outcome of each edit.
        func result(_ outcomes: [PagerEdit<Item>.Outcome]) -> RoundResult {
            var result = RoundResult()
            for (id, unit, read, range) in updates {
                if outcomes[range].contains(.conditionFailed) {
                    result.retry.append(id)
                    continue
                }
                switch read {
                case .items(let items, let storeRead, let records):
                    var unit = unit
                    unit.ids = UnitItemIDs(items.map(\.id))
                    unit.records = records
                    unit.read = Tracking.keepsReads ? storeRead : nil
                    result.read.append((id, unit))
                case .gone: result.gone.append(id)
                case .unreadable: break
                }
            }
            for (id, unit, data, range) in inserts where outcomes[range].contains(where: \.isApplied) {
                result.inserted.append((id, unit))
                result.insertedData[id] = data
            }
            for (id, range) in removals where outcomes[range].contains(where: \.isApplied) {
                result.gone.append(id)
            }
            return result
        }
    }

    /// What a round did.
    private struct RoundResult {
        var retry: [UnitID] = []
        var read: [(UnitID, Unit)] = []
        var gone: [UnitID] = []
        var inserted: [(id: UnitID, unit: Unit)] = []
        var insertedData: [UnitID: JSONValue] = [:]
    }
}

// MARK: - Membership

extension StoreFollower {
    /// One record of a change that a membership rule decides on.
    private struct Candidate {
        let record: CacheKey
        let values: [[String]: JSONValue]
        let matches: Bool
    }

    /// Inserts, removes and moves the items of the records a change wrote,
    /// by the list's membership rule, in one batch of edits conditioned on
    /// the version of the rows' order: a record that matches and is not
    /// held goes in at its place when that place is within the items held;
    /// one that no longer matches goes out; one whose sort fields moved it
    /// goes to its new place (or out, when that is beyond what is held).
    /// When the rows changed between their read and the batch, it reads
    /// everything again.
    /// - Parameters:
    ///   - change: the store's change.
    ///   - membership: the list's rule.
    /// - Returns: the units it edited, which the change's reread leaves alone.
    /// - Complexity: O(*c* log *n*) reads of the store for *c* records of
    ///   the rule's type in the change and *n* items held, plus one read
    ///   of each record inserted or moved.
    fileprivate func place(_ records: [CacheKey], by membership: FollowedMembership) -> Set<UnitID> {
        guard !records.isEmpty else { return [] }
        // A conflict means the pager published between the read of its order
        // and the batch; each try starts after the conflict, so a few suffice
        // unless pages arrive without pause, and the records are then placed
        // by the next change or the pages themselves.
        for _ in 0..<8 {
            switch placeOnce(records, by: membership) {
            case .placed(let units): return units
            case .conflict: continue
            }
        }
        return []
    }

    private enum Placement {
        case placed(Set<UnitID>)
        case conflict
    }

    /// One try of ``place(_:by:)``.
    private func placeOnce(_ records: [CacheKey], by membership: FollowedMembership) -> Placement {
        let rule = membership.rule
        var candidates: [Candidate] = []
        for (record, values) in zip(records, store.values(of: records, at: membership.paths)) {
            guard let values, let matches = rule.matches(values, arguments: membership.arguments) else {
                continue
            }
            candidates.append(Candidate(record: record, values: values, matches: matches))
        }
        guard !candidates.isEmpty else { return .placed([]) }
        let followed = state.withLock { state in
            candidates.compactMap { candidate -> (CacheKey, UnitID, Unit)? in
                guard let id = UnitID(ownRecord: candidate.record), let unit = state.units[id] else {
                    return nil
                }
                return (candidate.record, id, unit)
            }
        }
        // None held while a load is in flight (a page's own records, as it
        // is written): nothing to do but defer them.
        if followed.isEmpty, rows.state?.loadStates.isLoading == true {
            state.withLock { state in state.deferred.formUnion(candidates.map(\.record)) }
            return .placed([])
        }
        let units = Dictionary(followed.map { ($0.0, ($0.1, $0.2)) }, uniquingKeysWith: { first, _ in first })
        let itemIDs = followed.flatMap { Array($0.2.ids) }
        let boundaries = state.withLock { $0.boundaries }
        guard let (_, heldItems) = rows.items(withIDs: itemIDs),
            let order = rows.order(of: itemIDs + boundaries.ids)
        else { return .placed([]) }
        if order.loadStates.isLoading {
            state.withLock { state in state.deferred.formUnion(candidates.map(\.record)) }
        }
        // The held records, and those that come in.
        var leaving: [(id: UnitID, itemID: Item.ID, index: Int)] = []
        var staying: [(candidate: Candidate, id: UnitID, unit: Unit, itemID: Item.ID, index: Int)] = []
        var newcomers: [Candidate] = []
        for candidate in candidates {
            if let (id, unit) = units[candidate.record], unit.itemCount == 1, let itemID = unit.ids.first,
                let index = order.indices[itemID]
            {
                if candidate.matches {
                    staying.append((candidate, id, unit, itemID, index))
                } else {
                    leaving.append((id, itemID, index))
                }
            } else if candidate.matches, !order.loadStates.isLoading {
                // While a load is in flight, a record comes in once none is
                // (it is deferred): the page may bring it.
                newcomers.append(candidate)
            }
        }
        // The held records the change reached stay where they are when each
        // run of them side by side (nothing the change did not reach between
        // them) is still in the rule's order, and each is still between the
        // nearest items the change did not reach; otherwise the whole run is
        // placed again, among the items that stay.
        let reached = (leaving.map(\.index) + staying.map(\.index)).sorted()
        let limits = limits(boundaries, in: order, reached: Set(reached), by: rule)
        staying.sort { $0.index < $1.index }
        var moving: [Int] = []
        var runStart = 0
        while runStart < staying.count {
            var runEnd = runStart + 1
            var sorted = true
            while runEnd < staying.count,
                Self.onlyReached(between: staying[runEnd - 1].index, and: staying[runEnd].index, reached)
            {
                // Out of order only when it can be told: a sort field the
                // store lacks leaves the record where it is.
                if rule.areInIncreasingOrder(
                    staying[runEnd].candidate.values, staying[runEnd - 1].candidate.values)
                    == true
                {
                    sorted = false
                }
                runEnd += 1
            }
            let run = staying[runStart..<runEnd]
            let inPlace =
                sorted
                && run.allSatisfy { held in
                    isInPlace(
                        held.candidate.values, at: held.index, in: order, reached: reached, limits: limits,
                        by: rule)
                }
            if !inPlace { moving += run.map(\.index) }
            runStart = runEnd
        }
        let remaining = Remaining(order: order, excluded: (leaving.map(\.index) + moving).sorted())
        var edits: [PagerEdit<Item>] = []
        var removed: [UnitID] = []
        var placements: [(position: Int, values: [[String]: JSONValue], item: Item, id: UnitID, unit: Unit)] =
            []
        let condition = PagerEdit<Item>.Condition.version(order.version)
        for gone in leaving {
            edits.append(.remove(id: gone.itemID, if: condition))
            removed.append(gone.id)
        }
        // The held records that stay in place are updated in the same batch,
        // so that the change is one snapshot.
        var updated: [(id: UnitID, unit: Unit)] = []
        for held in staying where !moving.contains(held.index) {
            guard
                case .items(let items, let read, let records) = tracking.reread(
                    held.unit, id: held.id, held: heldItems, in: store),
                items.count == 1, items[0].id == held.itemID
            else { continue }
            updated.append((held.id, Self.unit(held.unit, showing: items, read: read, records: records)))
            if let row = heldItems[held.itemID], equalIfEquatable(row, items[0]) { continue }
            edits.append(.update(items[0], if: condition))
        }
        for held in staying where moving.contains(held.index) {
            edits.append(.remove(id: held.itemID, if: condition))
            removed.append(held.id)
            guard let position = position(of: held.candidate.values, in: remaining, limits: limits, by: rule),
                case .items(let items, let read, let records) = tracking.reread(
                    held.unit, id: held.id, held: heldItems, in: store),
                items.count == 1
            else { continue }
            placements.append(
                (
                    position, held.candidate.values, items[0], held.id,
                    Self.unit(held.unit, showing: items, read: read, records: records)
                ))
        }
        for candidate in newcomers {
            guard let (id, unit) = tracking.unit(ofRecord: candidate.record),
                let position = position(of: candidate.values, in: remaining, limits: limits, by: rule),
                case .items(let items, let read, let records) = tracking.reread(
                    unit, id: id, held: [:], in: store),
                items.count == 1, order.indices[items[0].id] == nil
            else { continue }
            placements.append(
                (
                    position, candidate.values, items[0], id,
                    Self.unit(unit, showing: items, read: read, records: records)
                ))
        }
        // Those that go in at one place, in the rule's order.
        placements.sort { lhs, rhs in
            lhs.position != rhs.position
                ? lhs.position < rhs.position : rule.areInIncreasingOrder(lhs.values, rhs.values) == true
        }
        var inserted: [(id: UnitID, unit: Unit)] = []
        var previous: (position: Int, id: Item.ID)?
        for placement in placements {
            let place: InsertPosition<Item.ID> =
                if placement.position < remaining.count {
                    .before(remaining.id(at: placement.position))
                } else if let previous, previous.position == placement.position {
                    .after(previous.id)
                } else if remaining.count > 0 {
                    .after(remaining.id(at: remaining.count - 1))
                } else {
                    .first
                }
            edits.append(.insert(placement.item, at: place, if: condition))
            inserted.append((placement.id, placement.unit))
            previous = (placement.position, placement.item.id)
        }
        if !edits.isEmpty {
            guard let outcomes = rows.apply(edits) else { return .placed([]) }
            if outcomes.contains(.conditionFailed) { return .conflict }
        }
        let tokens = inserted.map { tracking.retain([$0], ids: [$0.id], in: store) }
        state.withLock { state in
            for (id, unit) in updated { state.units.insert(unit, as: id) }
            for id in removed {
                if let unit = state.units[id] { state.boundaries.markRemoved(unit.ids) }
                state.units.remove(id)
            }
            for ((id, unit), tokens) in zip(inserted, tokens) {
                state.units.insert(unit, as: id)
                state.units.retain(tokens, for: [id])
            }
        }
        return .placed(Set(removed + inserted.map(\.id) + updated.map(\.id)))
    }

    /// Where the pages loaded last at each end stopped: the item at the
    /// end of a page loaded at the end (at the start of one loaded at the
    /// start; both for a first page), with its rule values as loaded. The
    /// next page at that end starts right after that place, wherever the
    /// item is now. The last few are kept, newest last: a head refresh's
    /// page, a window that dropped the last page, make an older one the
    /// place again.
    struct Boundaries: Sendable {
        struct Boundary: Sendable {
            let id: Item.ID
            let values: [[String]: JSONValue]
            /// Whether the item was taken out of the list (by the rule, by a
            /// deletion of its record, or by a connection edit): the place
            /// it marks still is where the next page starts.
            var removed = false
        }

        /// The values before which a record is within the list at each end.
        struct Limits {
            var start: [[String]: JSONValue]?
            var end: [[String]: JSONValue]?
        }

        /// How many are kept at each end.
        static var kept: Int { 8 }

        var starts: [Boundary] = []
        var ends: [Boundary] = []

        /// The items' ids, to find them in the rows.
        var ids: [Item.ID] { starts.map(\.id) + ends.map(\.id) }

        mutating func learned(start: Boundary?, end: Boundary?) {
            if let start {
                starts.append(start)
                if starts.count > Self.kept { starts.removeFirst() }
            }
            if let end {
                ends.append(end)
                if ends.count > Self.kept { ends.removeFirst() }
            }
        }

        mutating func markRemoved(_ ids: UnitItemIDs<Item.ID>) {
            for id in ids {
                for index in starts.indices where starts[index].id == id {
                    starts[index].removed = true
                }
                for index in ends.indices where ends[index].id == id { ends[index].removed = true }
            }
        }
    }

    /// Where the next page at each end starts: the newest boundary there
    /// whose item is held, or was taken out of the list (one the window
    /// dropped no longer marks it), and that is not inside the list (a head
    /// refresh's page ends above the items held below it: the item held
    /// last, of those the change did not reach, comes after it).
    /// - Complexity: two reads of the store, and O(*b*) for *b* boundaries kept.
    private func limits(
        _ boundaries: Boundaries, in order: FollowedOrder<Item.ID>, reached: Set<Int>,
        by rule: ConnectionMembershipRule
    ) -> Boundaries.Limits {
        let paths = rule.order.map(\.path)
        func held(_ boundary: Boundaries.Boundary) -> Bool {
            boundary.removed || order.indices[boundary.id] != nil
        }
        let first = (0..<order.count).first { !reached.contains($0) }.flatMap {
            values(ofItemAt: $0, in: order, paths: paths)
        }
        let last = (0..<order.count).reversed().first { !reached.contains($0) }.flatMap {
            values(ofItemAt: $0, in: order, paths: paths)
        }
        let start = boundaries.starts.reversed().first { boundary in
            held(boundary) && !(first.map { rule.areInIncreasingOrder($0, boundary.values) == true } ?? false)
        }
        let end = boundaries.ends.reversed().first { boundary in
            held(boundary) && !(last.map { rule.areInIncreasingOrder(boundary.values, $0) == true } ?? false)
        }
        return Boundaries.Limits(start: start?.values, end: end?.values)
    }

    /// Records where a page loaded at an end stopped.
    private func learnBoundaries(
        of learned: [(id: UnitID, unit: Unit)], for request: PageRequest<Key>,
        by membership: FollowedMembership
    ) {
        let paths = membership.rule.order.map(\.path)
        guard !paths.isEmpty else { return }
        func boundary(_ unit: (id: UnitID, unit: Unit)?) -> Boundaries.Boundary? {
            guard let unit, let id = unit.unit.ids.first, let record = unit.id.ownRecord,
                let values = store.values(of: [record], at: paths).first ?? nil
            else { return nil }
            return Boundaries.Boundary(id: id, values: values)
        }
        let end = request.direction != .previous ? boundary(learned.last) : nil
        let start = request.direction != .next ? boundary(learned.first) : nil
        state.withLock { state in state.boundaries.learned(start: start, end: end) }
    }

    /// A unit as read for an insert.
    private static func unit(_ unit: Unit, showing items: [Item], read: StoreReadResult, records: [CacheKey])
        -> Unit
    {
        var unit = unit
        unit.ids = UnitItemIDs(items.map(\.id))
        unit.records = records
        unit.read = Tracking.keepsReads ? read : nil
        return unit
    }

    /// The rule's values of the record of a held item, read from the store;
    /// `nil` when the item's record is not known or its fields are missing.
    private func values(ofItemAt index: Int, in order: FollowedOrder<Item.ID>, paths: [[String]])
        -> [[String]:
        JSONValue]?
    {
        let itemID = order.id(index)
        guard let record = state.withLock({ $0.units.unitsByItem[itemID] })?.ownRecord else { return nil }
        return store.values(of: [record], at: paths).first ?? nil
    }

    /// The held items that stay where they are: those a change did not
    /// reach, and those it reached that are still in place; where an item
    /// goes is found among them.
    private struct Remaining {
        let order: FollowedOrder<Item.ID>
        /// The indices of the items that leave or move, ascending.
        let excluded: [Int]

        var count: Int { order.count - excluded.count }

        /// The index in the rows of the item at a position among those that stay.
        /// - Complexity: O(*e*) for *e* items excluded.
        func index(at position: Int) -> Int {
            var index = position
            for excluded in excluded {
                guard excluded <= index else { break }
                index += 1
            }
            return index
        }

        func id(at position: Int) -> Item.ID { order.id(index(at: position)) }
    }

    /// Whether every index strictly between two is one of `reached` (sorted).
    private static func onlyReached(between lower: Int, and upper: Int, _ reached: [Int]) -> Bool {
        upper - lower - 1 == reached.lazy.filter { $0 > lower && $0 < upper }.count
    }

    /// Whether a held item's new values keep it between the nearest items a
    /// change did not reach, and, with none after (before) it, within where
    /// the next page at that end starts; an order that cannot be told keeps
    /// it where it is.
    private func isInPlace(
        _ values: [[String]: JSONValue], at index: Int, in order: FollowedOrder<Item.ID>, reached: [Int],
        limits: Boundaries.Limits, by rule: ConnectionMembershipRule
    ) -> Bool {
        let reachedSet = Set(reached)
        let previousIndex = stride(from: index - 1, through: 0, by: -1).first { !reachedSet.contains($0) }
        let nextIndex = (index + 1..<order.count).first { !reachedSet.contains($0) }
        if previousIndex == nil, order.loadStates.previous != .endReached, let start = limits.start,
            rule.areInIncreasingOrder(values, start) == true
        {
            return false
        }
        if nextIndex == nil, order.loadStates.next != .endReached, let end = limits.end,
            rule.areInIncreasingOrder(end, values) == true
        {
            return false
        }
        let paths = rule.order.map(\.path)
        if let previousIndex, let previous = self.values(ofItemAt: previousIndex, in: order, paths: paths),
            rule.areInIncreasingOrder(values, previous) == true
        {
            return false
        }
        if let nextIndex, let next = self.values(ofItemAt: nextIndex, in: order, paths: paths),
            rule.areInIncreasingOrder(next, values) == true
        {
            return false
        }
        return true
    }

    /// Where a record with some values goes among the held items that stay:
    /// its position among them, found by binary search. `nil` when the place
    /// is before the first item while the list's start is not reached, after
    /// the last while its end is not, or cannot be told. Before the first or
    /// after the last is within the list when it is not beyond the place the
    /// next page at that end starts after (`limits`: where the page loaded
    /// last at that end stopped, as loaded; the record of that place is
    /// within), so that a record placed there is shown, not skipped by that
    /// page. While a load is in flight at an end, nothing goes beyond the
    /// item held there: the page may start before it (the record is placed
    /// again once the page is in).
    /// - Complexity: O(log *n*) reads of the store for *n* items held.
    private func position(
        of values: [[String]: JSONValue], in remaining: Remaining, limits: Boundaries.Limits,
        by rule: ConnectionMembershipRule
    ) -> Int? {
        let states = remaining.order.loadStates
        var limits = limits
        if states.refresh.isLoading || states.previous.isLoading { limits.start = nil }
        if states.refresh.isLoading || states.next.isLoading { limits.end = nil }
        let count = remaining.count
        let paths = rule.order.map(\.path)
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            guard
                let probe = self.values(
                    ofItemAt: remaining.index(at: middle), in: remaining.order, paths: paths),
                let before = rule.areInIncreasingOrder(probe, values)
            else { return nil }
            if before { low = middle + 1 } else { high = middle }
        }
        if low == 0,
            !(states.previous == .endReached
                || limits.start.map { rule.areInIncreasingOrder(values, $0) == false } ?? false)
        {
            return nil
        }
        if low == count,
            !(states.next == .endReached
                || limits.end.map { rule.areInIncreasingOrder($0, values) == false } ?? false)
        {
            return nil
        }
        return low
    }
}
