/// An item a view keeps its place on (the row selected, the row being
/// read), followed through the changes of the snapshots it shows: its new
/// index when it stays or moved; once it leaves the list, the item that now
/// stands where it stood (the next one, or the last when it was at the end).
///
/// ``PagedList/anchor`` is one. A view of its own, which applies a pager's
/// snapshots one after the other, keeps its selection on the item the user
/// picked while items arrive above it:
///
/// ```swift
/// var selected = ListAnchor<Launch>()
/// selected.point(at: launch.id, index: row)
/// // for each snapshot, in order:
/// selected.follow(snapshot.change, to: snapshot.items)
/// row = selected.index ?? 0
/// ```
public struct ListAnchor<Item: Identifiable & Sendable>: Sendable where Item.ID: Sendable {
    /// The anchor's id; `nil` before ``point(at:index:)``, or once the list
    /// is empty.
    public private(set) var id: Item.ID?
    /// Its index in the items shown; `nil` when not known.
    public private(set) var index: Int?

    /// An anchor on nothing yet.
    public init() {}

    /// Makes an item the anchor.
    /// - Parameters:
    ///   - id: the item's id.
    ///   - index: its index in the items shown, when known.
    /// - Complexity: O(1).
    public mutating func point(at id: Item.ID, index: Int?) {
        self.id = id
        self.index = index
    }

    /// Follows the anchor through a change to the new items: its new index
    /// if it stays (or moved: removed and inserted again); else the item that
    /// now stands where it stood. The change must be the one from the items
    /// the anchor was last placed in (``PagingSnapshot/change`` of the next
    /// version); one that is not is caught by looking the item up.
    /// - Parameters:
    ///   - change: the change from the items before to `items`.
    ///   - items: the items after it.
    /// - Complexity: O(*r* + *k*) for *r* ranges and *k* items inserted;
    ///   O(*n*) for a change out of step with the items.
    public mutating func follow(_ change: ListChange, to items: PagedItems<Item>) {
        guard let id, let index, !change.isEmpty else { return }
        if items.isEmpty {
            self.id = nil
            self.index = nil
            return
        }
        let removed = change.removed.contains { $0.contains(index) }
        // Its place once the removals are applied: the rows removed before it are gone.
        var place =
            index - change.removed.reduce(0) { $0 + max(0, min($1.upperBound, index) - $1.lowerBound) }
        if removed {
            // Moved: inserted again elsewhere.
            for range in change.inserted {
                if let moved = range.first(where: { items[$0].id == id }) {
                    self.index = moved
                    return
                }
            }
        }
        for range in change.inserted where range.lowerBound <= place { place += range.count }
        place = min(place, items.count - 1)
        if !removed, items[place].id != id, let found = items.firstIndex(where: { $0.id == id }) {
            // Out of step with the changes: look it up rather than give it up.
            self.index = found
            return
        }
        self.index = place
        if items[place].id != id { self.id = items[place].id }
    }
}
