import PagingLock

/// Pages through a list from any ``PageSource``: loads at both ends, joins
/// repeated calls, cancels what a refresh or reset makes stale, keeps what was
/// loaded when a load fails, prefetches near the edges, bounds what it holds,
/// drops duplicates, and publishes a ``PagingSnapshot`` on every change.
///
/// ```swift
/// let pager = Pager(source: LaunchesSource())
/// try await pager.loadNext().value      // the first page
/// for await snapshot in pager.snapshots {
///     render(snapshot.items, footer: snapshot.loadStates.next)
/// }
/// ```
///
/// See <doc:HowThePagerWorks> for how it works in detail.
public final class Pager<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    private struct Driver {
        var machine: PagerStateMachine<Key, Item>
        var futures: [Int: LoadFuture] = [:]
        var tasks: [Int: Task<Void, Never>] = [:]
        var subscribers: [Int: AsyncStream<PagingSnapshot<Item>>.Continuation] = [:]
        /// Observers called with each snapshot, in order, under the lock.
        var observers: [Int: @Sendable (PagingSnapshot<Item>) -> Void] = [:]
        /// Handlers called with each snapshot once the lock is released.
        var changeHandlers: [Int: @Sendable (PagingSnapshot<Item>) -> Void] = [:]
        var nextSubscriber = 0
        /// Responses taken in so far, and who waits for a number of them.
        var delivered = 0
        var deliveryWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let source: any PageSource<Key, Item>
    private let driver: Lock<Driver>
    /// What the pager lends each load: what its sources keep for it (a
    /// follower of a store), and its rows.
    private let load: PagerLoadContext
    /// What the pager's sources keep for it (the load context holds it weakly).
    private let attachments = PagerAttachments()

    /// The configuration the pager was made with.
    public let configuration: PagingConfiguration
    /// Whether the source answers a request again with the items at that
    /// place now (it is a ``ReloadablePageSource``), as an anchored refresh needs.
    private let reloadable: Bool
    /// Whether the source can load the page at any position of the list
    /// (a ``JumpablePageSource`` whose ``JumpablePageSource/canJump``): what
    /// ``jump(to:)`` needs.
    public let canJump: Bool

    /// Creates a pager. Nothing loads until a load is asked for.
    ///
    /// Each request the pager sends carries what it lends the load: a
    /// store-backed source of PagingGraphQL keeps its follower of the store
    /// for this pager there, found through any wrapper that passes the
    /// request on (see ``PageRequest/forwarded(to:count:)``), and released
    /// with the pager.
    /// - Parameters:
    ///   - source: where pages come from.
    ///   - initialKey: the key of the first page (to open a list in the
    ///     middle, at a deep link); `nil` starts where the source starts.
    ///   - configuration: page sizes, prefetch, window, refresh policy.
    /// - Complexity: O(1).
    public init(
        source: some PageSource<Key, Item>, initialKey: Key? = nil,
        configuration: PagingConfiguration = .default
    ) {
        // The loads reach the pager weakly, once the pager exists.
        let reference = WeakReference<Pager>()
        self.source = source
        self.reloadable = source is any ReloadablePageSource
        self.load = PagerLoadContext(attachments: attachments, rows: PagerRows(reference))
        self.configuration = configuration
        var machine = PagerStateMachine<Key, Item>(configuration: configuration, initialKey: initialKey)
        machine.lendsHeldItems = source.checksHeldItems
        if let jumpable = source as? any JumpablePageSource<Key, Item>, jumpable.canJump {
            machine.jumpKey = { jumpable.key(forIndex: $0) }
        }
        self.canJump = machine.jumpKey != nil
        self.driver = Lock(Driver(machine: machine))
        reference.object = self
    }

    deinit {
        let (tasks, subscribers, futures) = driver.withLock {
            ($0.tasks.values, $0.subscribers.values, $0.futures.values)
        }
        for task in tasks { task.cancel() }
        for subscriber in subscribers { subscriber.finish() }
        // A load awaited after its pager is gone ends as cancelled: no one
        // is left to deliver it.
        for future in futures { future.fulfill(.success(.cancelled)) }
    }

    // MARK: Reading

    /// The current snapshot: items, load states, and the last change.
    /// - Complexity: O(1).
    public var snapshot: PagingSnapshot<Item> {
        driver.withLock { $0.machine.snapshot }
    }

