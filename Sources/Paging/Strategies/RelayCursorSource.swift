/// The pagination arguments of a Relay connection field.
public struct RelayArguments: Sendable, Hashable {
    /// How many edges after `after`, for forward paging.
    public var first: Int?
    /// The cursor to page forward from.
    public var after: String?
    /// How many edges before `before`, for backward paging.
    public var last: Int?
    /// The cursor to page backward from.
    public var before: String?

    /// Creates arguments.
    public init(first: Int? = nil, after: String? = nil, last: Int? = nil, before: String? = nil) {
        self.first = first
        self.after = after
        self.last = last
        self.before = before
    }
}

/// A page of a Relay connection: its nodes, in edge order, and its page info.
public struct RelayPage<Item: Sendable>: Sendable {
    /// The nodes, in the order of the edges.
    public var items: [Item]
    /// The connection's page info.
    public var pageInfo: PageInfo

    /// Creates a page.
    public init(items: [Item], pageInfo: PageInfo) {
        self.items = items
        self.pageInfo = pageInfo
    }
}

/// Pages a Relay connection by cursor: forward with `first`/`after`, backward
/// with `last`/`before`, or both.
///
/// ```swift
/// let source = RelayCursorSource<Launch>(.forward) { arguments in
///     let data = try await client.fetch(LaunchesQuery(first: arguments.first, after: arguments.after))
///     return RelayPage(items: data.launches.nodes, pageInfo: data.launches.pageInfo)
/// }
/// ```
///
/// Keys are cursors. Forward paging follows `endCursor` while `hasNextPage`;
/// backward paging follows `startCursor` while `hasPreviousPage`.
/// Bidirectional paging opened at a cursor (a deep link) loads the page after
/// that cursor first; as the item at the cursor precedes that page, the list
/// has a previous page even when the server, as the specification allows,
/// reports `hasPreviousPage: false` for a forward query. A page loaded
/// backward keeps its `endCursor` as its next key for the same reason.
///
/// Opened at the cursor of the last item (a deep link to the end), nothing
/// follows the cursor: the first page would be empty, with no cursor to page
/// back from. The source then loads the connection's last page instead
/// (`last` without `before`: the items up to and including the cursor's), so
/// the list opens on the items that end it and pages backward from there.
/// This takes a second request; ``tailArguments(for:after:)`` and
/// ``tailPage(from:)`` let a source that sends requests itself do the same.
public struct RelayCursorSource<Item: Sendable>: PageSource {
    /// The direction this source pages in.
    public let direction: PagingDirection
    private let fetch: @Sendable (RelayArguments) async throws -> RelayPage<Item>

    /// Creates a source.
    /// - Parameters:
    ///   - direction: the directions to page in.
    ///   - fetch: loads the connection with the given arguments.
    public init(
        _ direction: PagingDirection = .forward,
        fetch: @escaping @Sendable (RelayArguments) async throws -> RelayPage<Item>
    ) {
        self.direction = direction
        self.fetch = fetch
    }

    /// The arguments for a request.
    /// - Parameter request: what the pager asks for.
    /// - Returns: `first`/`after` for initial (but in reverse) and next pages,
    ///   `last`/`before` for previous pages and a reverse initial page.
    public func arguments(for request: PageRequest<String>) -> RelayArguments {
        switch request.position {
        case .initial(let cursor):
            direction == .reverse
                ? RelayArguments(last: request.count, before: cursor)
                : RelayArguments(first: request.count, after: cursor)
        case .next(let cursor):
            RelayArguments(first: request.count, after: cursor)
        case .previous(let cursor):
            RelayArguments(last: request.count, before: cursor)
        }
    }

    /// The page for a request, with its keys derived from the page info.
    /// - Parameters:
    ///   - relayPage: what the connection returned.
    ///   - request: the request it answers.
    /// - Returns: the page, with `nil` keys at the ends reached.
    public func page(from relayPage: RelayPage<Item>, for request: PageRequest<String>) -> Page<String, Item>
    {
        let info = relayPage.pageInfo
        var nextKey = info.hasNextPage ? info.endCursor : nil
        var previousKey = info.hasPreviousPage ? info.startCursor : nil
        switch request.position {
        case .initial(let cursor):
            if cursor != nil, direction == .bidirectional { previousKey = info.startCursor }
        case .next:
            previousKey = info.startCursor
        case .previous:
            nextKey = info.endCursor
        }
        switch direction {
        case .forward: previousKey = nil
        case .reverse: nextKey = nil
        case .bidirectional: break
        }
        return Page(items: relayPage.items, previousKey: previousKey, nextKey: nextKey)
    }

    /// The arguments that load the connection's last page, when a
    /// bidirectional source opened at a cursor found nothing after it;
    /// `nil` otherwise.
    ///
    /// The items before the first one after the cursor include the cursor's
    /// own item, so `before:` the cursor would skip it; with nothing after
    /// the cursor, they are the connection's last items: `last` without
    /// `before`.
    /// - Parameters:
    ///   - request: the request that was answered.
    ///   - relayPage: its answer.
    /// - Returns: the arguments of the second request, or `nil`.
    /// - Complexity: O(1).
    public func tailArguments(for request: PageRequest<String>, after relayPage: RelayPage<Item>)
        -> RelayArguments?
    {
        guard direction == .bidirectional, case .initial(.some) = request.position, relayPage.items.isEmpty,
            !relayPage.pageInfo.hasNextPage
        else { return nil }
        return RelayArguments(last: request.count)
    }

    /// The page for the answer to ``tailArguments(for:after:)``: the list's
    /// last items, with nothing after them.
    /// - Parameter relayPage: what the connection returned.
    /// - Returns: the page, with no next key.
    /// - Complexity: O(1).
    public func tailPage(from relayPage: RelayPage<Item>) -> Page<String, Item> {
        let info = relayPage.pageInfo
        return Page(
            items: relayPage.items, previousKey: info.hasPreviousPage ? info.startCursor : nil, nextKey: nil)
    }

    /// Loads a page.
    /// - Returns: the page, with its keys derived from its page info.
    /// - Throws: what `fetch` throws.
    /// - Complexity: one request (two for a deep link to the end).
    public func load(_ request: PageRequest<String>) async throws -> Page<String, Item> {
        let relayPage = try await fetch(arguments(for: request))
        if let tail = tailArguments(for: request, after: relayPage) {
            return tailPage(from: try await fetch(tail))
        }
        return page(from: relayPage, for: request)
    }
}
