/// The pager's logic, with no task, no lock and no clock: every event is a
/// mutating method that returns what the driver must do (``Effects``).
///
/// It composes the parts that keep their own invariants: the ``PageWindow``
/// (the held pages, their ids, the requests of pages dropped from it and the
/// keys asked for), a ``RefetchPlan`` while a refresh refetches the held
/// pages, and an ``EditBatch`` while local edits apply. Itself it holds the
/// load in flight or the failure of each slot (refresh, next, previous), the
/// generation, the place of the last item shown, and the version and change
/// of the snapshot.
///
/// Key cycles: the keys asked for at each end since the last restart are
/// remembered (``AskedKeys``), so a source whose keys come round again
/// (A → B → A), not only one that returns the key it was asked with, is
/// stopped with ``PagingError/Code/repeatedKey`` instead of being followed
/// forever.
///
/// Stale responses: every load carries a request id and the generation it
/// started in. A response is applied only when its slot still waits for that
/// very request id in that generation; a reset, a refresh and a cancel clear
/// or replace the slots and bump the generation, so nothing started before
/// them is ever applied.
struct PagerStateMachine<Key: Hashable & Sendable, Item: Identifiable & Sendable> where Item.ID: Sendable {
    typealias Request = PageRequest<Key>

    // MARK: State

    let configuration: PagingConfiguration
    let initialKey: Key?

    /// The held pages, their ids, and the requests of the dropped ones.
    var window = PageWindow<Key, Item>()

    var inFlight: [InFlight?] = [nil, nil, nil]
    var failures: [Failure?] = [nil, nil, nil]
    private(set) var generation = 0
    /// The number of requests started so far.
    private(set) var requestCounter = 0
    private var operationCounter = 0

    /// Where the last item reported as shown lies: its distance from each
    /// end, kept up to date as pages come and go, so that prefetching goes on
    /// when a page brings fewer items than the prefetch distance (or none).
    var viewport: (fromStart: Int, fromEnd: Int)?

    var version = 0
    var change = ListChange()
    var duplicatesDropped = 0
    /// The drift the page of the last event found, and how many pages found one.
    var drift: PageDrift?
    var driftCount = 0
    /// The edits made to outlive the refresh in flight
    /// (``PagerEdit/survivingRefresh()``), with the generation they were
    /// made in: only a swap of that generation applies them again.
    var refreshEdits = (generation: 0, rebase: RefreshRebase<Key, Item>())
    /// The items inserted by edits marked ``PagerEdit/survivingRefresh()`` since a head refresh
    /// started that has not swapped in yet (`nil` when none is owed): they may sit above items
    /// the source added meanwhile and the list does not hold (a live list's events after a
    /// reconnection), so a head refresh does not take them for the place where it reaches the
    /// list. Kept across a head refresh cancelled or failed, until one swaps in.
    var unjoined: Set<Item.ID>?
    /// Whether loads at the ends carry the ids of the held items next to
    /// them (the source checks them: ``PageSource/checksHeldItems``).
    var lendsHeldItems = false
    /// The shifts that the pages loaded before the first item found
    /// resynchronized (``PageDrift/shift``) since the last held page loaded,
    /// with that page's request: the next load after the last item carries
    /// them (``PageRequest/knownShift``).
    var shiftAbove: (last: Request?, shift: Int) = (nil, 0)
    /// The key of the page that starts at a position of the whole list, when the source can
    /// jump (``JumpablePageSource``); `nil` when it cannot.
    var jumpKey: (@Sendable (Int) -> Key)?
    /// Why the last placeholder shown past the jump threshold was not jumped to (the source cannot
    /// jump), shown as the refresh's failure until a retry, a refresh, a jump or a reset.
    var jumpRefusal: PagingError?

    /// The presented list (placeholders, items held, placeholders) at the last snapshot.
    var presentedShape = PresentedChange.Shape()
    /// The change of the presented list of the event, and its row count when the event began.
    var presentedChange = ListChange()
    var presentedCountBefore = 0

    init(configuration: PagingConfiguration, initialKey: Key?) {
        self.configuration = configuration
        self.initialKey = initialKey
    }

    // MARK: Derived state

    /// The items held.
    /// - Complexity: O(1).
    var items: PagedItems<Item> { window.items }

    /// Whether a first page has arrived since the start or the last reset.
    var isLoaded: Bool { window.isLoaded }

    /// The number of pages held.
    var pageCount: Int { window.pageCount }

    /// Whether there is more after the last item held.
    var hasNext: Bool { window.hasNext }

    /// Whether there is more before the first item held.
    var hasPrevious: Bool { window.hasPrevious }

    /// The next key of the last page held and the previous key of the first.
    var edgeKeys: (previous: Key?, next: Key?) { window.edgeKeys }

    /// Whether a first load, a restart, a refresh or a jump is in flight: nothing else loads then.
    /// - Complexity: O(1).
    var isRefreshing: Bool { inFlight[Slot.refresh.rawValue] != nil }