    /// The items held.
    /// - Complexity: O(1).
    public var items: PagedItems<Item> { driver.withLock { $0.machine.items } }

    /// The load states at both ends and of a refresh.
    /// - Complexity: O(1).
    public var loadStates: LoadStates { driver.withLock { $0.machine.loadStates } }

    /// Whether there may be items after the last one held (`true` before the
    /// first load, and while dropped pages wait to be reloaded).
    /// - Complexity: O(1).
    public var hasNext: Bool { driver.withLock { $0.machine.hasNext } }

    /// Whether there may be items before the first one held.
    /// - Complexity: O(1).
    public var hasPrevious: Bool { driver.withLock { $0.machine.hasPrevious } }

    /// The key of the page after the last page held, as its source returned
    /// it: where paging forward continues, for instance to resume an export
    /// later with a new pager opened at it. `nil` before the first load and
    /// at the end.
    /// - Complexity: O(1).
    public var nextKey: Key? { driver.withLock { $0.machine.edgeKeys.next } }

    /// The key of the page before the first page held, as its source
    /// returned it; `nil` before the first load and at the start.
    /// - Complexity: O(1).
    public var previousKey: Key? { driver.withLock { $0.machine.edgeKeys.previous } }

    /// Whether a load after the last item is in flight.
    /// - Complexity: O(1).
    public var isLoadingNext: Bool { loadStates.next.isLoading }

    /// Whether a load before the first item is in flight.
    /// - Complexity: O(1).
    public var isLoadingPrevious: Bool { loadStates.previous.isLoading }

    /// The index of the item with an id, if it is held.
    /// - Complexity: O(log *p* + *m*) for *p* pages of *m* items.
    public func index(of id: Item.ID) -> Int? {
        driver.withLock { $0.machine.index(of: id) }
    }

    /// The number of requests started so far (for tests that wait until
    /// every started load has reached the source).
    package var startedRequestCount: Int { driver.withLock { $0.machine.requestCounter } }

    /// The invariants of the pager's state that do not hold now, each said in a sentence, however
    /// many items are held (a debug build checks them after every event, for lists of up to
    /// 4,096 items): for the model-based tests.
    /// - Complexity: O(*n*) for *n* items held.
    package var invariantViolations: [String] { driver.withLock { $0.machine.invariantViolations() } }

    /// The number of responses delivered so far, as ``waitUntilDelivered(_:)`` counts them.
    package var deliveredCount: Int { driver.withLock { $0.delivered } }

