public import Observation
import PagingLock

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
///             if list.isLoadingNext || list.isRefreshing { Text("Loading…") }
///             else if list.hasNext { Button("Load more") { list.loadNext() } }
///         }
///         .refreshable { try? await list.refresh().value }
///     }
/// }
/// ```
///
/// See <doc:HowThePagerWorks> for how it works in detail.
@MainActor
@Observable
public final class PagedList<Key: Hashable & Sendable, Item: Identifiable & Sendable>
where Item.ID: Sendable {
    /// The pager this list mirrors.
    @ObservationIgnored public let pager: Pager<Key, Item>

    /// The items, in list order.
    public private(set) var items: PagedItems<Item>
    /// The whole list as a screen with placeholders draws it
    /// (``PagingConfiguration/placeholders``): ``items`` between slots for the
    /// items not loaded. Without placeholders, ``items`` alone.
    ///
    /// With placeholders, ``lastChange``, ``takeChange()`` and
    /// ``change(since:)`` describe this list (its
    /// ``PagingSnapshot/presentedChange``), and ``itemAppeared(at:)`` and
    /// ``jump(to:)`` take its positions.
    public private(set) var presented: PresentedItems<Item>
    /// The load states at both ends and of a refresh.
    public private(set) var loadStates: LoadStates
    /// Whether there may be items after the last one.
    public private(set) var hasNext: Bool
    /// Whether there may be items before the first one.
    public private(set) var hasPrevious: Bool
    /// What the last main-actor turn that changed the list changed: every
    /// update shown in that turn (an edit, then a remove, then a page
    /// arriving), merged into one batch from the items at the turn's start
    /// (with placeholders, from the rows of ``presented``).
    ///
    /// A view that draws once per turn can apply it to the rows it drew. A
    /// view that may draw less often (after several turns) uses
    /// ``takeChange()``, which gives everything since it last asked, or
    /// ``change(since:)``.
    public private(set) var lastChange: ListChange
    /// The version of the snapshot shown.
    public private(set) var version: Int
    /// The last drift a page found (``PageDrift``): the list had moved under
    /// an offset or page-number source's keys; kept until the next one.
    public private(set) var lastDrift: PageDrift?
    /// How many pages found a drift since the pager was made.
    public private(set) var driftCount = 0
    /// The item an anchored refresh keeps in place
    /// (``refreshAroundAnchor()``): the last one reported shown
    /// (``itemAppeared(_:)``, ``itemAppeared(at:)``), followed through every
    /// change; once it leaves the list, the item that took its place, its
    /// nearest remaining neighbour. `nil` before any item was reported, or
    /// when the list is empty. Not observed: reading it does not make a view
    /// depend on every item shown.
    @ObservationIgnored public var anchor: Item.ID? { anchorTracker.id }
    /// Where ``anchor`` is, followed through the changes applied.
    @ObservationIgnored private var anchorTracker = ListAnchor<Item>()

    /// The changes shown, for ``change(since:)``, ``takeChange()`` and ``lastChange``.
    @ObservationIgnored private var history = ChangeHistory()
    /// Called with each snapshot the list shows, in order, as it shows it (the lists made by
    /// ``separated(by:)`` follow it so); a follower that answers `false` is gone, and is dropped.
    @ObservationIgnored var onShow: [(PagingSnapshot<Item>) -> Bool] = []

    @ObservationIgnored private let inbox: Inbox<Key, Item>
    @ObservationIgnored private let observerID: Int

    /// Creates a list that mirrors a pager.
    /// - Parameter pager: the pager.
    public init(pager: Pager<Key, Item>) {
        self.pager = pager
        let inbox = Inbox<Key, Item>()
        let (observerID, snapshot) = pager.addObserver { snapshot in
            // Called by the pager, in order, under its lock: queue the
            // snapshot; the first one queued schedules a drain.
            if inbox.push(snapshot) {
                Task { @MainActor in inbox.list?.drain() }
            }
        }
        self.inbox = inbox
        self.observerID = observerID
        items = PagedItems()
        presented = PresentedItems()
        loadStates = LoadStates()
        hasNext = true
        hasPrevious = true
        lastChange = ListChange()
        version = -1
        show([snapshot])
        inbox.list = self
    }

    deinit {
        pager.removeObserver(observerID)
    }

    /// Creates a list over a new pager.
    /// - Parameters:
    ///   - source: where pages come from.
    ///   - initialKey: the key of the first page.
    ///   - configuration: page sizes, prefetch, window, refresh policy.
    public convenience init(
        source: some PageSource<Key, Item>, initialKey: Key? = nil,
        configuration: PagingConfiguration = .default
    ) {
        self.init(pager: Pager(source: source, initialKey: initialKey, configuration: configuration))
    }

    /// Whether a load after the last item is in flight.
    /// - Complexity: O(1).
    public var isLoadingNext: Bool { loadStates.next.isLoading }
    /// Whether a load before the first item is in flight.
    /// - Complexity: O(1).
    public var isLoadingPrevious: Bool { loadStates.previous.isLoading }
    /// Whether the first load or a refresh is in flight.
    /// - Complexity: O(1).
    public var isRefreshing: Bool { loadStates.refresh.isLoading }

    /// Loads the page after the last item; see ``Pager/loadNext(count:)``.
    /// - Parameter count: how many items to ask for.
    /// - Returns: a handle to the load.
    /// - Complexity: O(1) to start; the page is applied in O(*m* + log *p*).
    @discardableResult
    public func loadNext(count: Int? = nil) -> PageLoad {
        following(pager.loadNext(count: count))
    }

    /// Loads the page before the first item; see ``Pager/loadPrevious(count:)``.
    /// - Parameter count: how many items to ask for.
    /// - Returns: a handle to the load.
    /// - Complexity: O(1) to start; the page is applied in O(*m* + log *p*).
    @discardableResult
    public func loadPrevious(count: Int? = nil) -> PageLoad {
        following(pager.loadPrevious(count: count))
    }

    /// Loads again the page around ``anchor`` and the next page in the
    /// direction it was loaded (after it; before it, for a page loaded
    /// backward); see ``Pager/refresh(around:)``. With no anchor, a
    /// ``refresh()``.
    /// - Returns: a handle to the refresh.
    /// - Complexity: two requests at most; applying is O(*k* log *k*) for
    ///   the *k* items loaded, plus O(*r*) for the *r* items removed beyond
    ///   the anchor's page, whatever the number held; see
    ///   ``Pager/refresh(around:)``.
    @discardableResult
    public func refreshAroundAnchor() -> PageLoad {
        guard let anchor else { return refresh() }
        return following(pager.refresh(around: anchor))
    }

    /// Refreshes the list; see ``Pager/refresh()``.
    /// - Returns: a handle to the refresh.
    /// - Complexity: O(1) to start; O(*n*) to apply *n* new items.
    @discardableResult
    public func refresh() -> PageLoad {
        following(pager.refresh())
    }

    /// Loads the first page and splices it in place of what it covers,
    /// keeping the items below it; see ``Pager/refreshHead(maximumPages:)``.
    /// - Parameter maximumPages: the most pages to load looking for the held items.
    /// - Returns: a handle to the refresh.
    /// - Complexity: one request a page loaded; applying is O(*h* log *h*)
    ///   for the *h* items loaded, plus O(*r* log *r*) for the *r* held
    ///   items the splice removes, whatever the number held; see
    ///   ``Pager/refreshHead(maximumPages:)``.
    @discardableResult
    public func refreshHead(maximumPages: Int = 3) -> PageLoad {
        following(pager.refreshHead(maximumPages: maximumPages))
    }

    /// Repeats the failed loads; see ``Pager/retry()``.
    /// - Returns: a handle to the repeated loads.
    /// - Complexity: O(1) to start.
    @discardableResult
    public func retry() -> PageLoad {
        following(pager.retry())
    }

    /// Empties the list; see ``Pager/reset()``.
    /// - Complexity: O(1), plus freeing what was held.
    public func reset() {
        pager.reset()
        catchUp()
    }

    /// Cancels the loads in flight; see ``Pager/cancel()``.
    /// - Complexity: O(1).
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
        // The pager's index is of its latest state; the list shows its snapshots a moment later.
        let index = pager.index(of: item.id).flatMap {
            items.indices.contains($0) && items[$0].id == item.id ? $0 : nil
        }
        anchorTracker.point(at: item.id, index: index ?? items.firstIndex { $0.id == item.id })
    }

    /// Reports that the item at an index was shown; see ``Pager/itemAppeared(at:)``.
    /// - Parameter index: the index in ``items``; with placeholders, the
    ///   position in ``presented`` (a placeholder shown loads towards it, or
    ///   jumps to it past the jump threshold).
    /// - Complexity: O(1).
    public func itemAppeared(at index: Int) {
        let held = pager.configuration.placeholders ? presented.heldIndex(forPresented: index) : index
        pager.itemAppeared(at: index)
        catchUp()
        if let held, items.indices.contains(held) { anchorTracker.point(at: items[held].id, index: held) }
    }

    /// Loads the page around a position of the whole list in place of
    /// everything held; see ``Pager/jump(to:)``. The model shows the page
    /// when the handle's `value` returns.
    /// - Parameter index: with placeholders, the position in ``presented``;
    ///   without, the index in the whole list.
    /// - Returns: a handle to the jump.
    /// - Complexity: one request; applying is O(*m* + *n*) for the *m* items
    ///   loaded and the *n* replaced.
    @discardableResult
    public func jump(to index: Int) -> PageLoad {
        following(pager.jump(to: index))
    }

    /// Replaces the item with the same id; see ``Pager/update(_:)``.
    /// - Returns: whether it was held.
    /// - Complexity: O(*m* + log *p*) for the page of *m* items holding it.
    @discardableResult
    public func update(_ item: Item) -> Bool {
        defer { catchUp() }
        return pager.update(item)
    }

    /// Inserts an item; see ``Pager/insert(_:at:)``.
    /// - Returns: whether it was inserted.
    /// - Complexity: O(*m* + log *p*).
    @discardableResult
    public func insert(_ item: Item, at position: InsertPosition<Item.ID>) -> Bool {
        defer { catchUp() }
        return pager.insert(item, at: position)
    }

    /// Removes the item with an id; see ``Pager/remove(id:)``.
    /// - Returns: the removed item, if it was held.
    /// - Complexity: O(*m* + log *p*).
    @discardableResult
    public func remove(id: Item.ID) -> Item? {
        defer { catchUp() }
        return pager.remove(id: id)
    }

    /// Applies a batch of edits as one change; see ``Pager/apply(_:)``.
    /// The model shows the batch when this returns.
    /// - Parameter edits: the edits, in the order to apply them.
    /// - Returns: the outcome of each edit.
    /// - Complexity: O(*k* (*m* + log *p*)) for *k* edits, plus O(*k*²)
    ///   when the batch inserts or removes.
    @discardableResult
    public func apply(_ edits: [PagerEdit<Item>]) -> [PagerEdit<Item>.Outcome] {
        defer { catchUp() }
        return pager.apply(edits)
    }

    /// Applies every snapshot the pager has published so far (called by the lists that follow
    /// this one, too).
    func catchUp() {
        drain()
    }

    /// Shows the state the call produced at once, and makes the handle's
    /// `value` return only once the model shows how the load ended.
    private func following(_ load: PageLoad) -> PageLoad {
        catchUp()
        return load.then { @MainActor [weak self] in self?.catchUp() }
    }

    /// The change from the items shown at an earlier version to the items
    /// shown now, as one batch update (see ``ListChange/merging(_:countBefore:)``).
    ///
    /// - Parameter version: a ``version`` the caller read earlier, such as
    ///   the one its view last drew.
    /// - Returns: the merged change (empty when nothing changed), or `nil`
    ///   when the version is not one this list showed within (at least) its
    ///   last 1,000 snapshots: then reload everything.
    /// - Complexity: O(*s* · *r*) for the *s* snapshots since `version` with
    ///   *r* changed ranges in all, whatever the number of items.
    public func change(since version: Int) -> ListChange? {
        history.change(since: version, upTo: self.version)
    }

    /// The merged change from the items the previous call saw (the first
    /// call: an empty list) to the items shown now: what a view applies to
    /// the rows it drew, however many updates and turns came between.
    ///
    /// ```swift
    /// if let change = list.takeChange() {
    ///     change.apply(to: &rows, from: list.items)  // rows == Array(list.items)
    /// } else {
    ///     rows = Array(list.items)  // too far behind: reload everything
    /// }
    /// ```
    ///
    /// - Returns: the change (empty when nothing changed), or `nil` when the
    ///   previous call saw a version this list no longer reaches back to
    ///   (more than 1,000 snapshots ago): then reload everything.
    /// - Complexity: O(*s* · *r*) for the *s* snapshots since the previous
    ///   call, with *r* changed ranges in all.
    public func takeChange() -> ListChange? {
        catchUp()
        return history.take(upTo: version)
    }

    fileprivate func drain() {
        show(inbox.takeAll())
    }

    /// Applies snapshots in order (those already shown are skipped); the
    /// observable properties change once.
    private func show(_ snapshots: [PagingSnapshot<Item>]) {
        var count = presented.count
        var applied: [ListChange] = []
        let countBefore = count
        var latest: PagingSnapshot<Item>?
        var shownVersion = version
        var shown: [PagingSnapshot<Item>] = []
        for snapshot in snapshots where snapshot.version > shownVersion {
            if !onShow.isEmpty { shown.append(snapshot) }
            anchorTracker.follow(snapshot.change, to: snapshot.items)
            if let drift = snapshot.drift { lastDrift = drift }
            history.record(from: shownVersion, countBefore: count, change: snapshot.presentedChange)
            applied.append(snapshot.presentedChange)
            count = snapshot.presented.count
            shownVersion = snapshot.version
            latest = snapshot
        }
        guard let latest else { return }
        // The turn's updates merged, from where the turn started.
        let turn = history.turnChange(
            applied: applied, countBefore: countBefore, shown: version, latest: shownVersion)
        lastChange = turn.change
        if turn.started {
            // Runs after this turn's job: the next update starts a new change.
            Task { @MainActor [weak self] in self?.history.turnStart = nil }
        }
        version = latest.version
        items = latest.items
        presented = latest.presented
        loadStates = latest.loadStates
        hasNext = latest.hasNext
        hasPrevious = latest.hasPrevious
        if driftCount != latest.driftCount { driftCount = latest.driftCount }
        for snapshot in shown {
            onShow.removeAll { follower in !follower(snapshot) }
        }
    }

    /// The snapshot the list shows now (its change: the last one shown).
    var shownSnapshot: PagingSnapshot<Item> {
        PagingSnapshot(
            items: items, loadStates: loadStates, hasNext: hasNext, hasPrevious: hasPrevious,
            change: lastChange, driftCount: driftCount, version: version,
            placeholdersBefore: presented.placeholdersBefore, placeholdersAfter: presented.placeholdersAfter)
    }
}

/// The snapshots a pager published that its list has not applied yet.
private final class Inbox<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    private struct State {
        var snapshots: [PagingSnapshot<Item>] = []
        weak var list: PagedList<Key, Item>?
    }

    private let state = Lock(State())

    /// The list the snapshots are for.
    var list: PagedList<Key, Item>? {
        get { state.withLock { $0.list } }
        set { state.withLock { $0.list = newValue } }
    }

    /// Queues a snapshot; returns whether the queue was empty (so a drain
    /// must be scheduled).
    func push(_ snapshot: PagingSnapshot<Item>) -> Bool {
        state.withLock { state in
            state.snapshots.append(snapshot)
            return state.snapshots.count == 1
        }
    }

    /// Takes every queued snapshot, oldest first.
    func takeAll() -> [PagingSnapshot<Item>] {
        state.withLock { state in
            defer { state.snapshots = [] }
            return state.snapshots
        }
    }
}
