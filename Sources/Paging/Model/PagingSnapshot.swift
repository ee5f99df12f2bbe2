/// The state of a paged list at one moment: its items, its load states, and
/// what changed since the snapshot before.
///
/// A pager publishes a snapshot on every change (``Pager/snapshots``). A
/// snapshot is a value: it stays valid after later changes, and holding many
/// costs little, as their ``items`` share storage.
public struct PagingSnapshot<Item: Sendable>: Sendable {
    /// The items, in list order.
    public let items: PagedItems<Item>
    /// The load states at both ends and of a refresh.
    public let loadStates: LoadStates
    /// Whether there may be items after the last one: `true` before the first
    /// load, and while pages dropped from the window wait to be loaded again.
    public let hasNext: Bool
    /// Whether there may be items before the first one.
    public let hasPrevious: Bool
    /// What changed in ``items`` since the previous snapshot.
    public let change: ListChange
    /// How many items of the page that caused this snapshot were dropped
    /// because an item with the same id was already held.
    public let duplicatesDropped: Int
    /// The drift the page that caused this snapshot found (``PageDrift``):
    /// the list had moved under the source's keys; `nil` otherwise.
    public let drift: PageDrift?
    /// How many pages found a drift since the pager was made.
    public let driftCount: Int
    /// A number that grows by one with every snapshot of a pager.
    public let version: Int
    /// How many placeholders stand before the first item held: items of the
    /// whole list not loaded there, as the first page held counts them
    /// (``Page/itemsBefore``); 0 without placeholders
    /// (``PagingConfiguration/placeholders``), when the source does not
    /// count, and once the start is reached.
    public let placeholdersBefore: Int
    /// How many placeholders stand after the last item held, likewise
    /// (``Page/itemsAfter``).
    public let placeholdersAfter: Int
    /// What changed in ``presented`` since the previous snapshot: what a
    /// screen that draws placeholders applies to its rows. A page that fills
    /// placeholders, or a window that drops items back into placeholders,
    /// shows as rows updated, so that nothing the screen shows moves; when
    /// the source's counts of the whole list change, rows are inserted or
    /// removed at the ends. Equal to ``change`` without placeholders.
    public let presentedChange: ListChange
    /// The ids of the loads in flight in each slot (`PageRequest.loadID`):
    /// a helper that runs inside a load tells by them whether its load is
    /// still the one its slot waits for, or one the pager has let go of
    /// (cancelled, or replaced by a refresh) whose page it will not take in.
    package var loadIDs = SlotLoadIDs()

    /// Creates a snapshot.
    /// - Parameters:
    ///   - items: the items.
    ///   - loadStates: the load states.
    ///   - hasNext: whether there may be items after the last.
    ///   - hasPrevious: whether there may be items before the first.
    ///   - change: the change of the items from the snapshot before.
    ///   - duplicatesDropped: the items dropped as duplicates.
    ///   - drift: the drift the page found.
    ///   - driftCount: how many pages found a drift.
    ///   - version: the snapshot's version.
    ///   - placeholdersBefore: slots before the items; negative counts as 0,
    ///     and more than 2⁴⁸ as 2⁴⁸.
    ///   - placeholdersAfter: slots after the items, likewise.
    ///   - presentedChange: the change of ``presented``; `change` when `nil`.
    public init(
        items: PagedItems<Item>, loadStates: LoadStates, hasNext: Bool, hasPrevious: Bool,
        change: ListChange = ListChange(), duplicatesDropped: Int = 0, drift: PageDrift? = nil,
        driftCount: Int = 0, version: Int = 0, placeholdersBefore: Int = 0, placeholdersAfter: Int = 0,
        presentedChange: ListChange? = nil
    ) {
        self.placeholdersBefore = PresentedItems<Item>.clampedCount(placeholdersBefore)
        self.placeholdersAfter = PresentedItems<Item>.clampedCount(placeholdersAfter)
        self.presentedChange = presentedChange ?? change
        self.items = items
        self.loadStates = loadStates
        self.hasNext = hasNext
        self.hasPrevious = hasPrevious
        self.change = change
        self.duplicatesDropped = duplicatesDropped
        self.drift = drift
        self.driftCount = driftCount
        self.version = version
    }

    /// The whole list as a screen with placeholders draws it: the items held
    /// between ``placeholdersBefore`` and ``placeholdersAfter`` slots.
    /// - Complexity: O(1).
    public var presented: PresentedItems<Item> {
        PresentedItems(
            items: items, placeholdersBefore: placeholdersBefore, placeholdersAfter: placeholdersAfter)
    }

    /// Whether a load after the last item is in flight.
    public var isLoadingNext: Bool { loadStates.next.isLoading }
    /// Whether a load before the first item is in flight.
    public var isLoadingPrevious: Bool { loadStates.previous.isLoading }
    /// Whether the first load or a refresh is in flight.
    public var isRefreshing: Bool { loadStates.refresh.isLoading }
}

/// The id of the load in flight in each of a pager's slots, if any.
package struct SlotLoadIDs: Sendable, Equatable {
    /// The first load, a restart, or a refresh (every page of a refetch).
    package var refresh: Int?
    /// The load after the last page.
    package var next: Int?
    /// The load before the first page.
    package var previous: Int?

    package init(refresh: Int? = nil, next: Int? = nil, previous: Int? = nil) {
        self.refresh = refresh
        self.next = next
        self.previous = previous
    }
}
