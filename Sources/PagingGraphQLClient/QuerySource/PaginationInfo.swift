/// What a page of a paginated query says about its neighbours: whether more
/// can be loaded after it and before it, and whatever the next query needs
/// (a cursor, an offset).
///
/// A ``GraphQLQuerySource`` reads one from each page's data with its
/// `extractPageInfo` closure and gives it back to its `pageResolver` to make
/// the query of the next (or previous) page. The library's types cover the
/// usual schemes: ``CursorBasedPagination/Forward``,
/// ``CursorBasedPagination/Reverse``, ``CursorBasedPagination/Bidirectional``,
/// ``OffsetPagination/Forward``, ``OffsetPagination/Reverse`` and
/// ``OffsetPagination/Bidirectional``. Conform a type of your own for any
/// other scheme (a page number, a token).
///
/// The pager uses pagination info as the engine's page keys, so it must be
/// `Hashable` and `Sendable`: two pages with equal info are the same place in
/// the list, and a page whose info equals the info it was loaded from is
/// reported as a repeated key rather than followed forever.
public protocol PaginationInfo: Hashable, Sendable {
    /// Whether items may follow the page.
    var canLoadNext: Bool { get }
    /// Whether items may precede the page.
    var canLoadPrevious: Bool { get }
}

/// Pagination info for Relay-style cursor connections
/// (`pageInfo { hasNextPage endCursor hasPreviousPage startCursor }`).
///
/// ```swift
/// extractPageInfo: { data in
///     CursorBasedPagination.Forward(hasNext: data.todos.pageInfo.hasNextPage,
///                                   endCursor: data.todos.pageInfo.endCursor)
/// }
/// ```
public enum CursorBasedPagination {
    /// Forward pagination: the next page starts after ``endCursor``.
    public struct Forward: PaginationInfo {
        /// Whether items follow the page.
        public var hasNext: Bool
        /// The cursor of the page's last item.
        public var endCursor: String?

        /// Creates forward pagination info.
        /// - Parameters:
        ///   - hasNext: whether items follow the page (`pageInfo.hasNextPage`).
        ///   - endCursor: the cursor of the last item (`pageInfo.endCursor`).
        public init(hasNext: Bool, endCursor: String?) {
            self.hasNext = hasNext
            self.endCursor = endCursor
        }

        /// ``hasNext``.
        public var canLoadNext: Bool { hasNext }
        /// Always `false`: forward pagination never loads before the first page.
        public var canLoadPrevious: Bool { false }
    }

    /// Reverse pagination: the previous page ends before ``startCursor``.
    public struct Reverse: PaginationInfo {
        /// Whether items precede the page.
        public var hasPrevious: Bool
        /// The cursor of the page's first item.
        public var startCursor: String?

        /// Creates reverse pagination info.
        /// - Parameters:
        ///   - hasPrevious: whether items precede the page (`pageInfo.hasPreviousPage`).
        ///   - startCursor: the cursor of the first item (`pageInfo.startCursor`).
        public init(hasPrevious: Bool, startCursor: String?) {
            self.hasPrevious = hasPrevious
            self.startCursor = startCursor
        }

        /// Always `false`: reverse pagination never loads after the first page.
        public var canLoadNext: Bool { false }
        /// ``hasPrevious``.
        public var canLoadPrevious: Bool { hasPrevious }
    }

    /// Pagination both ways, from a page in the middle of the list.
    public struct Bidirectional: PaginationInfo {
        /// Whether items follow the page.
        public var hasNext: Bool
        /// The cursor of the page's last item.
        public var endCursor: String?
        /// Whether items precede the page.
        public var hasPrevious: Bool
        /// The cursor of the page's first item.
        public var startCursor: String?

        /// Creates bidirectional pagination info.
        /// - Parameters:
        ///   - hasNext: whether items follow the page.
        ///   - endCursor: the cursor of the last item.
        ///   - hasPrevious: whether items precede the page.
        ///   - startCursor: the cursor of the first item.
        public init(hasNext: Bool, endCursor: String?, hasPrevious: Bool, startCursor: String?) {
            self.hasNext = hasNext
            self.endCursor = endCursor
            self.hasPrevious = hasPrevious
            self.startCursor = startCursor
        }

        /// ``hasNext``.
        public var canLoadNext: Bool { hasNext }
        /// ``hasPrevious``.
        public var canLoadPrevious: Bool { hasPrevious }
    }
}

/// Pagination info for offset/limit queries.
///
/// What ``Forward/offset`` means is the resolver's business, as it is the
/// resolver that turns it into a query; the usual reading, and the one
/// ``GraphQLQuerySource/makeForwardOffsetQueryPager(client:queryProvider:extractPageInfo:)``
/// follows, is "the offset the next page starts at".
///
/// ```swift
/// OffsetPagination.Forward(offset: (previous?.offset ?? 0) + data.items.count,
///                          canLoadNext: data.items.count == pageSize)
/// ```
public enum OffsetPagination {
    /// Forward offset pagination.
    public struct Forward: PaginationInfo {
        /// The offset the page after this one starts at.
        public var offset: Int
        /// Whether items follow the page.
        public var canLoadNext: Bool

        /// Creates forward offset info.
        /// - Parameters:
        ///   - offset: the offset the next page starts at.
        ///   - canLoadNext: whether items follow the page.
        public init(offset: Int, canLoadNext: Bool) {
            self.offset = offset
            self.canLoadNext = canLoadNext
        }

        /// Always `false`.
        public var canLoadPrevious: Bool { false }
    }

    /// Reverse offset pagination.
    public struct Reverse: PaginationInfo {
        /// The offset of the page's first item; the previous page ends there.
        public var offset: Int
        /// Whether items precede the page.
        public var canLoadPrevious: Bool

        /// Creates reverse offset info.
        /// - Parameters:
        ///   - offset: the offset of the page's first item.
        ///   - canLoadPrevious: whether items precede the page.
        public init(offset: Int, canLoadPrevious: Bool) {
            self.offset = offset
            self.canLoadPrevious = canLoadPrevious
        }

        /// Always `false`.
        public var canLoadNext: Bool { false }
    }

    /// Offset pagination both ways.
    public struct Bidirectional: PaginationInfo {
        /// The offset of the page's first item, from which the resolver
        /// computes the offsets of both neighbours.
        public var offset: Int
        /// Whether items follow the page.
        public var canLoadNext: Bool
        /// Whether items precede the page.
        public var canLoadPrevious: Bool

        /// Creates bidirectional offset info.
        /// - Parameters:
        ///   - offset: the offset of the page's first item.
        ///   - canLoadNext: whether items follow the page.
        ///   - canLoadPrevious: whether items precede the page.
        public init(offset: Int, canLoadNext: Bool, canLoadPrevious: Bool) {
            self.offset = offset
            self.canLoadNext = canLoadNext
            self.canLoadPrevious = canLoadPrevious
        }
    }
}
