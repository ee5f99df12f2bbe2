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

    /// The same page with its items transformed and its keys kept.
    /// - Complexity: O(*n*), where *n* is the number of items of the page.
    public func mapItems<T: Sendable>(_ transform: ([Item]) throws -> [T]) rethrows -> Page<Key, T> {
        var page = Page<Key, T>(items: try transform(items), previousKey: previousKey, nextKey: nextKey)
        page.drift = drift
        return page
    }
}

extension Page: Equatable where Item: Equatable {}
extension Page: Hashable where Item: Hashable {}
