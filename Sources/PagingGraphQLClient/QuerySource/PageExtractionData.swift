public import Paging

/// The data of one page of a ``GraphQLQuerySource``, as its closures see it:
/// the initial query's data, or a paginated query's data with the
/// pagination info it was resolved from.
///
/// With one query for every page, the convenience initializers hand the
/// closures the data alone. With separate initial and paginated queries, or
/// to compute an offset from the page before, switch over this value:
///
/// ```swift
/// extractPageInfo: { page in
///     switch page {
///     case .initial(let data):
///         OffsetPagination.Forward(offset: data.feed.count, canLoadNext: data.feed.count == 20)
///     case .paginated(let data, let from, _):
///         OffsetPagination.Forward(offset: from.offset + data.feed.count, canLoadNext: data.feed.count == 20)
///     }
/// }
/// ```
public enum PageExtractionData<
    InitialQuery: GraphQLOperation, PaginatedQuery: GraphQLOperation, Info: PaginationInfo
>: Sendable {
    /// The data of the initial query: the first page.
    case initial(InitialQuery.Data)
    /// The data of a paginated query, with the info of the page it was
    /// resolved from and the direction it was loaded in.
    case paginated(PaginatedQuery.Data, from: Info, direction: LoadDirection)

    /// The info of the page this one was resolved from; `nil` for the
    /// initial page.
    public var resolvedFrom: Info? {
        if case .paginated(_, let from, _) = self { from } else { nil }
    }

    /// The direction the page was loaded in; `nil` for the initial page.
    public var direction: LoadDirection? {
        if case .paginated(_, _, let direction) = self { direction } else { nil }
    }
}

extension PageExtractionData where InitialQuery.Data == PaginatedQuery.Data {
    /// The page's data, whichever query loaded it (one data type for both).
    public var data: InitialQuery.Data {
        switch self {
        case .initial(let data), .paginated(let data, _, _): data
        }
    }
}

/// One page of a ``GraphQLQuerySource`` without a transform: the item the
/// list shows for each page loaded, as Apollo's `PaginationOutput` keeps one
/// entry per page.
///
/// A page is identified by the request that loaded it (`.initial(nil)`,
/// `.next(after: info)`, `.previous(before: info)`), which no other page
/// shares.
///
/// ```swift
/// let pages = pager.makePager()
/// try await pages.loadNext().value
/// let launches = pages.items.flatMap { $0.value.launches }
/// ```
public struct QueryPage<
    InitialQuery: GraphQLOperation, PaginatedQuery: GraphQLOperation, Info: PaginationInfo
>: Identifiable, Sendable {
    /// The request that loaded the page.
    public let id: PageRequest<Info>
    /// The page's data.
    public let data: PageExtractionData<InitialQuery, PaginatedQuery, Info>

    /// Creates a page.
    /// - Parameters:
    ///   - id: the request that loaded the page.
    ///   - data: the page's data.
    public init(id: PageRequest<Info>, data: PageExtractionData<InitialQuery, PaginatedQuery, Info>) {
        self.id = id
        self.data = data
    }
}

extension QueryPage where InitialQuery.Data == PaginatedQuery.Data {
    /// The page's data, whichever query loaded it (one data type for both).
    public var value: InitialQuery.Data { data.data }
}
