public import Paging

/// Pages a GraphQL query the way Apollo iOS's `GraphQLQueryPager` does, on
/// the paging engine: an initial query, a closure that reads each page's
/// ``PaginationInfo``, and a closure that makes the query of the next or
/// previous page from it.
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
///         // Forward only: no query before the first page.
///         direction == .next ? TodosQuery(first: 10, after: page.endCursor) : nil
///     },
///     transform: { data in Array(data.todos) }
/// )
/// let pager = source.makePager()          // the engine's Pager<CursorBasedPagination.Forward, Todo>
/// try await pager.loadNext().value
/// ```
///
/// See <doc:HowThePagersWork> for how it works in detail.
public struct GraphQLQuerySource<
    InitialQuery: GraphQLOperation, PaginatedQuery: GraphQLOperation, Info: PaginationInfo,
    Item: Identifiable & Sendable
>: PageSource where Item.ID: Sendable {
    /// The engine's key: the pagination info of a neighbouring page.
    public typealias Key = Info
    /// What the closures receive for each page.
    public typealias ExtractionData = PageExtractionData<InitialQuery, PaginatedQuery, Info>

    /// The client the queries are sent with.
    public let client: GraphQLClient
    /// The query of the first page.
    public let initialQuery: InitialQuery
    private let extractPageInfo: @Sendable (ExtractionData) -> Info
    private let pageResolver: @Sendable (Info, LoadDirection) -> PaginatedQuery?
    private let items: @Sendable (ExtractionData, PageRequest<Info>) throws -> [Item]
    private let onPartialData: (@Sendable (PartialDataReport<Info>) -> Void)?
    /// What the source's copies share: the follower of the store of each
    /// pager over the source is kept for it.
    private let identity = SourceIdentity()

    /// Creates a pager from closures that see which query loaded each page
    /// (the most general form; the convenience initializers build on it).
    /// - Parameters:
    ///   - client: the client to send the queries with.
    ///   - initialQuery: the query of the first page.
    ///   - extractPageInfo: reads a page's pagination info from its data.
    ///   - pageResolver: makes the query of the page after (`.next`) or
    ///     before (`.previous`) the page with the given info; `nil` when
    ///     the list does not page in that direction. Must be pure.
    ///   - transform: turns a page's data into the items the list shows.
    ///   - onPartialData: called with the errors of a page that came with
    ///     data and errors; the page is delivered either way.
    public init(
        client: GraphQLClient,
        initialQuery: InitialQuery,
        extractPageInfo: @escaping @Sendable (ExtractionData) -> Info,
        pageResolver: @escaping @Sendable (Info, LoadDirection) -> PaginatedQuery?,
        transform: @escaping @Sendable (ExtractionData) throws -> [Item],
        onPartialData: (@Sendable (PartialDataReport<Info>) -> Void)? = nil
    ) {
        self.init(
            client: client, initialQuery: initialQuery, extractPageInfo: extractPageInfo,
            pageResolver: pageResolver,
            items: { data, _ in try transform(data) }, onPartialData: onPartialData)
    }

    /// The designated initializer: `items` sees the request of the page too,
    /// so that a page without a transform can be identified by it.
    init(
        client: GraphQLClient,
        initialQuery: InitialQuery,
        extractPageInfo: @escaping @Sendable (ExtractionData) -> Info,
        pageResolver: @escaping @Sendable (Info, LoadDirection) -> PaginatedQuery?,
        items: @escaping @Sendable (ExtractionData, PageRequest<Info>) throws -> [Item],
        onPartialData: (@Sendable (PartialDataReport<Info>) -> Void)?
    ) {
        self.client = client
        self.initialQuery = initialQuery
        self.extractPageInfo = extractPageInfo
        self.pageResolver = pageResolver
        self.items = items
        self.onPartialData = onPartialData
    }

    /// Loads the page a request asks for: the initial query for an initial
    /// request, the resolver's query for the page after or before a key.
    /// - Parameter request: the engine's request; its `count` is not used.
    /// - Returns: the page's items, with its own info as the key of each
    ///   neighbour that exists.
    /// - Throws: ``GraphQLClientError`` when no data came;
    ///   ``GraphQLPagerError`` for an initial request with a key, or when the
    ///   resolver gives no query for a key it gave one for before; what the
    ///   transform throws; `CancellationError` when cancelled.
    /// - Complexity: one request, plus the transform of one page.
    public func load(_ request: PageRequest<Info>) async throws -> Page<Info, Item> {
        // A followed page is written to the store before its follower
        // retains it: until then, no collection may take it.
        let follower = follower(for: request)
        let keeper = follower == nil ? nil : client.store?.keepWrites()
        defer { keeper?.cancel() }
        switch request.position {
        case .initial(nil):
            let data = try await fetch(initialQuery, for: request)
            let page = try page(for: .initial(data), request: request)
            follow(initialQuery, page: page, request: request, by: follower) { .initial($0) }
            return page
        case .initial(let info?):
            throw GraphQLPagerError(
                .initialKey,
                "A GraphQLQuerySource opens with its initial query, so it cannot open at \(info); "
                    + "make the pager with an initial query for the page to open at, and no initial key.")
        case .next(let info):
            return try await loadPage(from: info, direction: .next, for: request, follower: follower)
        case .previous(let info):
            return try await loadPage(from: info, direction: .previous, for: request, follower: follower)
        }
    }

    private func loadPage(
        from info: Info, direction: LoadDirection, for request: PageRequest<Info>,
        follower: StoreFollower<Info, PageTracking<Item>>?
    ) async throws -> Page<Info, Item> {
        guard let query = pageResolver(info, direction) else {
            throw GraphQLPagerError(
                .noQuery,
                "The pageResolver returned nil for the page \(direction == .next ? "after" : "before") \(info), "
                    + "though it returned a query for it when that page arrived; the resolver must be a pure function "
                    + "of the pagination info and the direction.")
        }
        let data = try await fetch(query, for: request)
        let page = try page(for: .paginated(data, from: info, direction: direction), request: request)
        follow(query, page: page, request: request, by: follower) {
            .paginated($0, from: info, direction: direction)
        }
        return page
    }

    private func fetch<Query: GraphQLOperation>(_ query: Query, for request: PageRequest<Info>) async throws
        -> Query.Data
    {
        let response = try await client.send(query)
        guard let data = response.data else {
            throw GraphQLClientError.graphQLErrors(
                response.errors, statusCode: response.statusCode, url: client.endpoint)
        }
        if !response.errors.isEmpty, let onPartialData {
            onPartialData(PartialDataReport(request: request, errors: response.errors))
        }
        return data
    }

    /// Tells the follower, if any, how to make this page's items again from
    /// the store.
    private func follow<Query: GraphQLOperation>(
        _ query: Query, page: Page<Info, Item>, request: PageRequest<Info>,
        by follower: StoreFollower<Info, PageTracking<Item>>?,
        extraction: @escaping @Sendable (Query.Data) -> ExtractionData
    ) {
        guard let follower, let operation = try? StoreOperation(query, cache: client.store?.documents) else {
            return
        }
        let items = self.items
        follower.track(operation, page: page.items, for: request) { data in
            try items(extraction(try data.decode(Query.Data.self)), request)
        }
    }

    private func page(for extraction: ExtractionData, request: PageRequest<Info>) throws -> Page<Info, Item> {
        let info = extractPageInfo(extraction)
        let items = try items(extraction, request)
        let hasNext = info.canLoadNext && pageResolver(info, .next) != nil
        let hasPrevious = info.canLoadPrevious && pageResolver(info, .previous) != nil
        return Page(items: items, previousKey: hasPrevious ? info : nil, nextKey: hasNext ? info : nil)
    }
}

extension GraphQLQuerySource {
    /// The follower of the client's store kept for the pager of a load,
    /// made the first time: `nil` without a store, without a pager (a load
    /// called directly), or when the pager's rows are not this source's
    /// items (a transform between that cannot be followed).
    ///
    /// Every pager over the source follows the store, through any wrapper
    /// that passes the request on: when a record that a page's query read
    /// changes (a mutation's answer, another query), the page is read again
    /// from the store and run through the transform, and the items that
    /// changed are replaced in one batch edit (`Pager.apply(_:)`), with no
    /// request; a change while a refresh is in flight reaches the rows on
    /// screen, and the rows the refresh swaps in. The follower lives as
    /// long as the pager.
    /// - Complexity: O(1); following costs the pages that read a changed
    ///   field, whatever the number held, and one read of the query of a
    ///   page that loads (two and a transform when the items are
    ///   `Equatable`, to tell a change that landed while it loaded).
    private func follower(for request: PageRequest<Info>) -> StoreFollower<Info, PageTracking<Item>>? {
        guard let store = client.store else { return nil }
        return StoreFollower.forLoad(request, owner: identity, store: store) { PageTracking() }
    }
}
