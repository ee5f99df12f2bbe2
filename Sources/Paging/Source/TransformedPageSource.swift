/// A page source whose pages are transformed as they load: each page once,
/// never again over all pages.
///
/// Made by ``PageSource/map(_:)``, ``PageSource/filter(_:)``,
/// ``PageSource/compactMap(_:)`` and ``PageSource/mapPages(_:)``:
///
/// ```swift
/// let rows = LaunchesSource()
///     .filter { $0.site != nil }
///     .map { LaunchRow($0) }
/// let pager = Pager(source: rows)
/// ```
///
/// A filtered page may hold fewer items than asked for, or none; its keys
/// are kept, so paging goes on past it.
///
/// A transform changes the items, so it keeps the default
/// ``PageSource/prepared(for:)`` and does not hand the pager to its base:
/// whatever the base keeps for each pager does not pass through it. A pager
/// over a transformed store-backed source of PagingGraphQL loads its pages
/// but does not follow the store; decode the nodes into the type the list
/// shows instead, or use `GraphQLQuerySource`'s transform, which follows it.
public struct TransformedPageSource<Base: PageSource, Item: Sendable>: PageSource {
    /// The base source's key.
    public typealias Key = Base.Key

    private let base: Base
    private let transform: @Sendable ([Base.Item]) throws -> [Item]

    /// Creates a source that transforms each page of `base`.
    /// - Parameters:
    ///   - base: the source of the pages.
    ///   - transform: turns the items of one page into the items shown.
    public init(_ base: Base, transform: @escaping @Sendable ([Base.Item]) throws -> [Item]) {
        self.base = base
        self.transform = transform
    }

    /// Loads a page of the base source and transforms its items.
    /// - Complexity: that of the base load, plus the transform of one page.
    public func load(_ request: PageRequest<Key>) async throws -> Page<Key, Item> {
        try await base.load(request).mapItems(transform)
    }
}

extension PageSource {
    /// A source whose items are transformed one by one, as each page loads.
    /// - Parameter transform: turns an item into the item shown.
    /// - Returns: the transformed source.
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Item) throws -> T)
        -> TransformedPageSource<Self, T>
    {
        TransformedPageSource(self) { try $0.map(transform) }
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