    /// Waits until `count` responses in all have been taken in (applied or
    /// found stale) and have had what each set off run (its change
    /// handlers, such as a store follower's edits; the futures of its
    /// loads), for tests that must know an answer reached the pager even
    /// when it changed nothing. Responses count as their handlers finish,
    /// which may be out of order: wait for every response started (as the
    /// model-based tests do) to know that all of them are done.
    package func waitUntilDelivered(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = driver.withLock { driver in
                guard driver.delivered < count else { return true }
                driver.deliveryWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Registers an observer called with every later snapshot, in order, while
    /// the pager's lock is held: it must only hand the snapshot on (the list
    /// model queues it). Returns the observer's id and the current snapshot,
    /// taken atomically with the registration so that none is missed.
    package func addObserver(_ observer: @escaping @Sendable (PagingSnapshot<Item>) -> Void) -> (
        Int, PagingSnapshot<Item>
    ) {
        driver.withLock { driver in
            let id = driver.nextSubscriber
            driver.nextSubscriber += 1
            driver.observers[id] = observer
            return (id, driver.machine.snapshot)
        }
    }

    /// Removes an observer.
    package func removeObserver(_ id: Int) {
        _ = driver.withLock { $0.observers.removeValue(forKey: id) }
    }

    /// Registers a handler called after every later change, once the
    /// pager's lock is released, on the thread that made the change: after
    /// a page is taken in, before the callers waiting for its load resume.
    /// Unlike an observer, it may call the pager (to edit what just
    /// arrived); changes made on several threads at once may reach it
    /// concurrently and out of order, so it reads what it needs again
    /// rather than trusting the snapshot to be the latest.
    /// - Parameter handler: called with the snapshot of each change.
    /// - Returns: the handler's id, for ``removeChangeHandler(_:)``.
    /// - Complexity: O(1).
    package func addChangeHandler(_ handler: @escaping @Sendable (PagingSnapshot<Item>) -> Void) -> Int {
        driver.withLock { driver in
            let id = driver.nextSubscriber
            driver.nextSubscriber += 1
            driver.changeHandlers[id] = handler
            return id
        }
    }

    /// Removes a change handler.
    /// - Parameter id: the id ``addChangeHandler(_:)`` returned.
    /// - Complexity: O(1).
    package func removeChangeHandler(_ id: Int) {
        _ = driver.withLock { $0.changeHandlers.removeValue(forKey: id) }
    }

    /// Every snapshot from now on, starting with the current one.
    ///
    /// Each access makes a new stream; each stream gets every snapshot, in
    /// order, buffered without limit (snapshots share storage, so a buffer of
    /// many is cheap). The stream ends when the pager is deinitialized, or
    /// stops when its task is cancelled.
    /// - Complexity: O(1) to subscribe and O(1) to publish each snapshot to each stream.
    public var snapshots: AsyncStream<PagingSnapshot<Item>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: PagingSnapshot<Item>.self, bufferingPolicy: .unbounded)
        let id = driver.withLock { driver in
            let id = driver.nextSubscriber
            driver.nextSubscriber += 1
            driver.subscribers[id] = continuation
            continuation.yield(driver.machine.snapshot)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.driver.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    // MARK: Loading

    /// Loads the page after the last item, or joins the load in flight there.
    ///
    /// Before anything is loaded, this makes the first load. While a refresh
    /// is in flight, it joins the refresh. After a failure at this end it
    /// tries the same request again.
    ///
    /// - Parameter count: how many items to ask for; the configuration's page
    ///   size (initial load size for the first load) when `nil`.
    /// - Returns: a handle to the load; its ``PageLoad/value`` is
    ///   ``LoadOutcome/endReached`` at once when there is nothing more.
    /// - Complexity: O(1) to start; applying the page is O(*m* + log *p*) for
    ///   a page of *m* items and *p* pages held, whatever the number of items.
    @discardableResult
    public func loadNext(count: Int? = nil) -> PageLoad {
        admit { $0.load(.next, count: count) }
    }

    /// Loads the page before the first item, or joins the load in flight
    /// there. Otherwise like ``loadNext(count:)``.
    /// - Parameter count: how many items to ask for.
    /// - Returns: a handle to the load.
    /// - Complexity: O(1) to start; O(*m* + log *p*) to apply.
    @discardableResult
    public func loadPrevious(count: Int? = nil) -> PageLoad {
        admit { $0.load(.previous, count: count) }
    }

    /// Loads pages after the last item until the end is reached or
    /// `maxPages` pages have loaded.
    /// - Parameter maxPages: the most pages this call loads.
    /// - Returns: ``LoadOutcome/endReached`` when the end was reached,
    ///   ``LoadOutcome/loaded`` when `maxPages` pages loaded first, or
    ///   ``LoadOutcome/cancelled``.
    /// - Throws: ``PagingError`` at the first failed load; what was loaded is kept.
    /// - Complexity: O(*k* (*m* + log *p*)) for *k* pages of *m* items loaded, *p* pages held.
    public func loadAll(maxPages: Int = .max) async throws(PagingError) -> LoadOutcome {
        guard maxPages >= 1 else {
            throw .invalidArgument("maxPages is \(maxPages), but loadAll loads at least 1 page")
        }
        var loaded = 0
        while loaded < maxPages {
            switch try await loadNext().value {
            case .loaded: loaded += 1
            case .endReached: return .endReached
            case .cancelled: return .cancelled
            case .nothingToRetry: return .loaded
            }
        }
        return .loaded
    }

    /// Loads the list again, keeping the current items visible until the new
    /// ones replace them in one change.
    ///
    /// Cancels the loads in flight (their callers get
    /// ``LoadOutcome/cancelled``); a refresh already in flight starts over,
    /// and its callers wait for the new one. What is loaded follows
    /// ``PagingConfiguration/refreshPolicy``; with placeholders, a restart
    /// over a source that can jump loads the page around the position last
    /// shown (``PagingConfiguration/RefreshPolicy/restart``). Local edits
    /// made while it is in flight show at once, and are replaced by its
    /// pages, but for those marked ``PagerEdit/survivingRefresh()``, which
    /// are applied to the pages before they swap in.
    /// - Returns: a handle to the refresh.
    /// - Complexity: O(1) to start; applying the new pages is O(*n*) for the *n* items they bring.
    @discardableResult
    public func refresh() -> PageLoad {
        admit { $0.refresh() }
    }

    /// Loads the first page of the list and puts it in place of what it
    /// covers, keeping the rest: what a feed or a chat whose new items come
    /// at the top needs, in one request.
    ///
    /// Where the first page reaches the held items (it holds one of them,
    /// surely: see below), its items take the place of the held ones from
    /// the first down to the last it holds: items new at the top are
    /// inserted, items both hold are updated in place (when they changed,
    /// for `Equatable` items; always otherwise), held items the page leaves
    /// out there are removed, and a row moves only when the order changed.
    /// The pages below are kept as they are, with no request. The change
    /// set says exactly that, so a table keeps its scroll position below the
    /// change.
    ///
    /// A first page that reaches none of the held items is followed by the
    /// page after it, up to `maximumPages` pages; so is one that reaches
    /// them unsurely: the held rows it leaves out above the last one it
    /// holds could keep more rows in place than its alignment does, were
    /// they just below it (the rows it holds may be ones that moved up, a
    /// post whose sort key changed among new ones). When no page reaches
    /// the list surely, the list restarts with the pages loaded, and paging
    /// on brings back the rows held below: a head refresh never drops for
    /// good a row that did not move. With nothing held, it is a first load.
    ///
    /// Any source can be refreshed this way: the splice goes by the items'
    /// identities, and the pages come from the source's first page on
    /// (`PageRequest.Position.initial(nil)`), whatever key the list was
    /// opened at. The head is the source's first page: for a chat paged
    /// backward from its newest messages, that page is the newest, at the
    /// bottom, with nothing after it, so the list becomes that page; refresh
    /// a chat around the newest message (``refresh(around:)``) or by
    /// refetching instead. Cancels the loads in flight, as ``refresh()`` does.
    /// An item inserted at the top while it is in flight with an edit marked
    /// ``PagerEdit/survivingRefresh()`` (an item a subscription announced)
    /// stays at the top, above the head, unless the head holds it already:
    /// what a live list needs when it reattaches after a reconnection.
    /// ``PagingConfiguration/RefreshPolicy/reattachHead(maximumPages:)``
    /// makes ``refresh()`` do this.
    /// - Parameter maximumPages: the most pages to load looking for the held
    ///   items; at least 1.
    /// - Returns: a handle to the refresh; it fails with
    ///   ``PagingError/Code/invalidArgument`` for a `maximumPages` below 1.
    /// - Complexity: one request a page loaded; applying is O(*h* log *h*)
    ///   expected for the *h* items loaded, plus O(*m* + log *p*) for each
    ///   held page of *m* items (out of *p*) that holds one of them, plus
    ///   O(*r* log *r*) for the *r* held items the splice removes (those
    ///   the head covers and the window then drops), whatever the number
    ///   held: the pages below are kept as they are, not rebuilt. When the
    ///   head does not reach the list, or reaches its end, the list becomes
    ///   the head: O(*n*) for the *n* items held.
    @discardableResult
    public func refreshHead(maximumPages: Int = 3) -> PageLoad {
        admit { $0.refreshHead(maximumPages: maximumPages) }
    }

    /// Notes that the list may be missing items at its top from now on, until a head refresh
    /// swaps in: the items that edits marked ``PagerEdit/survivingRefresh()`` insert from now on
    /// (a live list's events, arriving after its stream came back) are not taken for the place
    /// where that head refresh reaches the rows held before. For `PagingGraphQLClient`'s
    /// `LiveList`, which calls it each time its subscription is sent again.
    /// - Complexity: O(1).
    package func owesHeadRefresh() {
        driver.withLock { $0.machine.owesHeadRefresh() }
    }

    /// Loads again the page that holds an item, and the page after it, and
    /// puts them in place of that page and of what lies beyond it: where the
    /// user is reading item 5,000, the list refreshes there, not from the
    /// top.
    ///
    /// The page is asked for after the key where the rows kept above it end
    /// (the key of the page before it; its own request when it is the
    /// first), so the source must answer a key with that place as it is now
    /// (``ReloadablePageSource``: cursors, keyset boundaries, offsets, page
    /// numbers); over any other source the refresh fails with
    /// ``PagingError/Code/unsupportedOperation`` and nothing changes. The
    /// pages on the near side of the anchor's page (before it, for a page
    /// loaded forward; after it, for one loaded backward, as a chat's) stay
    /// as they are with no request, so the anchor keeps its place but for
    /// what really changed in its own page; the pages beyond the two loaded
    /// are dropped, and load again from the fresh keys as the user scrolls.
    /// Rows in both keep their places (the change set moves only what
    /// moved), changed ones are updated, gone ones removed.
    ///
    /// When those two pages do not hold the anchor (its sort key moved it,
    /// or it is gone), the refresh reads the near side again, where a moved
    /// anchor went: from the page next to the anchor's through one past it,
    /// then, if the anchor is still not there, from the first near page
    /// loaded in the same direction. The last attempt's pages are put in
    /// place. An anchor that moved within the rows held is found, and
    /// ``PagedList/anchor`` follows it to its new place; one that moved past
    /// the pages loaded comes back as the list pages on. When the anchor is
    /// gone, the item that took its place is where the list stands.
    ///
    /// Cancels the loads in flight, as ``refresh()`` does.
    /// - Parameter anchor: the id of a held item, such as the last one shown.
    /// - Returns: a handle to the refresh; it fails with
    ///   ``PagingError/Code/invalidArgument`` when the item is not held.
    /// - Complexity: two requests (one when the anchor's page is the last in
    ///   its direction); when they do not hold the anchor, three more, then
    ///   at most *n* + 2 more for the *n* pages held on the near side (the
    ///   near side's pages loaded in the same direction). Asking is O(*p*) for the *p* pages held (the keys of
    ///   those kept). Applying is O(*k* log *k*) expected for the *k* items
    ///   loaded, plus O(*m* + log *p*) for each held page of *m* items that
    ///   holds one of them, plus O(*r*) for the *r* items removed beyond the
    ///   near side: the near side's pages stay as they are and are not
    ///   compared, and the far side goes as ranges of removed rows.
    @discardableResult
    public func refresh(around anchor: Item.ID) -> PageLoad {
        let reloadable = reloadable
        return admit { $0.refresh(around: anchor, reloadable: reloadable) }
    }

    /// Repeats exactly the requests that failed: the refresh's, or else the
    /// one at each failed end.
    /// - Returns: a handle to the repeated loads; its value is
    ///   ``LoadOutcome/nothingToRetry`` when nothing had failed.
    /// - Complexity: O(1) to start; applying is that of the load repeated.
    @discardableResult
    public func retry() -> PageLoad {
        transact { driver in
            let (admissions, effects) = driver.machine.retry()
            return (PageLoad(admissions.map { Self.future(for: $0, in: &driver) }), effects)
        }
    }

    /// Empties the list and cancels every load; the next load is a first load.
    /// - Complexity: O(1), plus freeing what was held.
    public func reset() {
        send { $0.reset() }
    }

    /// Cancels every load in flight and keeps the items. The callers waiting
    /// get ``LoadOutcome/cancelled``.
    /// - Complexity: O(1).
    public func cancel() {
        send { $0.cancel() }
    }

    /// Reports that the item at an index was shown. When it lies within the
    /// prefetch distance of an end that has more, that end loads. An end whose
    /// last load failed waits for ``retry()`` or an explicit load.
    ///
    /// With placeholders (``PagingConfiguration/placeholders``), the index is
    /// a position in the presented list (``PagingSnapshot/presented``). A
    /// placeholder shown loads towards it from the end it lies beyond, page
    /// after page; one farther from the items held than
    /// ``PagingConfiguration/jumpThreshold`` is jumped to (``jump(to:)``). A
    /// source that cannot jump then loads nothing, and the refresh's load
    /// state fails with ``PagingError/Code/unsupportedOperation`` until
    /// ``retry()``, a refresh or a reset.
    /// - Parameter index: the item's index in the current items (with
    ///   placeholders, its position in the presented list); indices out of
    ///   range are ignored.
    /// - Complexity: O(1).
    public func itemAppeared(at index: Int) {
        let presented = configuration.placeholders
        send { presented ? $0.itemAppeared(atPresented: index) : $0.itemAppeared(at: index) }
    }

    /// Loads the page around a position of the whole list and puts it in
    /// place of everything held: the way to a far position (the end of a
    /// list of a million, row 500 typed in) without loading the pages
    /// between.
    ///
    /// With placeholders (``PagingConfiguration/placeholders``), the position
    /// is one of the presented list (``PagingSnapshot/presented``), and the
    /// screen's rows do not move: the page fills the placeholders at its
    /// place, and what was held becomes placeholders, all as rows updated.
    /// Without, it is the index of the item in the whole list, counted from
    /// its start, and the items held are replaced.
    ///
    /// One request, for ``PagingConfiguration/jumpLoadSize`` items with the
    /// position in their middle (kept within the list's total when the pages
    /// held tell it), so that no prefetch follows unless the position is near
    /// an end of the list. As a refresh does, it cancels every load in
    /// flight (their callers are told so) and nothing started before it is
    /// applied; edits marked ``PagerEdit/survivingRefresh()`` meanwhile are
    /// applied to its page. A jump asked for while one loads a page that
    /// holds the position too waits for that one. A position held already
    /// loads nothing and counts as shown (``itemAppeared(at:)``).
    /// - Parameter index: the position; past the end of a list whose total
    ///   is known, the last one.
    /// - Returns: a handle to the jump. It fails with
    ///   ``PagingError/Code/unsupportedOperation`` when the source cannot
    ///   jump (``canJump``; a cursor or keyset source, an ``OffsetSource``
    ///   that pages one way), with ``PagingError/Code/invalidArgument`` for
    ///   a negative position, and as the request failed otherwise; the items
    ///   held stay, and ``retry()`` repeats the request.
    /// - Complexity: one request. Asking is O(1), plus cancelling the loads
    ///   in flight; applying is O(*m* + *n*) for the *m* items of the page
    ///   and the *n* items held it replaces.
    @discardableResult
    public func jump(to index: Int) -> PageLoad {
        admit { $0.jump(to: index) }
    }

    /// Reports that the item with an id was shown; see ``itemAppeared(at:)``.
    /// - Parameter id: the item's id; an id not held is ignored.
    /// - Complexity: O(log *p* + *m*).
    public func itemAppeared(id: Item.ID) {
        send { machine in
            guard let index = machine.index(of: id) else { return Machine.Effects() }
            return machine.itemAppeared(at: index)
        }
    }

    // MARK: Local edits

    /// Replaces the held item that has the same id, at once and without a
    /// refetch (to show the result of a mutation).
    /// - Parameter item: the new value.
    /// - Returns: whether an item with that id was held.
    /// - Complexity: O(*m* + log *p*) for the page of *m* items holding it.
    @discardableResult
    public func update(_ item: Item) -> Bool {
        apply([.update(item)])[0].isApplied
    }

    /// Inserts an item without a refetch.
    /// - Parameters:
    ///   - item: the item; nothing is inserted if an item with its id is held.
    ///   - position: where to insert it.
    /// - Returns: whether it was inserted (not when nothing is loaded yet, the
    ///   id is already held, or the id it is placed next to is not held).
    /// - Complexity: O(*m* + log *p*).
    @discardableResult
    public func insert(_ item: Item, at position: InsertPosition<Item.ID>) -> Bool {
        apply([.insert(item, at: position)])[0].isApplied
    }

    /// Removes the item with an id without a refetch.
    ///
    /// A deletion the pager knows of outranks a response to a request sent
    /// before it: a page loading at either end when the item is removed
    /// lands without it, held or not (the source answered before the
    /// deletion). A page asked for later may bring it back. A refresh's
    /// pages replace local edits, but those marked
    /// ``PagerEdit/survivingRefresh()``. The same holds for
    /// ``PagerEdit/remove(id:if:)`` in ``apply(_:)``: without a condition,
    /// held or not; with one, when it applies.
    /// - Parameter id: the id.
    /// - Returns: the removed item, or `nil` if it was not held.
    /// - Complexity: O(*m* + log *p*).
    @discardableResult
    public func remove(id: Item.ID) -> Item? {
        transact { driver in
            let (_, removed, effects) = driver.machine.apply([.remove(id: id)])
            return (removed[0], effects)
        }
    }

    /// Applies a batch of local edits (updates, inserts, removals) in order,
    /// under one hold of the lock, each only while its condition holds, and
    /// publishes one snapshot whose change is theirs merged.
    ///
    /// The batch is how code that keeps a list in step with other storage
    /// edits it: read the items concerned and their version with
    /// ``items(withIDs:)``, compute the new items with no lock held, then
    /// apply edits conditioned on what was read
    /// (``PagerEdit/Condition/unchanged(since:)``). An edit whose condition
    /// failed is skipped; compute it again from a new read. See
    /// ``PagerEdit`` for why a batch is a list of values and not a closure.
    ///
    /// ```swift
    /// let (version, held) = pager.items(withIDs: changed.map(\.id))
    /// let edits = changed.map { PagerEdit.update($0, if: .unchanged(since: version)) }
    ///     + deleted.map { PagerEdit.remove(id: $0) }
    /// let outcomes = pager.apply(edits)
    /// ```
    ///
    /// Each edit sees the items as the edits before it left them. The
    /// snapshot's change indexes the list before the batch (removed) and
    /// after it (inserted, updated); an item the batch inserts and then
    /// updates is reported inserted, one it updates and then removes,
    /// removed. Nothing is published when no edit applies. Loads in flight
    /// go on: a page that arrives later lands next to the edited items, and
    /// a refresh that swaps in replaces them, but for the edits marked
    /// ``PagerEdit/survivingRefresh()``, which it takes in.
    /// - Parameter edits: the edits, in the order to apply them.
    /// - Returns: the outcome of each edit, in the same order.
    /// - Complexity: O(*k* (*m* + log *p*)) for *k* edits in pages of *m*
    ///   items out of *p*, whatever the number of items held; when the batch
    ///   inserts or removes, merging its change adds O(*k*²).
    @discardableResult
    public func apply(_ edits: [PagerEdit<Item>]) -> [PagerEdit<Item>.Outcome] {
        guard !edits.isEmpty else { return [] }
        return transact { driver in
            let (outcomes, _, effects) = driver.machine.apply(edits)
            return (outcomes, effects)
        }
    }

    /// The held items with some ids, and the version of the snapshot they
    /// are part of, read in one hold of the lock: what a batch edit is
    /// computed from and conditioned on
    /// (``PagerEdit/Condition/unchanged(since:)``).
    ///
    /// ```swift
    /// let (version, held) = pager.items(withIDs: ["12", "14"])
    /// held["12"]      // the item, or nil when it is not held
    /// ```
    /// - Parameter ids: the ids; those not held are left out.
    /// - Returns: the version of the current snapshot, and the held items by id.
    /// - Complexity: O(*k* (*m* + log *p*)) for *k* ids in pages of *m*
    ///   items out of *p*.
    public func items(withIDs ids: some Sequence<Item.ID>) -> (version: Int, items: [Item.ID: Item]) {
        driver.withLock { ($0.machine.version, $0.machine.items(withIDs: ids)) }
    }

    /// The order of the held items for a follower that places items by a
    /// sort order: the snapshot's items (read by index afterwards, with no
    /// lock held) and the indices of some ids, under one hold of the lock.
    /// - Parameter ids: the ids whose indices are wanted.
    /// - Returns: the order.
    /// - Complexity: O(*k*) expected for *k* ids, plus O(*m* + log *p*) for
    ///   each page holding one of them.
    package func followedOrder(of ids: [Item.ID]) -> FollowedOrder<Item.ID> {
        let (version, items, indices, loadStates) = driver.withLock {
            ($0.machine.version, $0.machine.items, $0.machine.indices(of: ids), $0.machine.loadStates)
        }
        return FollowedOrder(
            version: version, count: items.count, id: { items[$0].id }, indices: indices,
            loadStates: loadStates)
    }

    // MARK: Driving

    private typealias Machine = PagerStateMachine<Key, Item>

    /// What is left to do after the lock is released: cancel tasks, fulfill
    /// futures. No code of a source or of a caller runs under the lock.
    private struct Aftermath {
        var cancelled: [Task<Void, Never>] = []
        /// The snapshot published, for the change handlers.
        var published: (PagingSnapshot<Item>, [@Sendable (PagingSnapshot<Item>) -> Void])?
        var finished: [(LoadFuture, Result<LoadOutcome, PagingError>)] = []
        /// The driver of the pager, when the aftermath is a response's: the
        /// response counts as delivered once all of the above is done.
        var delivery: Lock<Driver>?

        func run() {
            for task in cancelled { task.cancel() }
            // Before the callers resume: what the handlers do to a page just
            // taken in is done when its load's value comes back.
            if let (snapshot, handlers) = published {
                for handler in handlers { handler(snapshot) }
            }
            for (future, result) in finished { future.fulfill(result) }
            guard let delivery else { return }
            // Counted last, so that a test waiting for it finds the handlers
            // done (counted under the lock of the response, a waiter that came
            // in between returned before them).
            let ready = delivery.withLock { driver in
                driver.delivered += 1
                let delivered = driver.delivered
                let ready = driver.deliveryWaiters.filter { $0.count <= delivered }.map(\.continuation)
                driver.deliveryWaiters.removeAll { $0.count <= delivered }
                return ready
            }
            for waiter in ready { waiter.resume() }
        }
    }

    /// Runs an event and carries out its effects, all under one lock, so that
    /// snapshots are published in the order of events.
    private func transact<R>(_ event: (inout Driver) -> (R, Machine.Effects)) -> R {
        let (result, aftermath) = driver.withLock { driver in
            let (result, effects) = event(&driver)
            return (result, apply(effects, to: &driver))
        }
        aftermath.run()
        return result
    }

    private func admit(_ event: (inout Machine) -> (Machine.Admission, Machine.Effects)) -> PageLoad {
        transact { driver in
            let (admission, effects) = event(&driver.machine)
            return (PageLoad([Self.future(for: admission, in: &driver)]), effects)
        }
    }

    private func send(_ event: (inout Machine) -> Machine.Effects) {
        transact { driver in ((), event(&driver.machine)) }
    }

    private static func future(for admission: Machine.Admission, in driver: inout Driver) -> LoadFuture {
        switch admission {
        case .done(let result):
            return LoadFuture(result: result)
        case .wait(let operation):
            if let existing = driver.futures[operation] { return existing }
            let future = LoadFuture()
            driver.futures[operation] = future
            return future
        }
    }

    /// Starts the loads the machine asked for, publishes its snapshot, and
    /// collects the tasks to cancel and the futures to fulfill.
    private func apply(_ effects: Machine.Effects, to driver: inout Driver) -> Aftermath {
        driver.machine.assertInvariants()
        var aftermath = Aftermath()
        aftermath.cancelled = effects.cancel.compactMap { driver.tasks.removeValue(forKey: $0) }
        for command in effects.start {
            // The task reports under the same lock, so it cannot report
            // before it is recorded here.
            var request = command.request
            request.load = load
            driver.tasks[command.id] = Task { [source, request, weak self] in
                let result: Result<Page<Key, Item>, any Error>
                do {
                    result = .success(try await source.load(request))
                } catch {
                    result = .failure(error)
                }
                // The task lets go of the pager before the callers resume: when a load's value
                // comes back, nothing of the load holds the pager any more.
                let aftermath = self?.deliver(result, for: command)
                aftermath?.run()
            }
        }
        // Futures exist only for operations a caller asked about.
        aftermath.finished = effects.finished.compactMap { operation, result in
            driver.futures.removeValue(forKey: operation).map { ($0, result) }
        }
        if effects.changed,
            !driver.subscribers.isEmpty || !driver.observers.isEmpty || !driver.changeHandlers.isEmpty
        {
            let snapshot = driver.machine.snapshot
            for subscriber in driver.subscribers.values { subscriber.yield(snapshot) }
            for observer in driver.observers.values { observer(snapshot) }
            if !driver.changeHandlers.isEmpty {
                aftermath.published = (snapshot, Array(driver.changeHandlers.values))
            }
        }
        return aftermath
    }

    /// Takes a load's result in, under the lock; the caller runs the returned aftermath.
    private func deliver(_ result: Result<Page<Key, Item>, any Error>, for command: Machine.Command)
        -> Aftermath
    {
        driver.withLock { driver in
            driver.tasks[command.id] = nil
            let effects: Machine.Effects
            switch result {
            case .success(let page): effects = driver.machine.pageArrived(for: command, page: page)
            case .failure(let error): effects = driver.machine.loadFailed(for: command, error: error)
            }
            var aftermath = apply(effects, to: &driver)
            aftermath.delivery = self.driver
            return aftermath
        }
    }
}
