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
/// A store change can also take a unit out while its page pends: its
/// record deleted, or a connection edit (`@deleteEdge`) removing it. The
/// follower removes its rows on screen at once, keeps following the unit,
/// and removes what the page brings of it once the page stops pending: a
/// unit read again as gone, or one marked *removed* here. So nothing the
/// store has taken out comes back with a page read before.
///
/// A page stops pending once the pager can no longer take it in:
/// - a load at an end: once a snapshot at least as new as the one read when
///   it was learned shows another load in its slot, or none (each load has
///   an id, `PageRequest.loadID`, that the snapshot names while it is in
///   flight): the pager took the page in, or dropped it;
/// - a page of a refresh: once the refresh is no longer loading in such a
///   snapshot (a refetch loads its pages one after another, each its own
///   load, and takes them in together at its end).
///
/// A page learned by a load its slot no longer waits for (cancelled, or
/// replaced by a refresh) never pends. So at most one page pends at each
/// end, plus the pages of a refresh in flight. A request without a load id
/// (made by a wrapper, not by the pager) is judged by its slot alone: its
/// page pends while its slot loads, and a later page at the same end ends it.
struct PendingPages<Unit: Hashable & Sendable>: Sendable {
    /// The three things that load at once, as `Pager` has them.
    fileprivate enum Slot: Sendable {
        case refresh, next, previous
    }

    fileprivate struct Entry: Sendable {
        let units: Set<Unit>
        let slot: Slot
        /// The version of the pager's snapshot read when it was learned.
        let version: Int
        /// The id of the load at an end that learned it, if known.
        let loadID: Int?
        /// Its units the store changed since it was read.
        var stale: Set<Unit> = []
        /// Its units a connection edit took out of the list since it was read.
        var removed: Set<Unit> = []
    }

    /// What the pages that stopped pending leave to do.
    struct Settled: Sendable {
        /// The units to read again: the store changed them since their page was read.
        var stale: Set<Unit> = []
        /// The units whose rows to remove: a connection edit took them out
        /// since their page was read.
        var removed: Set<Unit> = []

        var isEmpty: Bool { stale.isEmpty && removed.isEmpty }

        fileprivate mutating func add(_ entry: Entry) {
            stale.formUnion(entry.stale.subtracting(entry.removed))
            removed.formUnion(entry.removed)
        }
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
    ///   - request: the request that loaded it.
    ///   - snapshot: the pager's snapshot, read after the page arrived.
    ///   - cancelled: whether the load was cancelled (`Task.isCancelled` in
    ///     the load): the pager will not take its page in.
    /// - Returns: what the pages that stopped pending leave to do.
    /// - Complexity: O(*k*) for the *k* pages pending.
    mutating func arrived<Key>(
        _ units: Set<Unit>, for request: PageRequest<Key>, snapshot: FollowedRowsState, cancelled: Bool
    ) -> Settled {
        var settled = settle(snapshot)
        guard !cancelled, let slot = Self.slot(loading: request.position, in: snapshot.loadStates) else {
            return settled
        }
        if let loadID = request.loadID, Self.loadID(of: slot, in: snapshot.loadIDs) != loadID {
            // A load the pager let go of: its page will not be taken in.
            return settled
        }
        if slot != .refresh {
            // The slot's load is this one: the pages its earlier loads learned
            // were taken in or dropped.
            for entry in entries where entry.slot == slot { settled.add(entry) }
            entries.removeAll { $0.slot == slot }
        }
        entries.append(
            Entry(
                units: units, slot: slot, version: snapshot.version,
                loadID: slot == .refresh ? nil : request.loadID))
        return settled
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

    /// Notes that a connection edit took a unit out of the list: the pending
    /// pages that show it are to lose it once taken in.
    /// - Complexity: O(*k*) for *k* pages pending.
    mutating func removed(_ unit: Unit) {
        for index in entries.indices where entries[index].units.contains(unit) {
            entries[index].removed.insert(unit)
        }
    }

    /// Notes that a connection edit put a unit back in the list: the pending
    /// pages that show it keep it.
    /// - Complexity: O(*k*) for *k* pages pending.
    mutating func restored(_ unit: Unit) {
        for index in entries.indices { entries[index].removed.remove(unit) }
    }

    /// Lets go of the pages the pager can no longer take in, as a snapshot
    /// tells; pages learned from a newer snapshot are kept.
    /// - Parameter snapshot: a snapshot of the pager.
    /// - Returns: what the pages that stopped pending leave to do.
    /// - Complexity: O(*k*) for the *k* pages pending, plus the units returned.
    mutating func settle(_ snapshot: FollowedRowsState) -> Settled {
        var settled = Settled()
        entries.removeAll { entry in
            guard entry.version <= snapshot.version, !Self.isLoading(entry, in: snapshot) else {
                return false
            }
            settled.add(entry)
            return true
        }
        return settled
    }

    /// Whether the load that learned a page may still bring it, as a snapshot tells.
    private static func isLoading(_ entry: Entry, in snapshot: FollowedRowsState) -> Bool {
        if let loadID = entry.loadID { return Self.loadID(of: entry.slot, in: snapshot.loadIDs) == loadID }
        return isLoading(entry.slot, in: snapshot.loadStates)
    }

    private static func loadID(of slot: Slot, in loadIDs: SlotLoadIDs) -> Int? {
        switch slot {
        case .refresh: loadIDs.refresh
        case .next: loadIDs.next
        case .previous: loadIDs.previous
        }
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
