/// A page of an offset/limit API: the items, and the total number of items
/// when the API reports it.
public struct OffsetPage<Item: Sendable>: Sendable {
    /// The items from the requested offset.
    public var items: [Item]
    /// The total number of items in the list, if known.
    public var totalCount: Int?

    /// Creates a page.
    public init(items: [Item], totalCount: Int? = nil) {
        self.items = items
        self.totalCount = totalCount
    }
}

/// Pages an offset/limit API forward, backward from the end, or both ways
/// from any offset.
///
/// ```swift
/// let source = OffsetSource<Launch>(.forward) { offset, limit in
///     let page = try await api.launches(offset: offset, limit: limit)
///     return OffsetPage(items: page.items, totalCount: page.total)
/// }
/// ```
///
/// Keys are offsets: a page's next key is the offset after its last item, its
/// previous key the offset of its first item. Without a total count, a page
/// shorter than asked for is the last one. A reverse source opened without an
/// initial key first asks for `limit: 0` to learn the total count, then loads
/// the last page.
///
/// Offsets drift when the list changes above them: an item removed above
/// the next offset makes the next page skip one, an item added repeats one.
/// A source of `Identifiable` items checks: it asks every page after the
/// held ones from one item earlier (`offset - 1`, the same limit, so the page
/// brings one new item less; before them, up to and including the first held
/// one) and compares that item with the last held one
/// (``PageRequest/heldBefore``). When they differ, it looks for where the
/// held items are now in one more request around that place (no larger than
/// a page, unless `driftWindow` says), then, when none is there, in up to
/// eight more of that size next to it, alternately after and before; when
/// the held item a window shows is not the last one (those after it were
/// removed, or are past the window's edge), one more window, moved toward
/// where they would be, looks for them. It
/// starts the page right after them, and reports it in the page
/// (``Page/drift``), which the pager passes on (``PagingSnapshot/drift``).
/// A list read both ways carries what the pages at its start found to the
/// end (``PageRequest/knownShift``): an item added or removed above the
/// first held item moved the last one as much, so a list read back to its
/// top and then forward looks for its last item where it is now first. The
/// cost: one item of each page, and a request more per window looked in
/// when a drift is found; no request asks more than the page size (or 2),
/// so an API that caps its limit at the page size is served. Held items not
/// found within those windows (removed, or moved farther) leave the page
/// with the first window's items, reported as not resynchronized. A held item
/// that moved down within the list is taken as where the held ones end: the
/// items it passed are not shown (the drift is reported).
/// `checksDrift: false` opts out; a dropped page loaded again (a window's)
/// is not checked. Every item on the server throughout a read is held once,
/// in any order of loads at either end, as long as the list moves less
/// between two of the check's requests than its windows look; for faster
/// churn (pages of one or two items), give a `driftWindow` of a few dozen.
public struct OffsetSource<Item: Sendable>: PageSource {
    /// The direction this source pages in.
    public let direction: PagingDirection
    /// How many items on each side of where the held items should end a
    /// drift is looked for in; `nil`: within a request of a page (half a page
    /// on each side), or when the source does not check.
    public let driftWindow: Int?
    private let fetch: @Sendable (_ offset: Int, _ limit: Int) async throws -> OffsetPage<Item>
    /// The identity of an item, when the source checks for drift.
    private let identity: (@Sendable (Item) -> AnyHashable)?

    /// Creates a source.
    /// - Parameters:
    ///   - direction: the directions to page in.
    ///   - checksDrift: whether to ask each page with one item of overlap
    ///     and resynchronise when the list moved (see ``OffsetSource``); only
    ///     items that are `Identifiable` can be checked.
    ///   - driftWindow: how many items on each side of where the held items
    ///     should end to look for them in, when the list moved. `nil` (the
    ///     default) keeps every request within the page size, for an API
    ///     that caps its limit (at the page size, say): half a page on each
    ///     side. A number asks the page size plus twice that once, for an
    ///     API that allows it; more items may move and still be found.
    ///   - fetch: loads up to `limit` items from `offset`.
    public init(
        _ direction: PagingDirection = .forward, checksDrift: Bool = true, driftWindow: Int? = nil,
        fetch: @escaping @Sendable (_ offset: Int, _ limit: Int) async throws -> OffsetPage<Item>
    ) {
        self.direction = direction
        self.fetch = fetch
        self.identity = checksDrift ? IdentityOf<Item>.function : nil
        self.driftWindow = identity == nil ? nil : driftWindow.map { min(max(1, $0), 100_000) }
    }

