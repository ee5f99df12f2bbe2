/// Pages a newest-first list from an API that returns the last *n* entries
/// ordered by key up to and including a key: Firebase's
/// `queryOrderedByKey().queryLimited(toLast: n).queryEnding(atValue: key)`,
/// the query of Makestagram's timeline.
///
/// ```swift
/// let source = InclusiveBoundarySource<String, Post> { limit, endAt in
///     // GET /timeline.json?orderBy="$key"&limitToLast=limit&endAt="endAt"
///     try await firebase.timeline(limitToLast: limit, endAt: endAt)   // ascending by key
/// }
/// ```
///
/// The API returns entries in ascending key order; the source shows them
/// newest first. As the boundary is inclusive, every page after the first
/// repeats the oldest entry of the page before: the source asks for one entry
/// more than the page size and drops that boundary entry, so each page brings
/// a full page of new items. A page that comes back shorter than asked for is
/// the last. The source pages forward (towards older entries) only.
public struct InclusiveBoundarySource<Key: Hashable & Comparable & Sendable, Item: Sendable>: PageSource {
    /// An entry of the list: its key and its item.
    public typealias Entry = (key: Key, item: Item)

    private let fetch: @Sendable (_ limitToLast: Int, _ endAt: Key?) async throws -> [Entry]

    /// Creates a source.
    /// - Parameter fetch: returns the last `limitToLast` entries with keys up
    ///   to and including `endAt` (all keys when `nil`), in ascending key order.
    public init(fetch: @escaping @Sendable (_ limitToLast: Int, _ endAt: Key?) async throws -> [Entry]) {
        self.fetch = fetch
    }

    /// Loads a page.
    /// - Throws: what `fetch` throws, or ``PagingError`` with code
    ///   ``PagingError/Code/invalidArgument`` for a request before the first
    ///   page or a count of `Int.max`.
    public func load(_ request: PageRequest<Key>) async throws -> Page<Key, Item> {
        switch request.position {
        case .initial(let key):
            // An initial key is an anchor to show, so it is kept.
            let entries = try await fetch(request.count, key)
            return Self.page(entries.sorted { $0.key < $1.key }, asked: request.count, boundary: nil)
        case .next(let boundary):
            // One more than asked: the boundary entry comes back again.
            guard request.count < Int.max else {
                throw PagingError.invalidArgument(
                    "a count of \(request.count) leaves no room for the boundary entry; ask for fewer items")
            }
            let entries = try await fetch(request.count + 1, boundary)
            return Self.page(entries.sorted { $0.key < $1.key }, asked: request.count + 1, boundary: boundary)
        case .previous:
            throw PagingError.invalidArgument(
                "InclusiveBoundarySource pages towards older entries only; it cannot load \(request)")
        }
    }

    /// The page for entries in ascending key order: newest first, without the
    /// boundary entry, ending when fewer entries came back than were asked for.
    private static func page(_ ascending: [Entry], asked: Int, boundary: Key?) -> Page<Key, Item> {
        let isLast = ascending.count < asked
        let nextKey = isLast ? nil : ascending.first?.key
        let items = ascending.reversed().filter { entry in boundary.map { entry.key != $0 } ?? true }.map(
            \.item)
        return Page(items: items, previousKey: nil, nextKey: nextKey)
    }
}
