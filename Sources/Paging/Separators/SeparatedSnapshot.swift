/// A pager's snapshot with its rows: the items and the separators a
/// ``SeparatorRule`` puts between them, and what changed in the rows.
///
/// ``SeparatorTransform/apply(_:)`` makes one from each ``PagingSnapshot``.
public struct SeparatedSnapshot<Item: Identifiable & Sendable, Separator: Sendable>: Sendable
where Item.ID: Sendable {
    /// The pager's snapshot the rows were made from: its items, load states
    /// and item-level change.
    public let snapshot: PagingSnapshot<Item>
    /// The rows: every item held, and the separators between them.
    public let rows: SeparatedItems<Item, Separator>
    /// What changed in ``rows`` since the rows the transform made before,
    /// as row indices: what a table or collection view animates. A separator
    /// whose value changed between the same two neighbours is updated; one
    /// between a new pair of neighbours is inserted.
    public let change: ListChange
    /// How many times the rule was called to make these rows.
    public let ruleCalls: Int
}
