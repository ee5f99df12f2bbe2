/// A page of an API that hands out an opaque token for the next page (Google's
/// `nextPageToken`, a `next` URL in a JSON body or a `Link` header).
public struct TokenPage<Token: Hashable & Sendable, Item: Sendable>: Sendable {
    /// The items of the page.
    public var items: [Item]
    /// The token of the next page; `nil` on the last page.
    public var nextToken: Token?

    /// Creates a page.
    public init(items: [Item], nextToken: Token?) {
        self.items = items
        self.nextToken = nextToken
    }
}

/// Pages forward through an API that returns an opaque next-page token.
///
/// ```swift
/// let source = NextTokenSource<String, File> { token, count in
///     let response = try await drive.files(pageToken: token, pageSize: count)
///     return TokenPage(items: response.files, nextToken: response.nextPageToken)
/// }
/// ```
public struct NextTokenSource<Token: Hashable & Sendable, Item: Sendable>: PageSource {
    private let fetch: @Sendable (_ token: Token?, _ count: Int) async throws -> TokenPage<Token, Item>

    /// Creates a source.
    /// - Parameter fetch: loads the page a token names (`nil` for the first).
    public init(
        fetch: @escaping @Sendable (_ token: Token?, _ count: Int) async throws -> TokenPage<Token, Item>
    ) {
        self.fetch = fetch
    }

    /// Loads a page.
    /// - Throws: what `fetch` throws, or ``PagingError`` for a request before
    ///   the first page (tokens lead forward only).
    public func load(_ request: PageRequest<Token>) async throws -> Page<Token, Item> {
        let token: Token?
        switch request.position {
        case .initial(let key): token = key
        case .next(let key): token = key
        case .previous:
            throw PagingError.invalidArgument("NextTokenSource pages forward only; it cannot load \(request)")
        }
        let response = try await fetch(token, request.count)
        return Page(items: response.items, previousKey: nil, nextKey: response.nextToken)
    }
}