    /// The request ids of the loads in flight (for tests and the driver).
    var requestsInFlight: [Int] { inFlight.compactMap { $0?.requestID } }

    /// The number of pages dropped from the window at each end.
    var droppedPageCounts: (front: Int, back: Int) { window.droppedPageCounts }

    /// The index of the item with an id, if held.
    /// - Complexity: O(log *p* + *m*) for *p* pages of *m* items.
    func index(of id: Item.ID) -> Int? {
        window.index(of: id)
    }

    // MARK: Load events

    /// A caller asks for the page at one end.
    mutating func load(_ direction: LoadDirection, count: Int?) -> (Admission, Effects) {
        if let count, count < 1 {
            return (
                .done(
                    .failure(.invalidArgument("count is \(count), but a load must ask for at least 1 item"))),
                Effects()
            )
        }
        if let refresh = inFlight[Slot.refresh.rawValue] {
            return (.wait(operation: refresh.operation), Effects())
        }
        var effects = Effects()
        if !isLoaded {
            let request = Request(.initial(initialKey), count: count ?? configuration.initialLoadSize)
            let operation = start(
                .refresh, request: request, job: RestartLoad(), operation: nil, into: &effects)
            return (.wait(operation: operation), effects)
        }
        let slot: Slot = direction == .next ? .next : .previous
        if let current = inFlight[slot.rawValue] {
            return (.wait(operation: current.operation), Effects())
        }
        guard let (request, replaying) = nextRequest(direction, count: count) else {
            return (.done(.success(.endReached)), Effects())
        }
        let job = EndLoad<Key, Item>(direction, replaying: replaying)
        let operation = start(slot, request: request, job: job, operation: nil, into: &effects)
        return (.wait(operation: operation), effects)
    }

    /// Starts a new generation for a load that replaces the list: cancels the loads in flight but
    /// the one in `kept` (their callers are told so), so that no older response is applied, and
    /// forgets the failures and a refused jump.
    mutating func startGeneration(keeping kept: Slot?, into effects: inout Effects) {
        cancelAll(except: kept, into: &effects)
        generation += 1
        failures = [nil, nil, nil]
        jumpRefusal = nil
    }

    /// Forgets everything: cancels loads, empties the list.
    mutating func reset() -> Effects {
        var effects = Effects()
        startGeneration(keeping: nil, into: &effects)
        let removedCount = items.count
        window.removeAll()
        unjoined = nil
        viewport = nil
        publish(ListChange(removed: removedCount > 0 ? [0..<removedCount] : []), into: &effects)
        return effects
    }

    /// Cancels every load in flight; keeps the items.
    mutating func cancel() -> Effects {
        var effects = Effects()
        let hadLoads = inFlight.contains { $0 != nil }
        cancelAll(except: nil, into: &effects)
        generation += 1
        if hadLoads { publish(ListChange(), into: &effects) }
        return effects
    }

    // MARK: Responses

    /// A page arrived for a request: the plan it was for checks that it does not lead back to a key
    /// asked already (or the load fails with ``PagingError/Code/repeatedKey``), takes it in, and
    /// either names its next request, started in the same slot and operation, or goes into the
    /// window.
    mutating func pageArrived(for command: Command, page: Page<Key, Item>) -> Effects {
        var effects = Effects()
        guard let slot = slot(waitingFor: command), let current = inFlight[slot.rawValue] else {
            return effects
        }
        let request = current.request
        var plan = current.job
        if let direction = plan.leadsBack(page, from: request, in: self) {
            let error = PagingError.repeatedKey(request, direction: direction, returned: page.key(direction))
            fail(slot, current, error: error, into: &effects)
            return effects
        }
        var page = page
        if !current.removedMeanwhile.isEmpty {
            page.items.removeAll { current.removedMeanwhile.contains($0.id) }
        }
        if let next = plan.take(page, for: request, in: self) {
            _ = start(slot, request: next, job: plan, operation: current.operation, into: &effects)
            return effects
        }
        inFlight[slot.rawValue] = nil
        plan.finish(into: &self, effects: &effects)
        effects.finished.append((current.operation, .success(.loaded)))
        return effects
    }

    /// A request failed.
    mutating func loadFailed(for command: Command, error: any Error) -> Effects {
        var effects = Effects()
        guard let slot = slot(waitingFor: command), let current = inFlight[slot.rawValue] else {
            return effects
        }
        // A source that throws the engine's own error (a strategy refusing a
        // request, an argument out of range) is reported as it is.
        let reported = (error as? PagingError) ?? .loadFailed(current.request, underlying: error)
        fail(slot, current, error: reported, into: &effects)
        return effects
    }

    func slot(waitingFor command: Command) -> Slot? {
        guard command.generation == generation else { return nil }
        return Slot.allCases.first { inFlight[$0.rawValue]?.requestID == command.id }
    }

