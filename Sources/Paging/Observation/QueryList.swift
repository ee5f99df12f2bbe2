public import Observation

/// A list whose query changes, a search box's: each query is paged by a
/// ``PagedList`` of its own, and the list shown is the last query's.
///
/// ```swift
/// let search = QueryList(query: "") { text in
///     ConnectionSource(client: client, document: launches, variables: ["search": .string(text)], as: Launch.self)
/// }
/// let typing = Debouncer(for: .milliseconds(300)) { text in search.switchTo(text) }
///
/// typing.send("fal")   // on every key; 300 ms after the last, the list switches once
/// // a view shows search.list.items, and search.isSwitching while the first page loads
/// ```
///
/// Guarantees:
/// - A switch is one generation change: the loads of the query shown before
///   are cancelled, a first page still loading for a query asked before the
///   last is cancelled and never shown, and only the last query's items are
///   ever shown.
/// - While the new query's first page loads, the items shown before stay
///   (``WhileLoading/keepPrevious``, the default) or the list clears at once
///   (``WhileLoading/clear``).
/// - Going back to a recent query shows its items at once, with no request,
///   then refreshes them as ``OnReturn`` says. The lists of the last
///   `capacity` queries shown are kept (least recently shown first to go),
///   and while a query's first page loads, its list too: one more than
///   `capacity` at most. A list over a store keeps following it while kept.
///
/// Typing fast should not switch on every key: a ``Debouncer`` in front of
/// ``switchTo(_:)`` sends only the text that stayed.
@MainActor
@Observable
public final class QueryList<
    Query: Hashable & Sendable, Key: Hashable & Sendable, Item: Identifiable & Sendable
