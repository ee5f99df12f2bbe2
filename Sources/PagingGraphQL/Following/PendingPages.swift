import Paging

/// The pages a store follower has learned that its pager may still take in.
///
/// A follower learns a page while it loads, before the pager holds its
/// items, so its sweep of the rows the pager no longer holds must spare
/// these pages: with loads in flight at both ends, the page one load
/// learned waits to be taken in while the other load's page is learned and
/// the sweep runs; a refresh collects every page it refetches before it
/// swaps them in. A page stops pending once the pager can no longer take
/// it in:
/// - its slot (the refresh, or the load at its end) is no longer loading:
///   the pager took the page in, or dropped it with a cancelled or failed
///   load;
/// - a later page arrived at the same end: the pager runs one load at a time
///   at each end, so the earlier page's load had ended when the later began.
///
/// A page learned by a cancelled load never pends. So at most one page
/// pends at each end, plus the pages of a refresh in flight.
struct PendingPages<Page: Sendable>: Sendable {
    /// The three things that load at once, as `Pager` has them.
    private enum Slot {
        case refresh, next, previous
    }

    private var pending: [(page: Page, slot: Slot)] = []

    /// The pages the pager may still take in, oldest first.
    var pages: [Page] { pending.map(\.page) }

    /// Notes that a page arrived, and lets go of the pages the pager can no
    /// longer take in.
    /// - Parameters:
    ///   - page: what the follower spares for the page.
    ///   - position: the position of the request that loaded it.
    ///   - loadStates: the pager's load states, read after the page arrived
    ///     and after every page pending arrived (under the follower's lock).
    ///   - cancelled: whether the load was cancelled (`Task.isCancelled` in
    ///     the load): the pager will not take its page in.
    /// - Complexity: O(*k*) for the *k* pages pending.
    mutating func arrived<Key>(
        _ page: Page, for position: PageRequest<Key>.Position, loadStates: LoadStates, cancelled: Bool
    ) {
        pending.removeAll { !Self.isLoading($0.slot, in: loadStates) }
        guard !cancelled, let slot = Self.slot(loading: position, in: loadStates) else { return }
        if slot != .refresh { pending.removeAll { $0.slot == slot } }
        pending.append((page, slot))
    }

    /// The slot that loads a request now, or `nil` when none does (the
    /// request's load is over: its page is stale).
    private static func slot<Key>(loading position: PageRequest<Key>.Position, in loadStates: LoadStates)
        -> Slot?
    {
        // Nothing else loads during a refresh, which asks for its first page
        // at any position (the first held page's request) and for the
        // others at `next`; the first load is a refresh too.
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
