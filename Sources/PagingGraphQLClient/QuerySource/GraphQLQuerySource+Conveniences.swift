public import Paging

extension GraphQLQuerySource where InitialQuery == PaginatedQuery {
    /// Creates a pager that uses one query type for every page, with a
    /// transform that turns each page's data into items.
    ///
    /// ```swift
    /// let source = GraphQLQuerySource(
    ///     client: client,
    ///     initialQuery: TodosQuery(first: 10, after: nil),
    ///     extractPageInfo: { data in
    ///         CursorBasedPagination.Bidirectional(
    ///             hasNext: data.todos.pageInfo.hasNextPage, endCursor: data.todos.pageInfo.endCursor,
    ///             hasPrevious: data.todos.pageInfo.hasPreviousPage, startCursor: data.todos.pageInfo.startCursor)
    ///     },
    ///     pageResolver: { page, direction in
    ///         switch direction {
    ///         case .next: TodosQuery(first: 10, after: page.endCursor)
    ///         case .previous: TodosQuery(last: 10, before: page.startCursor)
    ///         }
    ///     },
    ///     transform: { data in Array(data.todos) }
    /// )
    /// ```
    /// - Parameters:
    ///   - client: the client to send the queries with.
    ///   - initialQuery: the query of the first page.
    ///   - extractPageInfo: reads a page's pagination info from its data.
    ///   - pageResolver: makes the query of the page after or before the
    ///     page with the given info; `nil` for a direction not paged. Pure.
    ///   - transform: turns a page's data into items, once per page.
    ///   - onPartialData: called with the errors of a page that came with
    ///     data and errors.
    public init(
        client: GraphQLClient,
        initialQuery: InitialQuery,
        extractPageInfo: @escaping @Sendable (InitialQuery.Data) -> Info,
        pageResolver: @escaping @Sendable (Info, LoadDirection) -> InitialQuery?,
        transform: @escaping @Sendable (InitialQuery.Data) throws -> [Item],
        onPartialData: (@Sendable (PartialDataReport<Info>) -> Void)? = nil
    ) {
        self.init(
            client: client, initialQuery: initialQuery,
            extractPageInfo: { extractPageInfo($0.data) },
            pageResolver: pageResolver,
            transform: { try transform($0.data) },
            onPartialData: onPartialData)
    }
}

extension GraphQLQuerySource {
    /// Creates a pager with one query type for the first page and another
    /// for the pages after or before it, each with its own transform.
    ///
    /// ```swift
    /// let source = GraphQLQuerySource(
    ///     client: client,
    ///     initialQuery: ProfileWithFriendsQuery(id: id, first: 10),
    ///     extractInitialPageInfo: { data in
    ///         CursorBasedPagination.Forward(hasNext: data.user.friends.pageInfo.hasNextPage,
    ///                                       endCursor: data.user.friends.pageInfo.endCursor)
    ///     },
    ///     extractNextPageInfo: { data in
    ///         CursorBasedPagination.Forward(hasNext: data.node.friends.pageInfo.hasNextPage,
    ///                                       endCursor: data.node.friends.pageInfo.endCursor)
    ///     },
    ///     pageResolver: { page, direction in
    ///         direction == .next ? FriendsPageQuery(id: id, first: 10, after: page.endCursor) : nil
    ///     },
    ///     initialTransform: { data in Array(data.user.friends) },
    ///     pageTransform: { data in Array(data.node.friends) }
    /// )
    /// ```
    /// - Parameters:
    ///   - client: the client to send the queries with.
    ///   - initialQuery: the query of the first page.
    ///   - extractInitialPageInfo: reads the first page's pagination info.
    ///   - extractNextPageInfo: reads a paginated page's pagination info.
    ///   - pageResolver: makes the paginated query after or before a page;
    ///     `nil` for a direction not paged. Pure.
    ///   - initialTransform: turns the first page's data into items.
    ///   - pageTransform: turns a paginated page's data into items.
    ///   - onPartialData: called with the errors of a page that came with
    ///     data and errors.
    public init(
        client: GraphQLClient,
        initialQuery: InitialQuery,
        extractInitialPageInfo: @escaping @Sendable (InitialQuery.Data) -> Info,
        extractNextPageInfo: @escaping @Sendable (PaginatedQuery.Data) -> Info,
        pageResolver: @escaping @Sendable (Info, LoadDirection) -> PaginatedQuery?,
        initialTransform: @escaping @Sendable (InitialQuery.Data) throws -> [Item],
        pageTransform: @escaping @Sendable (PaginatedQuery.Data) throws -> [Item],
        onPartialData: (@Sendable (PartialDataReport<Info>) -> Void)? = nil
    ) {
        self.init(
            client: client, initialQuery: initialQuery,
            extractPageInfo: { page in
                switch page {
                case .initial(let data): extractInitialPageInfo(data)
                case .paginated(let data, _, _): extractNextPageInfo(data)
                }
            },
            pageResolver: pageResolver,
            transform: { page in
                switch page {
                case .initial(let data): try initialTransform(data)
                case .paginated(let data, _, _): try pageTransform(data)
                }
            },
            onPartialData: onPartialData)
    }
}

