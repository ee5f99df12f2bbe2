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

    /// This source made ready for one new pager: the source that pager loads
    /// from.
    ///
    /// ``Pager/init(source:initialKey:configuration:)`` calls this once,
    /// before anything loads, and keeps the source it returns as long as the
    /// pager lives. Every way of making a pager goes through that
    /// initializer (``makePager(initialKey:configuration:)``,
    /// ``makeList(initialKey:configuration:)``, ``PagedList``, generic code
    /// over `some PageSource`), so what a source does here applies to all.
    /// The default implementation returns `self`.
    ///
    /// Implement it when a source keeps something for each pager made over
    /// it. PagingGraphQL's store-backed sources return a copy that holds a
    /// follower of the store: it learns each page in ``load(_:)`` and turns
    /// a changed record into one batch of the pager's local edits
    /// (``Pager/apply(_:)``), reaching the pager through `pager`. A source
    /// that wraps another with the same `Key` and `Item` should return itself
    /// over its base's prepared source; ``TransformedPageSource`` does not
    /// (its items are not its base's), so a pager over a transformed source
    /// does not follow what its base would.
    ///
    /// ```swift
    /// struct LoggingSource<Base: PageSource>: PageSource {
    ///     let base: Base
    ///     func load(_ request: PageRequest<Base.Key>) async throws -> Page<Base.Key, Base.Item> {
    ///         print(request)
    ///         return try await base.load(request)
    ///     }
    ///     func prepared<Element>(for pager: @escaping @Sendable () -> Pager<Base.Key, Element>?) -> Self {
    ///         LoggingSource(base: base.prepared(for: pager))
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter pager: returns the pager being made; `nil` until its
    ///   initializer has returned (so not during this call) and once it is
    ///   deinitialized. Hold it, not the pager, so that the pager can go.
    ///   Its items are this source's items (`Element` is `Item`, which the
    ///   protocol cannot state, as `Item` need not be `Identifiable`).
    /// - Returns: the source the new pager loads from.
    /// - Complexity: O(1) for the default implementation.
    func prepared<Element: Identifiable & Sendable>(
        for pager: @escaping @Sendable () -> Pager<Key, Element>?
    ) -> Self where Element.ID: Sendable
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
