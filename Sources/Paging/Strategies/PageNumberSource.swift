/// A page of a numbered-page API: the items, and the number of the last page
/// when the API reports it (a `Link: rel="last"` header, a `totalPages` field).
public struct NumberedPage<Item: Sendable>: Sendable {
    /// The items of the page.
    public var items: [Item]
    /// The number of the last page, if known.
    public var lastPage: Int?

    /// Creates a page.
    public init(items: [Item], lastPage: Int? = nil) {
        self.items = items
        self.lastPage = lastPage
    }
}

/// Pages an API that numbers its pages (`?page=3&per_page=20`).
///
/// ```swift
/// let source = try PageNumberSource<Repo>(pageSize: 30) { page, perPage in
///     let (repos, links) = try await api.repos(page: page, perPage: perPage)
///     return NumberedPage(items: repos, lastPage: links.last)
/// }
/// ```
///
/// Keys are page numbers. Page numbers only address pages of one size, so
/// every request asks for the source's own `pageSize`, whatever count the
/// pager asks for. Without a known last page, a page shorter than `pageSize`
/// is the last.
public struct PageNumberSource<Item: Sendable>: PageSource {
    /// The number of items per page.
    public let pageSize: Int
    /// The number of the first page (1 for most APIs).
    public let firstPage: Int
    private let fetch: @Sendable (_ page: Int, _ perPage: Int) async throws -> NumberedPage<Item>

    /// Creates a source.
    /// - Parameters:
    ///   - pageSize: items per page; at least 1.
    ///   - firstPage: the number of the first page.
    ///   - fetch: loads a page by number.
    /// - Throws: ``PagingError`` with code ``PagingError/Code/invalidConfiguration``
    ///   for a page size below 1.
    public init(
        pageSize: Int, firstPage: Int = 1,
        fetch: @escaping @Sendable (_ page: Int, _ perPage: Int) async throws -> NumberedPage<Item>
    ) throws(PagingError) {
        guard pageSize >= 1 else {
            throw .invalidConfiguration(
                "PageNumberSource pageSize is \(pageSize), but a page must hold at least 1 item")
        }
        self.pageSize = pageSize
        self.firstPage = firstPage
        self.fetch = fetch
    }

    /// Loads a page: the initial key (or the first page), or the page a
    /// neighbour's key names.
    /// - Throws: what `fetch` throws, or ``PagingError`` with code
    ///   ``PagingError/Code/invalidArgument`` when the page numbered
    ///   `Int.max` is said to have a next page.
    public func load(_ request: PageRequest<Int>) async throws -> Page<Int, Item> {
        let number: Int
        switch request.position {
        case .initial(let key): number = max(firstPage, key ?? firstPage)
        case .next(let key), .previous(let key): number = key
        }
        let response = try await fetch(number, pageSize)
        let hasMore: Bool
        if let lastPage = response.lastPage {
            hasMore = number < lastPage
        } else {
            hasMore = response.items.count >= pageSize
        }
        guard !hasMore || number < Int.max else {
            throw PagingError.invalidArgument(
                "page \(number) is the largest page number there is, but the backend says more pages follow")
        }
        return Page(
            items: response.items,
            previousKey: number > firstPage ? number - 1 : nil,
            nextKey: hasMore ? number + 1 : nil)
    }
}
