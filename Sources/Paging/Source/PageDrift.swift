/// A list that moved under a source's keys between two loads, as the source
/// found it: items added or removed above the place an offset or a page
/// number stands for, so that the next page would have started somewhere
/// else than right after the last item held.
///
/// Keys that count items (offsets, page numbers) drift when the list changes
/// above them: each item removed above makes the next page skip one, each
/// item added repeats one. An ``OffsetSource`` asks every page with one item
/// of overlap, the last item held, and checks it; a ``PageNumberSource``
/// checks its page against the items held before it. When they differ, the
/// source finds where the held items end within a bounded window and starts
/// the page right after it (``resynchronized``), and says so in the page
/// (``Page/drift``); the pager passes it on in its snapshot
/// (``PagingSnapshot/drift``, ``PagingSnapshot/driftCount``), for an app to
/// log.
public struct PageDrift: Sendable, Hashable, CustomStringConvertible {
    /// The direction of the load that found it.
    public var direction: LoadDirection
    /// How far from where its key said the page starts (after the held
    /// items; backward, where it ends): positive when items were added
    /// before the held ones' end (in list order), negative when removed (the
    /// last held item itself, for one); `nil` when the place was not found.
    public var shift: Int?
    /// Whether the page starts right where the held items end, as it would
    /// have had the list not moved: nothing skipped, nothing repeated. When
    /// `false`, the place was not found within the window the source looks
    /// in (the items it looked for were removed, or moved farther): items
    /// may be missing between the held ones and the page, until a refresh.
    public var resynchronized: Bool

    /// Creates a drift report.
    public init(direction: LoadDirection, shift: Int?, resynchronized: Bool) {
        self.direction = direction
        self.shift = shift
        self.resynchronized = resynchronized
    }

    /// For logs: "drift after the last item: 2 removed before it, resynchronized".
    public var description: String {
        let side = direction == .previous ? "before the first item" : "after the last item"
        let moved: String
        if let shift {
            moved =
                shift > 0 ? "\(shift) added before it" : shift < 0 ? "\(-shift) removed before it" : "moved"
        } else {
            moved = "its place not found"
        }
        return "drift \(side): \(moved), \(resynchronized ? "resynchronized" : "not resynchronized")"
    }
}
