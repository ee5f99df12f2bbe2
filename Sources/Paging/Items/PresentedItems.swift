/// The whole list as a screen draws it when its size is known: slots for
/// the items not loaded (placeholders) around the items held.
///
/// Indexes are positions in the whole list: the items held sit at
/// ``heldRange``; every other index is a placeholder, which a list draws as
/// a skeleton row. Reading an index never loads anything.
///
/// ```swift
/// ForEach(list.presented.indices, id: \.self) { index in
///     if let launch = list.presented[index] {
///         LaunchRow(launch)
///     } else {
///         LaunchRow.placeholder.redacted(reason: .placeholder)
///     }
/// }
/// ```
public struct PresentedItems<Item: Sendable>: RandomAccessCollection, Sendable {
    /// The items held, in order.
    public let items: PagedItems<Item>
    /// How many slots stand above the items held.
    public let placeholdersBefore: Int
    /// How many slots stand below the items held.
    public let placeholdersAfter: Int

    /// A presentation of held items between two runs of placeholders.
    /// - Parameters:
    ///   - items: the items held.
    ///   - placeholdersBefore: the slots above them; a negative count is taken
    ///     as 0, and one past 2⁴⁸ as 2⁴⁸.
    ///   - placeholdersAfter: the slots below them, likewise.
    public init(items: PagedItems<Item>, placeholdersBefore: Int = 0, placeholdersAfter: Int = 0) {
        self.items = items
        self.placeholdersBefore = Self.clampedCount(placeholdersBefore)
        self.placeholdersAfter = Self.clampedCount(placeholdersAfter)
    }

    /// The largest count of placeholders on a side: 2⁴⁸, so that a count from outside (a page's
    /// ``Page/itemsBefore``) cannot make a sum of counts overflow.
    static var largestCount: Int { 1 << 48 }

    /// A count of placeholders within `0 ... largestCount`.
    static func clampedCount(_ count: Int) -> Int { Swift.min(Swift.max(0, count), largestCount) }

    /// An empty list with no placeholder.
    public init() {
        self.init(items: PagedItems())
    }

    /// The first position: 0.
    public var startIndex: Int { 0 }

    /// One past the last position: every item held and every placeholder.
    /// - Complexity: O(1).
    public var endIndex: Int { placeholdersBefore + items.count + placeholdersAfter }

    /// The item at a position, or `nil` for a placeholder.
    /// - Complexity: O(log *p*) for *p* pages held.
    public subscript(position: Int) -> Item? {
        heldIndex(forPresented: position).map { items[$0] }
    }

    /// The positions of the items held.
    /// - Complexity: O(1).
    public var heldRange: Range<Int> { placeholdersBefore..<(placeholdersBefore + items.count) }

    /// Whether the slot at a position is a placeholder.
    /// - Complexity: O(1).
    public func isPlaceholder(at position: Int) -> Bool {
        indices.contains(position) && !heldRange.contains(position)
    }

    /// The index in ``items`` of the item at a position; `nil` for a
    /// placeholder or a position out of range.
    /// - Complexity: O(1).
    public func heldIndex(forPresented position: Int) -> Int? {
        heldRange.contains(position) ? position - placeholdersBefore : nil
    }

    /// The position of the item at an index of ``items``.
    /// - Complexity: O(1).
    public func presentedIndex(forHeld index: Int) -> Int {
        placeholdersBefore + index
    }

    /// How far a position is from the items held: 0 for an item held, the
    /// number of slots between it and the nearest held item otherwise plus
    /// one; with nothing held, its distance from where they would start
    /// (``placeholdersBefore``) plus one.
    /// - Complexity: O(1).
    public func distanceFromHeld(_ position: Int) -> Int {
        if heldRange.contains(position) { return 0 }
        if items.isEmpty { return abs(position - placeholdersBefore) + 1 }
        return position < heldRange.lowerBound
            ? heldRange.lowerBound - position : position - heldRange.upperBound + 1
    }
}