    private mutating func fail(
        _ slot: Slot, _ current: InFlight, error: PagingError, into effects: inout Effects
    ) {
        inFlight[slot.rawValue] = nil
        failures[slot.rawValue] = Failure(request: current.request, job: current.job, error: error)
        effects.finished.append((current.operation, .failure(error)))
        publish(ListChange(), into: &effects)
    }

    // MARK: Local edits

    // MARK: Helpers

    /// The request that loads the next page at an end, and whether it
    /// replays a dropped page; `nil` at the end.
    func nextRequest(_ direction: LoadDirection, count: Int?) -> (Request, Bool)? {
        window.nextRequest(direction, count: count, pageSize: configuration.pageSize)
    }

    /// Records a load in a slot and asks the driver to start it. Keeps the
    /// given operation (a refresh going on to its next page, a restarted
    /// refresh) or opens a new one.
    mutating func start(
        _ slot: Slot, request: Request, job: Job, operation: Int?, into effects: inout Effects
    ) -> Int {
        requestCounter += 1
        var request = request
        request.loadID = requestCounter
        job.prepare(&request, in: self)
        let operation = operation ?? nextOperation()
        inFlight[slot.rawValue] = InFlight(
            operation: operation, requestID: requestCounter, request: request, job: job)
        failures[slot.rawValue] = nil
        effects.start.append(Command(id: requestCounter, generation: generation, request: request))
        publish(ListChange(), into: &effects)
        return operation
    }

    /// The shifts found above the held items since the last held page loaded; 0 when that page
    /// is not the one they were found under (it was dropped, or the list restarted).
    /// - Complexity: O(1).
    var knownShiftAbove: Int {
        let last = window.record(at: window.endSequence - 1)?.request
        return last != nil && shiftAbove.last == last ? shiftAbove.shift : 0
    }

    /// The ids of the items held at an end, nearest the end first: at most the larger of `count`
    /// and 20, from the pages there.
    /// - Complexity: O(*m* + log *p*) for *m* ids, from the *p* pages held.
    func heldIDs(atEnd: Bool, count: Int) -> [any Hashable & Sendable] {
        let wanted = max(count, 20)
        var ids: [any Hashable & Sendable] = []
        let pages = items.pageCount
        var offset = 0
        while ids.count < wanted, offset < pages {
            let page = items.page(at: atEnd ? pages - 1 - offset : offset).items
            if atEnd {
                for item in page.reversed() where ids.count < wanted { ids.append(item.id) }
            } else {
                for item in page where ids.count < wanted { ids.append(item.id) }
            }
            offset += 1
        }
        return ids
    }

    private mutating func nextOperation() -> Int {
        operationCounter += 1
        return operationCounter
    }

    /// Cancels the loads in flight, but the one in `kept`; their callers are
    /// told the load was cancelled.
    private mutating func cancelAll(except kept: Slot?, into effects: inout Effects) {
        for slot in Slot.allCases where slot != kept {
            guard let current = inFlight[slot.rawValue] else { continue }
            effects.cancel.append(current.requestID)
            effects.finished.append((current.operation, .success(.cancelled)))
            inFlight[slot.rawValue] = nil
        }
    }

    /// Drops pages at one end (the end, or else the start) while the window holds more than its
    /// limit, keeping at least one page; a load in flight there would continue a page that is gone:
    /// it is cancelled, and a failed one there forgotten, so that a retry does not repeat it (the
    /// dropped page's request is kept instead).
    /// - Returns: the number of items dropped.
    /// - Complexity: O(*r*) for the *r* items of the pages dropped.
    mutating func trim(atEnd: Bool, into effects: inout Effects) -> Int {
        var droppedItems = 0
        let farSlot: Slot = atEnd ? .next : .previous
        while window.exceeds(configuration.maximumHeld), window.pageCount > 1 {
            droppedItems += window.dropPage(atEnd: atEnd)
            failures[farSlot.rawValue] = nil
            if let far = inFlight[farSlot.rawValue] {
                effects.cancel.append(far.requestID)
                effects.finished.append((far.operation, .success(.cancelled)))
                inFlight[farSlot.rawValue] = nil
            }
        }
        return droppedItems
    }

    /// Replaces every page with the given ones, in one change, the first at
    /// sequence `first`; the requests of pages dropped at each end become
    /// `keepDropped` (none where it is `nil`).
    mutating func replaceAll(
        with pages: [(Request, Page<Key, Item>)], firstSequence first: Int,
        keepDropped: (front: [Request]?, back: [Request]?), origin: Int? = nil, into effects: inout Effects
    ) {
        let oldCount = items.count
        viewport = nil
        shiftAbove = (nil, 0)
        // Pages that came back larger than before may not all fit: the window
        // drops them at the end away from where the refetch started.
        let duplicates = window.replaceAll(
            with: pages, firstSequence: first, keepDropped: keepDropped, modified: version + 1,
            limit: configuration.maximumHeld, origin: origin)
        let change = ListChange(
            removed: oldCount > 0 ? [0..<oldCount] : [], inserted: items.isEmpty ? [] : [0..<items.count])
        publish(change, duplicates: duplicates, into: &effects)
    }
}