>
where Item.ID: Sendable {
    /// What the list shows while a new query's first page loads.
    public enum WhileLoading: Sendable, Hashable {
        /// The items shown before stay until the first page arrives, then
        /// the new list replaces them in one change.
        case keepPrevious
        /// The new, empty list is shown at once, loading.
        case clear
    }

    /// What going back to a query whose list is kept does, once its items
    /// are shown.
    public enum OnReturn: Sendable, Hashable {
        /// Nothing: the items as they were kept (and as the store changed them).
        case keep
        /// ``PagedList/refresh()``, by the list's refresh policy.
        case refresh
        /// ``PagedList/refreshHead(maximumPages:)``: the first page spliced
        /// in, the rest kept.
        case refreshHead
    }

    /// The query whose items are shown.
    public private(set) var query: Query
    /// The query asked for last; while its first page loads under
    /// ``WhileLoading/keepPrevious``, it is not yet ``query``.
    public private(set) var requestedQuery: Query
    /// The list shown.
    public private(set) var list: PagedList<Key, Item>

    /// Whether a switch is under way: the query asked for last is not shown yet.
    public var isSwitching: Bool { requestedQuery != query }

    @ObservationIgnored private let makeSource: @Sendable (Query) -> any PageSource<Key, Item>
    @ObservationIgnored private let configuration: PagingConfiguration
    @ObservationIgnored private let capacity: Int
    @ObservationIgnored private let whileLoading: WhileLoading
    @ObservationIgnored private let onReturn: OnReturn
    /// The lists kept, by query.
    @ObservationIgnored private var lists: [Query: PagedList<Key, Item>] = [:]
    /// The queries kept, least recently shown first.
    @ObservationIgnored private var recency: [Query] = []

    /// Creates a list of a first query; nothing loads until asked.
    /// - Parameters:
    ///   - query: the first query.
    ///   - capacity: how many queries' lists are kept, 1 or more (values
    ///     below 1 keep 1).
    ///   - whileLoading: what a switch shows while the first page loads.
    ///   - onReturn: what going back to a kept query does.
    ///   - configuration: the configuration of every query's pager.
    ///   - source: the page source of a query.
    public init(
        query: Query, capacity: Int = 5, whileLoading: WhileLoading = .keepPrevious,
        onReturn: OnReturn = .refresh,
        configuration: PagingConfiguration = .default,
        source: @escaping @Sendable (Query) -> any PageSource<Key, Item>
    ) {
        self.makeSource = source
        self.configuration = configuration
        self.capacity = max(1, capacity)
        self.whileLoading = whileLoading
        self.onReturn = onReturn
        self.query = query
        self.requestedQuery = query
        let first = PagedList(pager: Pager(source: source(query), configuration: configuration))
        self.list = first
        lists[query] = first
        recency = [query]
    }

    /// The queries whose lists are kept, least recently shown first.
    ///
    /// A query is among them once its list has shown a first page (or knows
    /// the list is empty): not while its first page loads, nor after that
    /// page failed, as such a list is made again rather than shown when its
    /// query comes back. The query shown is the last of them once it has a
    /// page.
    /// - Complexity: O(*q*) for *q* queries kept.
    public var keptQueries: [Query] {
        recency.filter { query in lists[query].map(Self.hasLoaded) ?? false }
    }

    /// Shows another query's items: its kept list at once, or a new list
    /// whose first page loads now.
    /// - Parameter newQuery: the query.
    /// - Returns: the load the switch started (the first page, or the
    ///   refresh of a kept list); its value comes back once the list shows
    ///   it. Switching to the query shown does nothing; asking again for a
    ///   query whose first page is loading joins that load.
    /// - Complexity: O(*q*) for *q* queries kept, plus the load's.
    @discardableResult
    public func switchTo(_ newQuery: Query) -> PageLoad {
        let asked = requestedQuery
        requestedQuery = newQuery
        // Asked again while its first page loads: the same load.
        if asked == newQuery, newQuery != query, let loading = lists[newQuery] { return loading.loadNext() }
        // A first page still loading for a query asked before the last is not wanted any more.
        if asked != query, asked != newQuery { forget(asked) }
        guard newQuery != query else { return PageLoad([LoadFuture(result: .success(.loaded))]) }
        // The loads of the query shown are superseded; its items stay while they are shown, and a
        // list that never showed a page is not worth keeping.
        list.cancel()
        if !Self.hasLoaded(list) { forget(query, keepingShown: true) }
        if let kept = lists[newQuery], Self.hasLoaded(kept) {
            show(kept, for: newQuery)
            switch onReturn {
            case .keep: return PageLoad([LoadFuture(result: .success(.loaded))])
            case .refresh: return kept.refresh()
            case .refreshHead: return kept.refreshHead()
            }
        }
        forget(newQuery)
        let made = PagedList(pager: Pager(source: makeSource(newQuery), configuration: configuration))
        lists[newQuery] = made
        recency.append(newQuery)
        trim()
        let load = made.loadNext()
        guard whileLoading == .keepPrevious else {
            show(made, for: newQuery)
            return load
        }
        // Shown once its first page has come (or failed, which it then shows), unless asked no more.
        Task { @MainActor [weak self, weak made] in
            _ = try? await load.value
            if let self, let made { self.finishSwitch(to: made, for: newQuery) }
        }
        return load.then { @MainActor [weak self, weak made] in
            if let self, let made { self.finishSwitch(to: made, for: newQuery) }
        }
    }

    /// Whether a list has shown a first page (or knows its list is empty):
    /// a list that never did is made again rather than shown.
    private static func hasLoaded(_ list: PagedList<Key, Item>) -> Bool {
        let snapshot = list.pager.snapshot
        return !(snapshot.items.isEmpty && snapshot.hasNext)
    }

    /// Shows a list whose first page came, if its query is still the one asked for.
    private func finishSwitch(to made: PagedList<Key, Item>, for newQuery: Query) {
        guard requestedQuery == newQuery, query != newQuery, lists[newQuery] === made else { return }
        show(made, for: newQuery)
    }

    private func show(_ shown: PagedList<Key, Item>, for shownQuery: Query) {
        list = shown
        query = shownQuery
        recency.removeAll { $0 == shownQuery }
        recency.append(shownQuery)
        trim()
    }

    /// Cancels a query's list and lets it go (the shown one stays on screen until replaced).
    private func forget(_ forgotten: Query, keepingShown: Bool = false) {
        if !keepingShown { lists[forgotten]?.cancel() }
        lists.removeValue(forKey: forgotten)
        recency.removeAll { $0 == forgotten }
    }

    /// Lets the least recently shown lists go past the capacity; never the one shown, nor the
    /// one loading for the query asked last.
    private func trim() {
        while recency.count > capacity,
            let oldest = recency.first(where: { $0 != query && $0 != requestedQuery })
        {
            forget(oldest)
        }
    }
}
