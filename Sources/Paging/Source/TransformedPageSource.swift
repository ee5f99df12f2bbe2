/// A page source whose pages are transformed as they load: each page once,
/// never again over all pages.
///
/// Made by `map(_:)`, `filter(_:)`,
/// `compactMap(_:)` and ``PageSource/mapPages(_:)``:
///
/// ```swift
/// let rows = LaunchesSource()
///     .filter { $0.site != nil }
///     .map { LaunchRow($0) }
/// let pager = Pager(source: rows)
/// ```
///
/// A filtered page may hold fewer items than asked for, or none; its keys
/// are kept, so paging goes on past it. Its counts of the items around it
/// (``Page/itemsBefore``, ``Page/itemsAfter``) are kept by `map(_:)` only:
/// a filter changes what the whole list counts, so the pages of any other
/// transform count nothing.
///
/// Following a store: a pager over a transformed store-backed source of
/// PagingGraphQL follows the store through `map(_:)`, `filter(_:)` and
/// `compactMap(_:)` when the items shown keep the identities of the base's
/// (`T.ID == Item.ID`, as a row type made of a node usually does): a changed
/// record is transformed again and its row updated, and a row whose item no
/// longer passes a filter is removed. A transform of whole pages
/// (``mapPages(_:)``), or one that changes identities, loads its pages but
/// does not follow the store (its rows cannot be told from the base's
/// items); decode the nodes into the type the list shows instead, or use
/// `GraphQLQuerySource`'s transform, which follows it.
public struct TransformedPageSource<Base: PageSource, Item: Sendable>: PageSource {
    /// The base source's key.
    public typealias Key = Base.Key

    private let base: Base
    private let transform: @Sendable ([Base.Item]) throws -> [Item]
    /// What the base is lent of a load: the pager's rows seen through the
    /// transform, for a transform item by item that keeps identities;
    /// `nil` when the rows cannot be seen so.
    private let lens: (@Sendable (PagerLoadContext) -> PagerLoadContext?)?
    /// Whether the pages keep the base's counts of the items around them (`map(_:)`: one item
    /// shown for each item of the base).
    private var keepsCounts = false

    /// Creates a source that transforms each page of `base`.
    /// - Parameters:
    ///   - base: the source of the pages.
    ///   - transform: turns the items of one page into the items shown.
    public init(_ base: Base, transform: @escaping @Sendable ([Base.Item]) throws -> [Item]) {
        self.init(base, transform: transform, lens: nil)
    }

    private init(
        _ base: Base, transform: @escaping @Sendable ([Base.Item]) throws -> [Item],
        lens: (@Sendable (PagerLoadContext) -> PagerLoadContext?)?
    ) {
        self.base = base
        self.transform = transform
        self.lens = lens
    }

    /// Loads a page of the base source and transforms its items.
    ///
    /// The base is not told the held items next to the page
    /// (``PageRequest/heldBefore``): they are items after the transform, which
    /// may have left some of the base's out, so a base that checks its keys
    /// against them (an ``OffsetSource``) does not.
    /// - Complexity: that of the base load, plus the transform of one page.
    public func load(_ request: PageRequest<Key>) async throws -> Page<Key, Item> {
        var request = request
        request.heldBefore = []
        request.heldAfter = []
        if let load = request.load {
            // Without a view of the rows, the base keeps what it keeps for
            // the pager but sees no rows to follow.
            request.load = lens?(load) ?? PagerLoadContext(attachments: load.attachments, rows: ())
        }
        var page = try await base.load(request).mapItems(transform)
        if !keepsCounts {
            page.itemsBefore = nil
            page.itemsAfter = nil
        }
        return page
    }

    /// The same source, its pages keeping the base's counts of the items around them.
    fileprivate func keepingCounts() -> Self {
        var source = self
        source.keepsCounts = true
        return source
    }
}

