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
///
/// Page numbers drift as offsets do when the list changes above them (see
/// ``OffsetSource``). A source of `Identifiable` items checks each next page
/// against the held items before it, as ``PageNumberDriftCheck`` says:
/// ``PageNumberDriftCheck/previousPage`` (the default) asks the page before
/// with each next page, at once, and sees items added and removed above: a
/// request more a page (an offset has one item of overlap; a page number
/// cannot name less than a page). ``PageNumberDriftCheck/repeats`` costs
/// nothing and reports items added above (which the pager drops as repeats
/// anyway), but not removals, whose skipped items stay silent.
public struct PageNumberSource<Item: Sendable>: PageSource {
    /// The number of items per page.
    public let pageSize: Int
    /// The number of the first page (1 for most APIs).
    public let firstPage: Int
    /// How the source checks that the list did not move under its page
    /// numbers; ``PageNumberDriftCheck/none`` for items that are not
    /// `Identifiable`.
    public let driftCheck: PageNumberDriftCheck
    private let fetch: @Sendable (_ page: Int, _ perPage: Int) async throws -> NumberedPage<Item>
    private let identity: (@Sendable (Item) -> AnyHashable)?

    /// Creates a source.
    /// - Parameters:
    ///   - pageSize: items per page; at least 1.
    ///   - firstPage: the number of the first page.
    ///   - driftCheck: how to check each next page against the held items;
    ///     only items that are `Identifiable` can be checked
    ///     (``PageNumberDriftCheck/none`` for others).
    ///   - fetch: loads a page by number.
    /// - Throws: ``PagingError`` with code ``PagingError/Code/invalidConfiguration``
    ///   for a page size below 1.
    public init(
        pageSize: Int, firstPage: Int = 1, driftCheck: PageNumberDriftCheck = .previousPage,
        fetch: @escaping @Sendable (_ page: Int, _ perPage: Int) async throws -> NumberedPage<Item>
    ) throws(PagingError) {
        let identity = driftCheck == .none ? nil : IdentityOf<Item>.function
        try self.init(
            pageSize: pageSize, firstPage: firstPage, driftCheck: identity == nil ? .none : driftCheck,
            identity: identity, fetch: fetch)
    }

    private init(
        pageSize: Int, firstPage: Int, driftCheck: PageNumberDriftCheck,
        identity: (@Sendable (Item) -> AnyHashable)?,
        fetch: @escaping @Sendable (_ page: Int, _ perPage: Int) async throws -> NumberedPage<Item>
    ) throws(PagingError) {
        guard pageSize >= 1 else {
            throw .invalidConfiguration(
                "PageNumberSource pageSize is \(pageSize), but a page must hold at least 1 item")
        }
        self.pageSize = pageSize
        self.firstPage = firstPage
        self.fetch = fetch
        self.driftCheck = driftCheck
        self.identity = identity
    }

    /// Whether it checks for drift (``driftCheck`` is not ``PageNumberDriftCheck/none``).
    public var checksHeldItems: Bool { identity != nil }

    /// Loads a page: the initial key (or the first page), or the page a
    /// neighbour's key names.
    /// - Throws: what `fetch` throws, or ``PagingError`` with code
    ///   ``PagingError/Code/invalidArgument`` when the page numbered
    ///   `Int.max` is said to have a next page.
    public func load(_ request: PageRequest<Int>) async throws -> Page<Int, Item> {
        if let identity, case .next(let number) = request.position, !request.heldBefore.isEmpty {
            return try await checkedPage(number, held: request.heldBefore, identity: identity)
        }
        let number: Int
        switch request.position {
        case .initial(let key): number = max(firstPage, key ?? firstPage)
        case .next(let key), .previous(let key): number = key
        }
        return try page(try await fetch(number, pageSize), number: number)
    }

    /// The page of a response to the page numbered `number`.
    private func page(_ response: NumberedPage<Item>, number: Int) throws -> Page<Int, Item> {
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

    /// The page numbered `number`, checked against the held items before it
    /// (the last first) as ``driftCheck`` says.
    private func checkedPage(
        _ number: Int, held: [any Hashable & Sendable], identity: @Sendable (Item) -> AnyHashable
    ) async throws -> Page<Int, Item> {
        let ranks = OffsetDrift<Item>.ranks(held)
        let asked = number
        var number = number
        var drifted = false
        for _ in 0..<4 {
            var before: [Item] = []
            let current: NumberedPage<Item>
            let checksBefore = driftCheck == .previousPage && number - 1 >= firstPage
            if checksBefore {
                // Both at once: the page before must end with the last held item.
                let numbered = number
                async let previous = fetch(numbered - 1, pageSize)
                async let this = fetch(numbered, pageSize)
                before = try await previous.items
                current = try await this
            } else {
                current = try await fetch(number, pageSize)
            }
            let combined = before + current.items
            // The held item nearest the page, where it is in the two.
            let found = OffsetDrift<Item>.nearest(in: combined, held: ranks, identity: identity)
            var made = try page(current, number: number)
            guard let found else {
                // No held item: nothing repeated; with the page before asked for, the held items
                // are not where they should be, and not found.
                if checksBefore || drifted {
                    made.drift = PageDrift(direction: .next, shift: nil, resynchronized: false)
                }
                return made
            }
            // Where the page starts, from where page `asked` starts (pages moved on to included).
            let shift = found.position + 1 - before.count + (number - asked) * pageSize
            if shift == 0, !drifted { return made }
            drifted = true
            let following = Array(combined.dropFirst(found.position + 1))
            if following.isEmpty, made.nextKey != nil {
                // The whole page was held items (many added above): on to the next one.
                number += 1
                continue
            }
            made.items = following
            made.drift = PageDrift(direction: .next, shift: shift, resynchronized: true)
            return made
        }
        var made = try page(try await fetch(number, pageSize), number: number)
        made.drift = PageDrift(direction: .next, shift: nil, resynchronized: false)
        return made
    }
}

/// How a ``PageNumberSource`` checks that the list did not move under its
/// page numbers between two pages (see ``PageDrift``).
public enum PageNumberDriftCheck: Sendable, Hashable {
    /// No check: a page number is the page it names now.
    case none
    /// Each next page is checked against the held items before it: held
    /// items in it mean items were added above, and the page starts after
    /// the last of them. No request more; items removed above, which make a
    /// page skip items, are not seen.
    case repeats
    /// Each next page is asked together with the page before it, at once:
    /// the page before must end with the last held item; when it does not,
    /// the page starts right after where the held items end in the two.
    /// Sees items added and removed above (by up to a page), at a request
    /// more a page.
    case previousPage
}
