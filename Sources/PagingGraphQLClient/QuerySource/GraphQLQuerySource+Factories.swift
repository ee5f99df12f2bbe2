import Paging

// Factories in the spirit of Apollo's "custom configuration": an app that
// pages only one way declares the initializer it needs once, and makes every
// pager with it. These two are the forward-offset ones of Apollo's example;
// write your own the same way for other schemes.

extension GraphQLQuerySource where InitialQuery == PaginatedQuery, Info == OffsetPagination.Forward {
    /// Makes a forward offset pager whose items are its pages' data.
    ///
    /// ```swift
    /// let source = GraphQLQuerySource.makeForwardOffsetQueryPager(
    ///     client: client,
    ///     queryProvider: { page in FeedQuery(offset: page?.offset ?? 0, limit: 20) },
    ///     extractPageInfo: { data, previous in
    ///         OffsetPagination.Forward(offset: (previous?.offset ?? 0) + data.feed.count,
    ///                                  canLoadNext: data.feed.count == 20)
    ///     }
    /// )
    /// ```
    /// - Parameters:
    ///   - client: the client to send the queries with.
    ///   - queryProvider: makes the query of the page after the page with
    ///     the given info; `nil` for the first page.
    ///   - extractPageInfo: reads a page's info from its data and the info
    ///     of the page before it (`nil` for the first page), from which the
    ///     next offset follows.
    /// - Returns: the pager; each item is one page's ``QueryPage``.
    public static func makeForwardOffsetQueryPager(
        client: GraphQLClient,
        queryProvider: @escaping @Sendable (OffsetPagination.Forward?) -> InitialQuery,
        extractPageInfo:
            @escaping @Sendable (InitialQuery.Data, _ previous: OffsetPagination.Forward?) ->
            OffsetPagination.Forward
    ) -> Self where Item == QueryPage<InitialQuery, InitialQuery, OffsetPagination.Forward> {
        GraphQLQuerySource(
            client: client,
            initialQuery: queryProvider(nil),
            extractPageInfo: { page in extractPageInfo(page.data, page.resolvedFrom) },
            pageResolver: { page, direction in direction == .next ? queryProvider(page) : nil })
    }

    /// Makes a forward offset pager whose items are what a transform makes
    /// of each page's data.
    ///
    /// ```swift
    /// let source = GraphQLQuerySource.makeForwardOffsetQueryPager(
    ///     client: client,
    ///     queryProvider: { page in FeedQuery(offset: page?.offset ?? 0, limit: 20) },
    ///     extractPageInfo: { data, previous in
    ///         OffsetPagination.Forward(offset: (previous?.offset ?? 0) + data.feed.count,
    ///                                  canLoadNext: data.feed.count == 20)
    ///     },
    ///     transform: { data in data.feed }
    /// )
    /// let list = source.makeList()
    /// ```
    /// - Parameters:
    ///   - client: the client to send the queries with.
    ///   - queryProvider: makes the query of the page after the page with
    ///     the given info; `nil` for the first page.
    ///   - extractPageInfo: reads a page's info from its data and the info
    ///     of the page before it (`nil` for the first page).
    ///   - transform: turns a page's data into items, once per page.
    /// - Returns: the pager.
    public static func makeForwardOffsetQueryPager(
        client: GraphQLClient,
        queryProvider: @escaping @Sendable (OffsetPagination.Forward?) -> InitialQuery,
        extractPageInfo:
            @escaping @Sendable (InitialQuery.Data, _ previous: OffsetPagination.Forward?) ->
            OffsetPagination.Forward,
        transform: @escaping @Sendable (InitialQuery.Data) throws -> [Item]
    ) -> Self {
        GraphQLQuerySource(
            client: client,
            initialQuery: queryProvider(nil),
            extractPageInfo: { page in extractPageInfo(page.data, page.resolvedFrom) },
            pageResolver: { page, direction in direction == .next ? queryProvider(page) : nil },
            transform: { page in try transform(page.data) })
    }
}
