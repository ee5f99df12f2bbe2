/// Anything a list can be paged from: one asynchronous, throwing load of a
/// ``PageRequest`` that returns a ``Page``.
///
/// A source knows its backend; the ``Pager`` knows everything else (which
/// page is loading, what is held, what to load next). Conform a type of your
/// own, use ``ClosurePageSource`` for one-off use, or one of the strategies
/// (``RelayCursorSource``, ``HasMoreCursorSource``, ``OffsetSource``,
/// ``InclusiveBoundarySource``, ``PageNumberSource``, ``NextTokenSource``)
/// that turn a backend's page shape into keys.
///
/// ```swift
/// struct NumbersSource: PageSource {
///     func load(_ request: PageRequest<Int>) async throws -> Page<Int, Int> {
///         let start = request.key ?? 0
///         let items = Array(start..<min(start + request.count, 100))
///         return Page(items: items, nextKey: items.last.map { $0 + 1 < 100 ? $0 + 1 : nil } ?? nil)
///     }
/// }
/// ```
///
/// A source that wraps another passes each request on as it is, or, when it
/// asks its base for another position, as ``PageRequest/forwarded(to:count:)``
/// makes it: the request carries what the pager lends the load, so that a
/// store-backed source of PagingGraphQL follows its store for the pager
/// through any wrapper (``TransformedPageSource``, PagingSQLite's
/// `OfflineFirstSource`, one of your own).
///
/// Cancellation: the pager cancels the task that runs `load` when the load is
/// no longer wanted (a reset, a refresh, ``Pager/cancel()``). A source should
/// stop its work and throw `CancellationError`; whatever it returns or throws
/// after that is ignored.
public protocol PageSource<Key, Item>: Sendable {
    /// The type of the keys that locate pages: a cursor, an offset, a page
    /// number, a token.
    associatedtype Key: Hashable & Sendable
    /// The type of the items of the list.
    associatedtype Item: Sendable

    /// Loads the page a request describes.
    /// - Parameter request: the position and the number of items wanted.
    /// - Returns: the page, with the keys of its neighbours.
    /// - Throws: any error of the backend; the pager keeps what it had loaded
    ///   and reports the error in its load states.
    func load(_ request: PageRequest<Key>) async throws -> Page<Key, Item>

    /// Whether the source checks its keys against the held items next to
    /// each page (``PageRequest/heldBefore``, ``PageRequest/heldAfter``),
    /// which the pager then lends it; `false` by default, and the pager does
    /// not gather them. An ``OffsetSource`` of `Identifiable` items does.
    var checksHeldItems: Bool { get }
}

extension PageSource {
    /// `false`: the source does not look at the held items next to a page.
    public var checksHeldItems: Bool { false }
}

/// A ``PageSource`` made of a closure, for one-off use.
///
/// ```swift
/// let source = ClosurePageSource<Int, String> { request in
///     let page = try await api.items(after: request.key, limit: request.count)
///     return Page(items: page.items, nextKey: page.next)
/// }
/// ```
public struct ClosurePageSource<Key: Hashable & Sendable, Item: Sendable>: PageSource {
    private let body: @Sendable (PageRequest<Key>) async throws -> Page<Key, Item>

    /// Creates a source that loads a page by calling `load`.
    /// - Parameter load: the closure that loads a page.
    public init(_ load: @escaping @Sendable (PageRequest<Key>) async throws -> Page<Key, Item>) {
        self.body = load
    }

    /// Loads a page by calling the closure.
    public func load(_ request: PageRequest<Key>) async throws -> Page<Key, Item> {
        try await body(request)
    }
}
