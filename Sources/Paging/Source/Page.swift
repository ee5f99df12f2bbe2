/// A page a ``PageSource`` returns: its items, in list order, and the keys of
/// its neighbours.
///
/// A `nil` key means that end of the list is reached. The pager asks for the
/// page after this one with `.next(after: nextKey)` and for the page before it
/// with `.previous(before: previousKey)`.
public struct Page<Key: Hashable & Sendable, Item: Sendable>: Sendable {
    /// The items of the page, in the order the list shows them.
    public var items: [Item]
    /// The key of the page before this one, or `nil` at the start of the list.
    public var previousKey: Key?
    /// The key of the page after this one, or `nil` at the end of the list.
    public var nextKey: Key?
    /// What the source found when it checked that the list did not move
    /// under its keys since the page before loaded: `nil` when it did not
    /// move, or when the source does not check. See ``PageDrift``.
    public var drift: PageDrift?
    /// How many items of the whole list stand before this page, when the
    /// source knows (an offset API: the page's offset); `nil` when unknown.
    /// A pager with placeholders (``PagingConfiguration/placeholders``)
    /// shows that many slots above its first page while more can load there.
    public var itemsBefore: Int?
    /// How many items of the whole list stand after this page, when the
    /// source knows (an offset API with a total count: the total less the
    /// page's end); `nil` when unknown.
    public var itemsAfter: Int?

    /// Creates a page.
    /// - Parameters:
    ///   - items: the items, in list order.
    ///   - previousKey: the key of the page before, `nil` at the start.
    ///   - nextKey: the key of the page after, `nil` at the end.
    public init(items: [Item], previousKey: Key? = nil, nextKey: Key? = nil) {
        self.items = items
        self.previousKey = previousKey
        self.nextKey = nextKey
    }

    /// Creates a page that knows where it stands in the whole list.
    /// - Parameters:
    ///   - items: the items, in list order.
    ///   - previousKey: the key of the page before, `nil` at the start.
    ///   - nextKey: the key of the page after, `nil` at the end.
    ///   - itemsBefore: how many items stand before it; negative counts as 0.
    ///   - itemsAfter: how many items stand after it; negative counts as 0.
    public init(
        items: [Item], previousKey: Key? = nil, nextKey: Key? = nil, itemsBefore: Int?, itemsAfter: Int?
    ) {
        self.init(items: items, previousKey: previousKey, nextKey: nextKey)
        self.itemsBefore = itemsBefore.map { max(0, $0) }
        self.itemsAfter = itemsAfter.map { max(0, $0) }
    }

    /// The same page with its items transformed and its keys kept. Its
    /// counts of the items around it (``itemsBefore``, ``itemsAfter``) are
    /// kept when the transform kept the number of items, and become unknown
    /// otherwise: a filter over pages changes what the whole list counts.
    /// - Complexity: O(*n*), where *n* is the number of items of the page.
    public func mapItems<T: Sendable>(_ transform: ([Item]) throws -> [T]) rethrows -> Page<Key, T> {
        var page = Page<Key, T>(items: try transform(items), previousKey: previousKey, nextKey: nextKey)
        page.drift = drift
        if page.items.count == items.count {
            page.itemsBefore = itemsBefore
            page.itemsAfter = itemsAfter
        }
        return page
    }
}

extension Page: Equatable where Item: Equatable {}
extension Page: Hashable where Item: Hashable {}
