/// A page in the shape of the Apollo iOS tutorial's `LaunchConnection`: the
/// items, a cursor to continue from, and whether more exist.
public struct HasMorePage<Cursor: Hashable & Sendable, Item: Sendable>: Sendable {
    /// The items of the page.
    public var items: [Item]
    /// Where the next page starts.
    public var cursor: Cursor?
    /// Whether items follow this page.
    public var hasMore: Bool

    /// Creates a page.
    public init(items: [Item], cursor: Cursor?, hasMore: Bool) {
        self.items = items
        self.cursor = cursor
        self.hasMore = hasMore
    }
}

/// Pages forward through an API that returns a cursor and a `hasMore` flag,
/// like the Apollo tutorial's `launches(pageSize:after:)`.
///
/// ```swift
/// let source = HasMoreCursorSource<String, Launch> { pageSize, cursor in
///     let data = try await client.fetch(LaunchListQuery(pageSize: pageSize, cursor: cursor))
///     return HasMorePage(items: data.launches.launches, cursor: data.launches.cursor,
///                        hasMore: data.launches.hasMore)
/// }
/// ```
///
/// The next key is the returned cursor while `hasMore` is true. The source
/// pages forward only.
public struct HasMoreCursorSource<Cursor: Hashable & Sendable, Item: Sendable>: PageSource {
    private let fetch: @Sendable (_ pageSize: Int, _ after: Cursor?) async throws -> HasMorePage<Cursor, Item>

    /// Creates a source.
    /// - Parameter fetch: loads up to `pageSize` items after a cursor (`nil`
    ///   for the first page).
    public init(
        fetch:
            @escaping @Sendable (_ pageSize: Int, _ after: Cursor?) async throws -> HasMorePage<Cursor, Item>
    ) {
        self.fetch = fetch
    }

    /// The page for a response: the next key is the cursor while `hasMore`.
    /// - Throws: ``PagingError`` with code ``PagingError/Code/invalidPage``
    ///   when `hasMore` is true but no cursor says where more items start: a
    ///   backend bug that would otherwise look like the end of the list.
    public static func page(from response: HasMorePage<Cursor, Item>) throws(PagingError) -> Page<
        Cursor, Item
    > {
        guard response.hasMore else { return Page(items: response.items, previousKey: nil, nextKey: nil) }
        guard let cursor = response.cursor else {
            throw .invalidPage("the page says hasMore is true but has no cursor to load more from")
        }
        return Page(items: response.items, previousKey: nil, nextKey: cursor)
    }

    /// Loads a page.
    /// - Throws: what `fetch` throws, or ``PagingError`` for a page with
    ///   `hasMore` but no cursor, or for a request before the first page (this
    ///   source pages forward only).
    public func load(_ request: PageRequest<Cursor>) async throws -> Page<Cursor, Item> {
        switch request.position {
        case .initial(let cursor):
            return try Self.page(from: try await fetch(request.count, cursor))
        case .next(let cursor):
            return try Self.page(from: try await fetch(request.count, cursor))
        case .previous:
            throw PagingError.invalidArgument(
                "HasMoreCursorSource pages forward only; it cannot load \(request)")
        }
    }
}
