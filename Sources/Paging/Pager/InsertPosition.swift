/// Where ``Pager/insert(_:at:)`` puts an item.
public enum InsertPosition<ID: Hashable & Sendable>: Sendable, Hashable {
    /// Before the first item held.
    case first
    /// After the last item held.
    case last
    /// Just before the item with this id.
    case before(ID)
    /// Just after the item with this id.
    case after(ID)
}
