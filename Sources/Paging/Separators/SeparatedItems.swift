/// The rows of a list with separators: the items a pager holds, in order,
/// and the separators a ``SeparatorRule`` puts between neighbours.
///
/// A `SeparatedItems` value never copies the items: its rows are kept page
/// for page beside the pages of ``items`` and read each item from there,
/// and it shares its storage with the rows made before it, as
/// ``PagedItems`` does.
///
/// Row indices run from `0` to `count`. A separator sits in the row just
/// before the item below it; the separator below the last item (once the
/// list's end is reached) is the last row.
///
/// - Complexity: `count` is O(1); subscripting and the index mappings are
///   O(log *p*) for *p* pages held (``rowIndex(forItem:)``: O(log *p* +
///   log *m*) for pages of *m* items).
public struct SeparatedItems<Item: Identifiable & Sendable, Separator: Sendable>: RandomAccessCollection,
    Sendable
where Item.ID: Sendable {
    /// The items, in list order: the rows without their separators.
    public let items: PagedItems<Item>
    /// The rows of each page, leaf for leaf with `items`: for each item, the
    /// separator above it (if any), then the item.
    let slots: PagedItems<RowSlot<Item.ID, Separator>>
    /// The separator below the last item, or of a list with no item; the last row.
    let trailing: SeparatorBox<Item.ID, Separator>?
    /// Whether the list's start was reached: the first item has a gap above it.
    let startReached: Bool
    /// Whether the list's end was reached: the last item has a gap below it.
    let endReached: Bool

    init(
        items: PagedItems<Item>, slots: PagedItems<RowSlot<Item.ID, Separator>>,
        trailing: SeparatorBox<Item.ID, Separator>?, startReached: Bool, endReached: Bool
    ) {
        self.items = items
        self.slots = slots
        self.trailing = trailing
        self.startReached = startReached
        self.endReached = endReached
    }

    /// No row.
    /// - Complexity: O(1).
    public init() {
        self.init(
            items: PagedItems(), slots: PagedItems(), trailing: nil, startReached: false, endReached: false)
    }

    /// The position of the first row: always 0.
    /// - Complexity: O(1).
    public var startIndex: Int { 0 }

    /// One past the position of the last row: the number of rows.
    /// - Complexity: O(1).
    public var endIndex: Int { slots.count + (trailing == nil ? 0 : 1) }

    /// The row at a position.
    /// - Parameter position: a valid index, `0 ..< count`.
    /// - Complexity: O(log *p*) for *p* pages held.
    public subscript(position: Int) -> PagedRow<Item, Separator> {
        precondition(position >= 0 && position < endIndex, "row \(position) out of range 0..<\(endIndex)")
        guard let root = slots.root, position < root.count else {
            guard let trailing else { preconditionFailure("no trailing row") }
            return trailing.row()
        }
        let (leaf, ordinal, first) = root.leaf(containing: position)
        switch leaf.items[position - first] {
        case .item(let offset):
            guard let items = items.root else { preconditionFailure("rows without items") }
            return .item(items.leaf(at: ordinal).leaf.items[offset])
        case .separator(let box):
            return box.row()
        }
    }

    /// The index in ``items`` of the item in a row, or `nil` for a separator.
    /// - Parameter row: a valid row index, `0 ..< count`.
    /// - Complexity: O(log *p*) for *p* pages held.
    public func itemIndex(forRow row: Int) -> Int? {
        precondition(row >= 0 && row < endIndex, "row \(row) out of range 0..<\(endIndex)")
        guard let root = slots.root, row < root.count, let items = items.root else { return nil }
        let (leaf, ordinal, first) = root.leaf(containing: row)
        guard case .item(let offset) = leaf.items[row - first] else { return nil }
        return items.leaf(at: ordinal).firstIndex + offset
    }

    /// The row of an item.
    /// - Parameter index: a valid index of ``items``, `0 ..< items.count`.
    /// - Complexity: O(log *p* + log *m*) for *p* pages of *m* items held.
    public func rowIndex(forItem index: Int) -> Int {
        precondition(index >= 0 && index < items.count, "item \(index) out of range 0..<\(items.count)")
        guard let items = items.root, let root = slots.root else { preconditionFailure("rows without items") }
        let (_, ordinal, first) = items.leaf(containing: index)
        let (leaf, firstRow) = root.leaf(at: ordinal)
        return firstRow + Self.position(ofItem: index - first, in: leaf.items)
    }

    /// The position, among a page's slots, of the item with the given offset in its page.
    /// Every separator slot is followed by an item slot, so the slots before the item with
    /// offset *j* are *j* items and at most *j* + 1 separators.
    /// - Complexity: O(log *m*).
    static func position(ofItem offset: Int, in slots: [RowSlot<Item.ID, Separator>]) -> Int {
        // Slots in order have increasing keys: 2j + 1 for item j, 2j for the separator above it.
        let wanted = 2 * offset + 1
        var low = offset
        var high = Swift.min(2 * offset + 1, slots.count - 1)
        while low < high {
            let middle = (low + high) / 2
            if Self.key(at: middle, in: slots) < wanted { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The key of a slot: 2j + 1 for the item with offset j, 2j for the separator above it.
    private static func key(at position: Int, in slots: [RowSlot<Item.ID, Separator>]) -> Int {
        switch slots[position] {
        case .item(let offset): 2 * offset + 1
        case .separator: Self.key(at: position + 1, in: slots) - 1
        }
    }
}

extension SeparatedItems {
    /// The number of rows of the pages, the trailing separator aside.
    var pageRowCount: Int { slots.count }

    /// The separator above the item at `index`, or the trailing one for `index == items.count`.
    /// - Complexity: O(log *p* + log *m*).
    func separator(aboveItem index: Int) -> SeparatorBox<Item.ID, Separator>? {
        guard index < items.count else { return trailing }
        return separator(atRow: rowIndex(forItem: index) - 1)
    }

    /// The separator in a row of the pages, or `nil` for an item or a row before the first.
    /// - Complexity: O(log *p*).
    private func separator(atRow row: Int) -> SeparatorBox<Item.ID, Separator>? {
        guard row >= 0, let root = slots.root else { return nil }
        let (leaf, _, first) = root.leaf(containing: row)
        if case .separator(let box) = leaf.items[row - first] { return box }
        return nil
    }

    /// The first row of the gap above the item at `index`: its separator's, or the item's own
    /// when it has none. `items.count` stands for the gap below the last item (the trailing row).
    /// - Complexity: O(log *p* + log *m*).
    func gapStart(_ index: Int) -> Int {
        guard index < items.count else { return pageRowCount }
        let row = rowIndex(forItem: index)
        return separator(atRow: row - 1) == nil ? row : row - 1
    }

    /// The row of the item at `index`, or, for `items.count`, one past the last row.
    /// - Complexity: O(log *p* + log *m*).
    func rowOrEnd(ofItem index: Int) -> Int {
        index < items.count ? rowIndex(forItem: index) : endIndex
    }
}

/// A row of a page of ``SeparatedItems``: an item, by its offset in its page
/// (the item itself is read from the items, never copied), or a separator.
enum RowSlot<ItemID: Hashable & Sendable, Separator: Sendable>: Sendable {
    case item(Int)
    case separator(SeparatorBox<ItemID, Separator>)
}

/// A separator and its neighbours' ids, shared by every version of the rows that holds it.
final class SeparatorBox<ItemID: Hashable & Sendable, Separator: Sendable>: Sendable {
    let value: Separator
    let before: ItemID?
    let after: ItemID?

    init(_ value: Separator, before: ItemID?, after: ItemID?) {
        self.value = value
        self.before = before
        self.after = after
    }

    func row<Item: Identifiable & Sendable>() -> PagedRow<Item, Separator> where Item.ID == ItemID {
        .separator(value, before: before, after: after)
    }
}
