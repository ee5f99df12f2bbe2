import Paging

/// The pages a store follower has learned that its pager may still take in,
/// and which of what they show the store changed since they were read.
///
/// A follower learns a page while it loads, before the pager holds its
/// items. So its sweep of what the pager no longer holds must spare these
/// pages (with loads in flight at both ends, the page one load learned
/// waits to be taken in while the other load's page is learned and the
/// sweep runs; a refresh collects every page it refetches before it swaps
/// them in). And a store change that reaches a unit of such a page is
/// *stale* in it: the page was read before the change, and the pager will
/// show what it read. The follower edits the rows on screen at once, and
/// reads the stale units again once the page has stopped pending.
///
/// A page stops pending once the pager can no longer take it in:
/// - its slot (the refresh, or the load at its end) is no longer loading
///   in a snapshot at least as new as the one read when it was learned:
///   the pager took the page in, or dropped it with a cancelled or failed
///   load;
/// - a later page arrived at the same end: the pager runs one load at a time
///   at each end, so the earlier page's load had ended when the later began.
///
/// A page learned by a cancelled load never pends. So at most one page
/// pends at each end, plus the pages of a refresh in flight.
struct PendingPages<Unit: Hashable & Sendable>: Sendable {
    /// The three things that load at once, as `Pager` has them.
    private enum Slot: Sendable {
        case refresh, next, previous
    }

    private struct Entry: Sendable {
        let units: Set<Unit>
        let slot: Slot
        /// The version of the pager's snapshot read when it was learned.
        let version: Int
        /// Its units the store changed since it was read.
        var stale: Set<Unit> = []
    }

    private var entries: [Entry] = []

    /// The units of the pages the pager may still take in.
    /// - Complexity: O(*u*) for the *u* units pending.
    var units: Set<Unit> {
        entries.reduce(into: []) { $0.formUnion($1.units) }
    }

    /// Notes that a page arrived, and lets go of the pages the pager can no
    /// longer take in.
    /// - Parameters:
    ///   - units: what the follower reads again of the page.
    ///   - position: the position of the request that loaded it.
    ///   - loadStates: the pager's load states, read after the page arrived.
    ///   - version: the version of the snapshot they were read from.
    ///   - cancelled: whether the load was cancelled (`Task.isCancelled` in
    ///     the load): the pager will not take its page in.
    /// - Returns: the stale units of the pages that stopped pending.
    /// - Complexity: O(*k*) for the *k* pages pending.
    mutating func arrived<Key>(
        _ units: Set<Unit>, for position: PageRequest<Key>.Position, loadStates: LoadStates, version: Int,
        cancelled: Bool
    ) -> Set<Unit> {
        var stale = settle(loadStates, version: version)
        guard !cancelled, let slot = Self.slot(loading: position, in: loadStates) else { return stale }
        if slot != .refresh {
            for entry in entries where entry.slot == slot { stale.formUnion(entry.stale) }
            entries.removeAll { $0.slot == slot }
        }
        entries.append(Entry(units: units, slot: slot, version: version))
        return stale
    }

    /// Notes that a store change reached some units: those of pending pages
    /// are stale there.
    /// - Complexity: O(*t* × *k*) for *t* units and *k* pages pending.
    mutating func changed(_ touched: some Sequence<Unit>) {
        guard !entries.isEmpty else { return }
        for unit in touched {
            for index in entries.indices where entries[index].units.contains(unit) {
                entries[index].stale.insert(unit)
            }
        }
    }

    /// Lets go of the pages the pager can no longer take in, as a snapshot
    /// tells.
    /// - Parameters:
    ///   - loadStates: the snapshot's load states.
    ///   - version: the snapshot's version; pages learned from a newer
    ///     snapshot are kept.
    /// - Returns: the stale units of the pages that stopped pending.
    /// - Complexity: O(*k*) for the *k* pages pending, plus the units returned.
    mutating func settle(_ loadStates: LoadStates, version: Int) -> Set<Unit> {
        var stale: Set<Unit> = []
        entries.removeAll { entry in
            guard entry.version <= version, !Self.isLoading(entry.slot, in: loadStates) else { return false }
            stale.formUnion(entry.stale)
            return true
        }
        return stale
    }

    /// The slot that loads a request now, or `nil` when none does (the
    /// request's load is over: its page is stale).
    private static func slot<Key>(loading position: PageRequest<Key>.Position, in loadStates: LoadStates)
        -> Slot?
    {
        // Nothing else loads during a refresh, which asks for its first page
        // at any position (the first held page's request) and for the
        // others at `next` or `previous`; the first load is a refresh too.
        let slot: Slot =
            if loadStates.refresh.isLoading {
                .refresh
            } else {
                switch position {
                case .initial: .refresh
                case .next: .next
                case .previous: .previous
                }
            }
        return isLoading(slot, in: loadStates) ? slot : nil
    }

    private static func isLoading(_ slot: Slot, in loadStates: LoadStates) -> Bool {
        switch slot {
        case .refresh: loadStates.refresh.isLoading
        case .next: loadStates.next.isLoading
        case .previous: loadStates.previous.isLoading
        }
    }
}