    /// Whether it checks for drift: its items are `Identifiable`, and it did
    /// not opt out.
    public var checksHeldItems: Bool { identity != nil }

    /// Loads a page.
    /// - Throws: what `fetch` throws, or ``PagingError`` with code
    ///   ``PagingError/Code/invalidArgument`` when a reverse source opened
    ///   without a key cannot learn the total count, or when the offset and
    ///   the count together pass `Int.max`.
    /// - Complexity: one request, with one item of overlap when it checks
    ///   for drift; when it finds one, one more, up to eight more to find
    ///   the held items, and one more when the held item found is not the
    ///   last (the first, before them).
    public func load(_ request: PageRequest<Int>) async throws -> Page<Int, Item> {
        if let identity {
            switch request.position {
            case .next(let offset) where offset > 0 && !request.heldBefore.isEmpty && request.count < 1 << 32:
                let (_, overflow) = offset.addingReportingOverflow(request.count)
                if !overflow {
                    return try await OffsetDrift(fetch: fetch, identity: identity, window: driftWindow)
                        .after(
                            offset, shift: request.knownShift, count: request.count, held: request.heldBefore
                        ) {
                            response, start, limit in
                            page(from: response, offset: start, limit: limit)
                        }
                }
            case .previous(let end)
            where end >= 0 && direction != .forward && !request.heldAfter.isEmpty && request.count < 1 << 32:
                return try await OffsetDrift(fetch: fetch, identity: identity, window: driftWindow)
                    .before(end, count: request.count, held: request.heldAfter) { response, start, limit in
                        page(from: response, offset: start, limit: limit)
                    }
            default:
                break
            }
        }
        let (offset, limit) = try await window(for: request)
        let response = try await fetch(offset, limit)
        return page(from: response, offset: offset, limit: limit)
    }

    /// The offset and limit a request asks for.
    private func window(for request: PageRequest<Int>) async throws -> (offset: Int, limit: Int) {
        let (offset, limit) = try await unchecked(window: request)
        guard !offset.addingReportingOverflow(limit).overflow else {
            throw PagingError.invalidArgument(
                "\(request) reaches past the largest offset (\(Int.max)); ask for fewer items or a smaller offset"
            )
        }
        return (offset, limit)
    }

    private func unchecked(window request: PageRequest<Int>) async throws -> (offset: Int, limit: Int) {
        switch request.position {
        case .initial(let key) where direction == .reverse:
            let end: Int
            if let key {
                end = key
            } else {
                guard let total = try await fetch(0, 0).totalCount else {
                    throw PagingError.invalidArgument(
                        "a reverse OffsetSource opened without an initial key needs the total count from its "
                            + "fetch (OffsetPage.totalCount), or an initial key: the offset one past the last item"
                    )
                }
                end = total
            }
            return Self.window(endingAt: end, count: request.count)
        case .initial(let key):
            return (max(0, key ?? 0), request.count)
        case .next(let offset):
            return (offset, request.count)
        case .previous(let end):
            return Self.window(endingAt: end, count: request.count)
        }
    }

    private static func window(endingAt end: Int, count: Int) -> (offset: Int, limit: Int) {
        let end = max(0, end)
        let offset = max(0, end - count)
        return (offset, end - offset)
    }

    /// The page for a response to a request at `offset` for `limit` items.
    /// - Returns: the page, with `nil` keys at the ends reached, `offset`
    ///   items before it, and the items after it when the response has a
    ///   total count.
    public func page(from response: OffsetPage<Item>, offset: Int, limit: Int) -> Page<Int, Item> {
        // Saturating: a backend that sends more items than asked for at an
        // offset near Int.max leads to a key whose next load is refused.
        let (sum, overflow) = offset.addingReportingOverflow(response.items.count)
        let end = overflow ? Int.max : sum
        let hasMore: Bool
        if let total = response.totalCount {
            hasMore = end < total
        } else {
            hasMore = !response.items.isEmpty && response.items.count >= limit
        }
        return Page(
            items: response.items,
            previousKey: direction != .forward && offset > 0 ? offset : nil,
            nextKey: direction != .reverse && hasMore ? end : nil,
            itemsBefore: offset,
            itemsAfter: response.totalCount.map { max(0, $0 - end) })
    }
}