extension TransformedPageSource
where Base.Item: Identifiable, Item: Identifiable, Base.Item.ID == Item.ID, Item.ID: Sendable {
    /// A source that transforms its base item by item, keeping identities:
    /// a pager over it follows what its base follows.
    /// - Parameters:
    ///   - base: the source of the pages.
    ///   - each: turns an item into the item shown, or `nil` to leave it out.
    init(_ base: Base, each: @escaping @Sendable (Base.Item) throws -> Item?) {
        self.init(
            base, transform: { try $0.compactMap(each) },
            lens: { load in
                guard let rows = load.rows(of: Item.self) else { return nil }
                return PagerLoadContext(
                    attachments: load.attachments,
                    rows: TransformedRows<Base.Item, Item>(rows: rows, transform: each))
            })
    }
}

extension PageSource {
    /// A source whose items are transformed one by one, as each page loads.
    /// - Parameter transform: turns an item into the item shown.
    /// - Returns: the transformed source.
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Item) throws -> T)
        -> TransformedPageSource<Self, T>
    {
        TransformedPageSource(self) { try $0.map(transform) }.keepingCounts()
    }

    /// A source that keeps only the items that satisfy a predicate, as each
    /// page loads.
    /// - Parameter isIncluded: whether to keep an item.
    /// - Returns: the filtered source.
    public func filter(_ isIncluded: @escaping @Sendable (Item) throws -> Bool) -> TransformedPageSource<
        Self, Item
    > {
        TransformedPageSource(self) { try $0.filter(isIncluded) }
    }

    /// A source whose items are transformed, dropping those that transform to
    /// `nil`, as each page loads.
    /// - Parameter transform: turns an item into the item shown, or `nil`.
    /// - Returns: the transformed source.
    public func compactMap<T: Sendable>(
        _ transform: @escaping @Sendable (Item) throws -> T?
    ) -> TransformedPageSource<Self, T> {
        TransformedPageSource(self) { try $0.compactMap(transform) }
    }

    /// A source whose pages are transformed whole, as each loads.
    /// - Parameter transform: turns the items of one page into the items shown.
    /// - Returns: the transformed source.
    public func mapPages<T: Sendable>(
        _ transform: @escaping @Sendable ([Item]) throws -> [T]
    ) -> TransformedPageSource<Self, T> {
        TransformedPageSource(self, transform: transform)
    }
}

extension PageSource where Item: Identifiable, Item.ID: Sendable {
    /// A source whose items are transformed one by one, as each page loads,
    /// into items with the same identities: a pager over it follows what
    /// this source follows (a store, for PagingGraphQL's sources), each
    /// changed item transformed again.
    /// - Parameter transform: turns an item into the item shown, with the same `id`.
    /// - Returns: the transformed source.
    public func map<T: Identifiable & Sendable>(_ transform: @escaping @Sendable (Item) throws -> T)
        -> TransformedPageSource<Self, T> where T.ID == Item.ID
    {
        TransformedPageSource(self, each: { try transform($0) }).keepingCounts()
    }

    /// A source that keeps only the items that satisfy a predicate, as each
    /// page loads: a pager over it follows what this source follows, and an
    /// item that stops satisfying the predicate leaves the list.
    /// - Parameter isIncluded: whether to keep an item.
    /// - Returns: the filtered source.
    public func filter(_ isIncluded: @escaping @Sendable (Item) throws -> Bool) -> TransformedPageSource<
        Self, Item
    > {
        TransformedPageSource(self, each: { try isIncluded($0) ? $0 : nil })
    }

    /// A source whose items are transformed, dropping those that transform
    /// to `nil`, into items with the same identities: a pager over it
    /// follows what this source follows, and an item that transforms to
    /// `nil` after a change leaves the list.
    /// - Parameter transform: turns an item into the item shown, or `nil`.
    /// - Returns: the transformed source.
    public func compactMap<T: Identifiable & Sendable>(
        _ transform: @escaping @Sendable (Item) throws -> T?
    ) -> TransformedPageSource<Self, T> where T.ID == Item.ID {
        TransformedPageSource(self, each: transform)
    }
}
