public import Observation
import Synchronization

/// A paged list for user interfaces: an `@Observable` model on the main actor
/// that mirrors a ``Pager``'s snapshots.
///
/// ```swift
/// struct LaunchList: View {
///     @State var list = PagedList(source: LaunchesSource())
///
///     var body: some View {
///         List {
///             ForEach(list.items) { launch in
///                 LaunchRow(launch).onAppear { list.itemAppeared(launch) }
///             }
///             if list.isLoadingNext { Text("Loading…") }
///             else if list.hasNext { Button("Load more") { list.loadNext() } }
///         }
///         .refreshable { try? await list.refresh().value }
///     }
/// }
/// ```
///
/// Calls start their load at once and update the model before they return
/// (a "Load more" tap shows "Loading…" in the same frame); the model follows
/// every later snapshot of the pager.
@MainActor
@Observable
public final class PagedList<Key: Hashable & Sendable, Item: Identifiable & Sendable> where Item.ID: Sendable {
    /// The pager this list mirrors.
    @ObservationIgnored public let pager: Pager<Key, Item>

    /// The items, in list order.
    public private(set) var items: PagedItems<Item>
    /// The load states at both ends and of a refresh.
    public private(set) var loadStates: LoadStates
    /// Whether there may be items after the last one.
    public private(set) var hasNext: Bool
    /// Whether there may be items before the first one.
    public private(set) var hasPrevious: Bool
    /// What changed with the last snapshot applied, for animating it; `nil`
    /// when snapshots were skipped (the model caught up with a later one), in
    /// which case the whole list should be reloaded.
    public private(set) var lastChange: ListChange?
    /// The version of the snapshot shown.
    public private(set) var version: Int

    @ObservationIgnored private let subscription = Subscription()

    /// Creates a list that mirrors a pager.
    /// - Parameter pager: the pager.
    public init(pager: Pager<Key, Item>) {
        self.pager = pager
        let snapshot = pager.snapshot
        items = snapshot.items
        loadStates = snapshot.loadStates
        hasNext = snapshot.hasNext
        hasPrevious = snapshot.hasPrevious
        lastChange = snapshot.change
        version = snapshot.version
        let snapshots = pager.snapshots
        subscription.start(
            Task { @MainActor [weak self] in
                for await snapshot in snapshots {
                    self?.apply(snapshot)
                }
            })
    }

    /// Creates a list over a new pager.
    /// - Parameters:
    ///   - source: where pages come from.
    ///   - initialKey: the key of the first page.
    ///   - configuration: page sizes, prefetch, window, refresh policy.
    public convenience init(
        source: some PageSource<Key, Item>, initialKey: Key? = nil, configuration: PagingConfiguration = .default
    ) {
        self.init(pager: Pager(source: source, initialKey: initialKey, configuration: configuration))
    }

    /// Whether a load after the last item is in flight.
    public var isLoadingNext: Bool { loadStates.next.isLoading }
    /// Whether a load before the first item is in flight.
    public var isLoadingPrevious: Bool { loadStates.previous.isLoading }
    /// Whether the first load or a refresh is in flight.
    public var isRefreshing: Bool { loadStates.refresh.isLoading }

    /// Loads the page after the last item; see ``Pager/loadNext(count:)``.
    /// - Parameter count: how many items to ask for.
    /// - Returns: a handle to the load.
    @discardableResult
    public func loadNext(count: Int? = nil) -> PageLoad {
        following(pager.loadNext(count: count))
    }

    /// Loads the page before the first item; see ``Pager/loadPrevious(count:)``.
    /// - Parameter count: how many items to ask for.
    /// - Returns: a handle to the load.
    @discardableResult
    public func loadPrevious(count: Int? = nil) -> PageLoad {
        following(pager.loadPrevious(count: count))
    }

    /// Refreshes the list; see ``Pager/refresh()``.
    /// - Returns: a handle to the refresh.
    @discardableResult
    public func refresh() -> PageLoad {
        following(pager.refresh())
    }

    /// Repeats the failed loads; see ``Pager/retry()``.
    /// - Returns: a handle to the repeated loads.
    @discardableResult
    public func retry() -> PageLoad {
        following(pager.retry())
    }

    /// Empties the list; see ``Pager/reset()``.
    public func reset() {
        pager.reset()
        catchUp()
    }

    /// Cancels the loads in flight; see ``Pager/cancel()``.
    public func cancel() {
        pager.cancel()
        catchUp()
    }

    /// Reports that an item was shown, to prefetch near the ends.
    /// - Parameter item: the item shown.
    /// - Complexity: O(log *p* + *m*) for *p* pages of *m* items.
    public func itemAppeared(_ item: Item) {
        pager.itemAppeared(id: item.id)
        catchUp()
    }

    /// Reports that the item at an index was shown.
    /// - Parameter index: the index in ``items``.
    /// - Complexity: O(1).
    public func itemAppeared(at index: Int) {
        pager.itemAppeared(at: index)
        catchUp()
    }

    /// Replaces the item with the same id; see ``Pager/update(_:)``.
    /// - Returns: whether it was held.
    @discardableResult
    public func update(_ item: Item) -> Bool {
        defer { catchUp() }
        return pager.update(item)
    }

    /// Inserts an item; see ``Pager/insert(_:at:)``.
    /// - Returns: whether it was inserted.
    @discardableResult
    public func insert(_ item: Item, at position: InsertPosition<Item.ID>) -> Bool {
        defer { catchUp() }
        return pager.insert(item, at: position)
    }

    /// Removes the item with an id; see ``Pager/remove(id:)``.
    /// - Returns: the removed item, if it was held.
    @discardableResult
    public func remove(id: Item.ID) -> Item? {
        defer { catchUp() }
        return pager.remove(id: id)
    }

    /// Brings the model up to the pager's current snapshot.
    private func catchUp() {
        apply(pager.snapshot)
    }

    private func following(_ load: PageLoad) -> PageLoad {
        catchUp()
        return load
    }

    private func apply(_ snapshot: PagingSnapshot<Item>) {
        guard snapshot.version > version else { return }
        lastChange = snapshot.version == version + 1 ? snapshot.change : nil
        version = snapshot.version
        items = snapshot.items
        loadStates = snapshot.loadStates
        hasNext = snapshot.hasNext
        hasPrevious = snapshot.hasPrevious
    }
}

/// Holds the task that follows the snapshots, and cancels it when the list
/// goes away.
private final class Subscription: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ task: Task<Void, Never>) {
        self.task.withLock { $0 = task }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }
}
