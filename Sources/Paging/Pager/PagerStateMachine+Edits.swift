// Local edits on a pager state machine, and what it keeps of them for the loads in flight.
extension PagerStateMachine {
    /// Applies a batch of edits in order, each only while its condition
    /// holds, and publishes one snapshot with their merged change when any
    /// applied.
    /// - Returns: the outcome of each edit, and the item each removal removed.
    /// - Complexity: O(*k* (*m* + log *p*)) for *k* edits in pages of *m*
    ///   items out of *p*; merging the change of a batch that inserts or
    ///   removes adds O(*k*²).
    mutating func apply(_ edits: [PagerEdit<Item>]) -> (
        outcomes: [PagerEdit<Item>.Outcome], removed: [Item?], effects: Effects
    ) {
        var effects = Effects()
        var outcomes: [PagerEdit<Item>.Outcome] = []
        var removed: [Item?] = []
        outcomes.reserveCapacity(edits.count)
        removed.reserveCapacity(edits.count)
        var batch = EditBatch(countBefore: items.count)
        let refreshing = isRefreshing
        for edit in edits {
            let (outcome, item) = window.apply(edit, version: version, into: &batch)
            outcomes.append(outcome)
            removed.append(item)
            if case .remove(let id) = edit.kind,
                outcome.isApplied || outcome == .notHeld && edit.isUnconditional
            {
                removedWhileLoading(id)
            }
            guard edit.survivesRefresh, outcome.isApplied else { continue }
            if refreshing { recordForRefresh(edit) }
            if case .insert(let item, _) = edit.kind { unjoined?.insert(item.id) }
        }
        guard !batch.isEmpty else { return (outcomes, removed, effects) }
        window.markModified(batch.edited, version: version + 1)
        publish(batch.change, into: &effects)
        return (outcomes, removed, effects)
    }

    /// Notes an id removed by a local edit in the loads in flight at the ends: their pages land
    /// without it (a refresh's pages replace local edits, but for those that survive it).
    /// - Complexity: O(1) expected.
    private mutating func removedWhileLoading(_ id: Item.ID) {
        for slot in [Slot.next, .previous] where inFlight[slot.rawValue] != nil {
            inFlight[slot.rawValue]?.removedMeanwhile.insert(id)
        }
    }

    /// Notes that the list may be missing items at its top from now on (a live list's stream
    /// went down): the items inserted by surviving edits from now on are not where the next head
    /// refresh reaches the list, until one swaps in.
    mutating func owesHeadRefresh() {
        if unjoined == nil { unjoined = [] }
    }

    /// Keeps an edit to apply again to the pages of the refresh in flight.
    private mutating func recordForRefresh(_ edit: PagerEdit<Item>) {
        if refreshEdits.generation != generation { refreshEdits = (generation, RefreshRebase()) }
        refreshEdits.rebase.record(edit)
    }

    /// The edits to apply again to the pages of the refresh that swaps in
    /// now, forgotten here.
    mutating func takeRefreshEdits() -> RefreshRebase<Key, Item> {
        defer { refreshEdits = (generation, RefreshRebase()) }
        return refreshEdits.generation == generation ? refreshEdits.rebase : RefreshRebase()
    }

    /// The held items with some ids, by id.
    /// - Complexity: O(*k* (*m* + log *p*)) for *k* ids.
    func items(withIDs ids: some Sequence<Item.ID>) -> [Item.ID: Item] {
        window.items(withIDs: ids)
    }

    /// The indices of the held items with some ids, by id.
    /// - Complexity: as ``PageWindow/indices(of:)``.
    func indices(of ids: some Sequence<Item.ID>) -> [Item.ID: Int] {
        window.indices(of: ids)
    }
}