extension GraphQLQuerySource {
    /// Creates a pager without a transform: each page's data is one item of
    /// the list, a ``QueryPage``.
    /// - Parameters:
    ///   - client: the client to send the queries with.
    ///   - initialQuery: the query of the first page.
    ///   - extractPageInfo: reads a page's pagination info, seeing which
    ///     query loaded it.
    ///   - pageResolver: makes the query after or before a page; `nil` for a
    ///     direction not paged. Pure.
    ///   - onPartialData: called with the errors of a page that came with
    ///     data and errors.
    public init(
        client: GraphQLClient,
        initialQuery: InitialQuery,
        extractPageInfo: @escaping @Sendable (ExtractionData) -> Info,
        pageResolver: @escaping @Sendable (Info, LoadDirection) -> PaginatedQuery?,
        onPartialData: (@Sendable (PartialDataReport<Info>) -> Void)? = nil
    ) where Item == QueryPage<InitialQuery, PaginatedQuery, Info> {
        self.init(
            client: client, initialQuery: initialQuery, extractPageInfo: extractPageInfo,
            pageResolver: pageResolver,
            items: { data, request in [QueryPage(id: request, data: data)] }, onPartialData: onPartialData)
    }

    /// Creates a pager without a transform, with separate initial and
    /// paginated queries: each page's data is one ``QueryPage``.
    /// - Parameters:
    ///   - client: the client to send the queries with.
    ///   - initialQuery: the query of the first page.
    ///   - extractInitialPageInfo: reads the first page's pagination info.
    ///   - extractNextPageInfo: reads a paginated page's pagination info.
    ///   - pageResolver: makes the paginated query after or before a page.
    ///   - onPartialData: called with the errors of a page that came with
    ///     data and errors.
    public init(
        client: GraphQLClient,
        initialQuery: InitialQuery,
        extractInitialPageInfo: @escaping @Sendable (InitialQuery.Data) -> Info,
        extractNextPageInfo: @escaping @Sendable (PaginatedQuery.Data) -> Info,
        pageResolver: @escaping @Sendable (Info, LoadDirection) -> PaginatedQuery?,
        onPartialData: (@Sendable (PartialDataReport<Info>) -> Void)? = nil
    ) where Item == QueryPage<InitialQuery, PaginatedQuery, Info> {
        self.init(
            client: client, initialQuery: initialQuery,
            extractPageInfo: { page in
                switch page {
                case .initial(let data): extractInitialPageInfo(data)
                case .paginated(let data, _, _): extractNextPageInfo(data)
                }
            },
            pageResolver: pageResolver, onPartialData: onPartialData)
    }
}

extension GraphQLQuerySource where InitialQuery == PaginatedQuery {
    /// Creates a pager with one query type and no transform: each page's
    /// data is one ``QueryPage``, its data in ``QueryPage/value``.
    ///
    /// ```swift
    /// let source = GraphQLQuerySource(
    ///     client: client,
    ///     initialQuery: TodosQuery(first: 10, after: nil),
    ///     extractPageInfo: { data in
    ///         CursorBasedPagination.Forward(hasNext: data.todos.pageInfo.hasNextPage,
    ///                                       endCursor: data.todos.pageInfo.endCursor)
    ///     },
    ///     pageResolver: { page, direction in
    ///         direction == .next ? TodosQuery(first: 10, after: page.endCursor) : nil
    ///     }
    /// )
    /// ```
    /// - Parameters:
    ///   - client: the client to send the queries with.
    ///   - initialQuery: the query of the first page.
    ///   - extractPageInfo: reads a page's pagination info from its data.
    ///   - pageResolver: makes the query after or before a page; `nil` for a
    ///     direction not paged. Pure.
    ///   - onPartialData: called with the errors of a page that came with
    ///     data and errors.
    public init(
        client: GraphQLClient,
        initialQuery: InitialQuery,
        extractPageInfo: @escaping @Sendable (InitialQuery.Data) -> Info,
        pageResolver: @escaping @Sendable (Info, LoadDirection) -> InitialQuery?,
        onPartialData: (@Sendable (PartialDataReport<Info>) -> Void)? = nil
    ) where Item == QueryPage<InitialQuery, InitialQuery, Info> {
        self.init(
            client: client, initialQuery: initialQuery,
            extractPageInfo: { (page: ExtractionData) in extractPageInfo(page.data) },
            pageResolver: pageResolver, onPartialData: onPartialData)
    }
}
