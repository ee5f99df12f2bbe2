/// Decides the separator between two neighbouring items of a list: a date
/// header when the day changes, a letter in a contact list.
///
/// The rule sees each pair of neighbours, across page boundaries:
/// `before` is `nil` above the first item (only once the list's start is
/// reached), `after` is `nil` below the last item (only once its end is
/// reached), and both are `nil` for a list whose both ends are reached with
/// no item. It returns `nil` for no separator.
///
/// The rule must be pure: the same two items give the same separator. A
/// ``SeparatorTransform`` calls it again only when a neighbour loads, is
/// edited, or changes (an item removed between two items makes them
/// neighbours), never for pages not held.
public typealias SeparatorRule<Item, Separator> = @Sendable (_ before: Item?, _ after: Item?) -> Separator?

/// The identity of a row of a list with separators (``SeparatedItems``):
/// an item's id, or, for a separator, the ids of its two neighbours.
///
/// A separator's identity is derived from its neighbours, so that a change
/// set animates it correctly: the separator between the same two items
/// keeps its id, and one between a new pair is a new row.
public enum PagedRowID<ItemID: Hashable & Sendable>: Hashable, Sendable {
    /// The row of the item with this id.
    case item(ItemID)
    /// The separator between the item `before` and the item `after`; `nil`
    /// above the first item or below the last.
    case separator(before: ItemID?, after: ItemID?)
}

/// A row of a list with separators: an item, or the separator between two
/// neighbours.
///
/// ```swift
/// for row in separated.rows {
///     switch row {
///     case .item(let launch): print(launch.mission)
///     case .separator(let year, _, _): print("— \(year) —")
///     }
/// }
/// ```
public enum PagedRow<Item: Identifiable & Sendable, Separator: Sendable>: Identifiable, Sendable
where Item.ID: Sendable {
    /// An item of the list.
    case item(Item)
    /// The separator a ``SeparatorRule`` gave for two neighbours, with
    /// their ids (`nil` above the first item or below the last).
    case separator(Separator, before: Item.ID?, after: Item.ID?)

    /// The row's identity: the item's id, or the ids of the separator's neighbours.
    /// - Complexity: O(1).
    public var id: PagedRowID<Item.ID> {
        switch self {
        case .item(let item): .item(item.id)
        case .separator(_, let before, let after): .separator(before: before, after: after)
        }
    }

    /// The item, for an item row.
    /// - Complexity: O(1).
    public var item: Item? {
        if case .item(let item) = self { return item }
        return nil
    }

    /// The separator, for a separator row.
    /// - Complexity: O(1).
    public var separator: Separator? {
        if case .separator(let separator, _, _) = self { return separator }
        return nil
    }
}
