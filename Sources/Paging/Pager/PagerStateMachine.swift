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

    private var inFlight: [InFlight?] = [nil, nil, nil]
    private var failures: [Failure?] = [nil, nil, nil]
    private(set) var generation = 0
    /// The number of requests started so far.
    private(set) var requestCounter = 0
    private var operationCounter = 0

    /// Where the last item reported as shown lies: its distance from each
    /// end, kept up to date as pages come and go, so that prefetching goes on
    /// when a page brings fewer items than the prefetch distance (or none).
    var viewport: (fromStart: Int, fromEnd: Int)?

    private(set) var version = 0
    private var change = ListChange()
    private var duplicatesDropped = 0
    /// The drift the page of the last event found, and how many pages found one.
    var drift: PageDrift?
    var driftCount = 0
    /// The edits made to outlive the refresh in flight
    /// (``PagerEdit/survivingRefresh()``), with the generation they were
    /// made in: only a swap of that generation applies them again.
    private var refreshEdits = (generation: 0, rebase: RefreshRebase<Key, Item>())
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
    private var jumpRefusal: PagingError?

    /// The presented list (placeholders, items held, placeholders) at the last snapshot.
    private var presentedShape = PresentedChange.Shape()
    /// The change of the presented list of the event, and its row count when the event began.
    private var presentedChange = ListChange()
    private var presentedCountBefore = 0

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

    /// The presented list as it stands: placeholders, items held, placeholders (none without
    /// ``PagingConfiguration/placeholders``).
    /// - Complexity: O(1) expected.
    private var currentShape: PresentedChange.Shape {
        guard configuration.placeholders else { return PresentedChange.Shape(held: items.count) }
        let counts = window.placeholderCounts
        return PresentedChange.Shape(before: counts.before ?? 0, held: items.count, after: counts.after ?? 0)
    }

    /// The number of items of the whole list, when the pages held tell it.
    /// - Complexity: O(1) expected.
    private var knownTotal: Int? {
        let counts = window.placeholderCounts
        guard isLoaded, let before = counts.before, let after = counts.after else { return nil }
        return before + items.count + after
    }

    var loadStates: LoadStates {
        LoadStates(refresh: state(of: .refresh), previous: state(of: .previous), next: state(of: .next))
    }

    private func state(of slot: Slot) -> LoadState {
        if inFlight[slot.rawValue] != nil { return .loading }
        if let failure = failures[slot.rawValue] { return .failed(failure.error) }
        switch slot {
        case .refresh: return jumpRefusal.map { .failed($0) } ?? .notLoading
        case .next: return isLoaded && !hasNext ? .endReached : .notLoading
        case .previous: return isLoaded && !hasPrevious ? .endReached : .notLoading
        }
    }

    /// The snapshot of the current state.
    /// - Complexity: O(1).
    var snapshot: PagingSnapshot<Item> {
        var snapshot = PagingSnapshot(
            items: items, loadStates: loadStates, hasNext: hasNext, hasPrevious: hasPrevious, change: change,
            duplicatesDropped: duplicatesDropped, drift: drift, driftCount: driftCount, version: version,
            placeholdersBefore: presentedShape.before, placeholdersAfter: presentedShape.after,
            presentedChange: configuration.placeholders ? presentedChange : change)
        snapshot.loadIDs = SlotLoadIDs(
            refresh: inFlight[Slot.refresh.rawValue]?.requestID,
            next: inFlight[Slot.next.rawValue]?.requestID,
            previous: inFlight[Slot.previous.rawValue]?.requestID)
        return snapshot
    }

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

    /// A caller asks for a refresh.
    mutating func refresh() -> (Admission, Effects) {
        if case .reattachHead(let maximumPages) = configuration.refreshPolicy, isLoaded {
            return refreshHead(maximumPages: maximumPages)
        }
        // A jump in flight (or a restart around the reader, which is one) is where the reader is
        // going: a restart that takes its place loads there.
        let jumping = inFlight[Slot.refresh.rawValue]?.job.readerTarget
        var effects = Effects()
        let refreshOperation = beginRefresh(into: &effects)
        let (request, job) = refreshPlan(reader: jumping)
        let operation = start(
            .refresh, request: request, job: job, operation: refreshOperation, into: &effects)
        return (.wait(operation: operation), effects)
    }

    /// A caller asks for a head refresh: the first page of the list, and the
    /// pages after it up to `maximumPages` until one reaches the items held,
    /// spliced in place of what they cover (``HeadSplice``); a restart with
    /// those pages when none does. With nothing held, a first load.
    mutating func refreshHead(maximumPages: Int) -> (Admission, Effects) {
        guard maximumPages >= 1 else {
            return (
                .done(
                    .failure(
                        .invalidArgument(
                            "maximumPages is \(maximumPages), but a head refresh must load at least 1 page"))),
                Effects()
            )
        }
        guard isLoaded else { return refresh() }
        var effects = Effects()
        let refreshOperation = beginRefresh(into: &effects)
        if unjoined == nil { unjoined = [] }
        let operation = start(
            .refresh, request: Request(.initial(nil), count: configuration.initialLoadSize),
            job: HeadRefresh(maximumPages: maximumPages), operation: refreshOperation,
            into: &effects)
        return (.wait(operation: operation), effects)
    }

    /// A caller asks for an anchored refresh: the page holding `anchor`
    /// again, asked for after the next key of the page kept before it
    /// (backward: before the previous key of the page kept after it; with
    /// no page kept there, with its own request), and the page after it in
    /// the direction it was loaded in; the pages on the near side of it
    /// (before it, for a page loaded forward) stay as they are, those on the
    /// far side go. The request is not a reload (``PageRequest/isReload``):
    /// a source must not answer it from what it kept.
    /// - Parameters:
    ///   - anchor: a held item.
    ///   - reloadable: whether the source answers a request again with the
    ///     items at that place now (``ReloadablePageSource``).
    mutating func refresh(around anchor: Item.ID, reloadable: Bool) -> (Admission, Effects) {
        guard reloadable else {
            return (
                .done(
                    .failure(
                        .unsupportedOperation(
                            "an anchored refresh asks for the page around an item again with the request that loaded it, and this list's source is not a ReloadablePageSource (its keys may be single-use); refresh() or refreshHead() instead"
                        ))), Effects()
            )
        }
        let notHeld: (Admission, Effects) = (
            .done(
                .failure(
                    .invalidArgument(
                        "the anchor \(anchor) is not in the list; an anchored refresh reloads the page of an item held"
                    ))), Effects()
        )
        guard let sequence = window.location(of: anchor), let record = window.record(at: sequence) else {
            return notHeld
        }
        let forward: Bool =
            switch record.request.position {
            case .next: true
            case .previous: false
            // A first page at the end of a list paged backward (a chat's newest, "the last n"):
            // the pages before it were loaded from it, backward.
            case .initial:
                !(record.nextKey == nil && record.previousKey != nil && sequence > window.firstSequence)
            }
        // The reloaded pages may name a key a kept page was asked with: in a keyset list whose
        // items moved, that place holds other items now (the model test found it), and each
        // attempt loads a bounded number of pages, so it cannot go round for ever; the loads
        // after it check their keys against every page held.
        guard
            let (request, plan) = AnchoredRefresh.starting(
                around: anchor, at: sequence, forward: forward, in: window)
        else { return notHeld }
        var effects = Effects()
        let refreshOperation = beginRefresh(into: &effects)
        let operation = start(
            .refresh, request: request, job: plan, operation: refreshOperation, into: &effects)
        return (.wait(operation: operation), effects)
    }

    /// Cancels every load for a refresh (one in flight starts over: its
    /// operation is returned, so that its callers wait for the new one) and
    /// starts a new generation.
    private mutating func beginRefresh(into effects: inout Effects) -> Int? {
        let refreshOperation = inFlight[Slot.refresh.rawValue]?.operation
        startGeneration(keeping: .refresh, into: &effects)
        if let current = inFlight[Slot.refresh.rawValue] {
            effects.cancel.append(current.requestID)
            inFlight[Slot.refresh.rawValue] = nil
        }
        return refreshOperation
    }

    /// The first request of a refresh by the list's policy and what it is for, made from the
    /// pages held now; `reader`, when given, is the position the reader is at, for a restart
    /// around it (``restartAroundReader(at:)``).
    private mutating func refreshPlan(reader: Int? = nil) -> (Request, Job) {
        if case .reattachHead(let maximumPages) = configuration.refreshPolicy, isLoaded {
            if unjoined == nil { unjoined = [] }
            return (
                Request(.initial(nil), count: configuration.initialLoadSize),
                HeadRefresh(maximumPages: maximumPages)
            )
        }
        if configuration.refreshPolicy == .restart, let around = restartAroundReader(at: reader) {
            return around
        }
        let initial = Request(.initial(initialKey), count: configuration.initialLoadSize)
        guard configuration.refreshPolicy != .restart,
            let (request, plan) = RefetchPlan.refetching(
                window, initial: initial, pageSize: configuration.pageSize)
        else { return (initial, RestartLoad()) }
        return (request, plan)
    }

    /// With placeholders, over a source that can jump, a restart reloads where the reader is: the
    /// page a jump to `reader` would load, or else to the position last shown (the first item
    /// held's when none was shown since the list last changed as a whole), so that the rows on
    /// screen are not turned into placeholders to be loaded again. `nil` where that page is the
    /// top of a list opened at its top (a restart then loads as at the start), and for a list
    /// without placeholders, with nothing held, whose count above the items held is not known,
    /// or whose source cannot jump.
    private func restartAroundReader(at reader: Int?) -> (Request, Job)? {
        guard configuration.placeholders, isLoaded, !items.isEmpty, let jumpKey,
            let before = window.placeholderCounts.before
        else { return nil }
        // A position beyond an end (a placeholder shown there) is the reader's too.
        let page = jumpPage(to: max(0, reader ?? before + (viewport?.fromStart ?? 0)))
        // A list opened at a key of its own would restart there, not at its top.
        guard page.first > 0 || initialKey != nil else { return nil }
        return (
            Request(.initial(jumpKey(page.first)), count: configuration.jumpLoadSize),
            JumpLoad(target: page.target, start: page.first)
        )
    }

    /// Where a jump to a position goes, within the list's total when known, and where its page
    /// of ``PagingConfiguration/jumpLoadSize`` items starts: the position in its middle, or as
    /// near as the list's ends let it be.
    private func jumpPage(to position: Int) -> (target: Int, first: Int) {
        var target = position
        if let total = knownTotal { target = min(target, max(0, total - 1)) }
        let count = configuration.jumpLoadSize
        var first = max(0, target - count / 2)
        if let total = knownTotal { first = max(0, min(first, total - count)) }
        return (target, first)
    }

    /// Starts a new generation for a load that replaces the list: cancels the loads in flight but
    /// the one in `kept` (their callers are told so), so that no older response is applied, and
    /// forgets the failures and a refused jump.
    private mutating func startGeneration(keeping kept: Slot?, into effects: inout Effects) {
        cancelAll(except: kept, into: &effects)
        generation += 1
        failures = [nil, nil, nil]
        jumpRefusal = nil
    }

    /// A caller asks to repeat the failed loads.
    mutating func retry() -> ([Admission], Effects) {
        var effects = Effects()
        if jumpRefusal != nil {
            // Nothing to repeat: the jump was never asked for. The state clears.
            jumpRefusal = nil
            publish(ListChange(), into: &effects)
        }
        if let failure = failures[Slot.refresh.rawValue] {
            // A refresh outranks the loads that started after it failed. A refetch goes on
            // where it failed, with its plan: it brings back the list as it was when the
            // refresh was asked for, with the pages dropped then (see `RefetchPlan.dropped`).
            startGeneration(keeping: nil, into: &effects)
            var (request, job) = (failure.request, failure.job)
            if !failure.job.stillFits(window) {
                // Loads since the failure moved the window past the anchor's page: refresh as the
                // policy says instead of putting the pages where nothing leads to them.
                (request, job) = refreshPlan()
            }
            let operation = start(.refresh, request: request, job: job, operation: nil, into: &effects)
            return ([.wait(operation: operation)], effects)
        }
        if let refresh = inFlight[Slot.refresh.rawValue] {
            // Nothing else may load during a refresh; its result supersedes any failure.
            return ([.wait(operation: refresh.operation)], effects)
        }
        var admissions: [Admission] = []
        for slot in [Slot.previous, .next] {
            guard let failure = failures[slot.rawValue], inFlight[slot.rawValue] == nil else { continue }
            failures[slot.rawValue] = nil
            let operation = start(
                slot, request: failure.request, job: failure.job, operation: nil, into: &effects)
            admissions.append(.wait(operation: operation))
        }
        if admissions.isEmpty { return ([.done(.success(.nothingToRetry))], effects) }
        return (admissions, effects)
    }

    /// A position of the presented list was shown (with placeholders): an item held is as
    /// ``itemAppeared(at:)``; a placeholder within the jump threshold of the items held (or any,
    /// with no threshold) loads towards it, page after page, from the end it is beyond; one
    /// farther jumps to it (``jump(to:)``), or, when the source cannot jump, leaves the refresh
    /// failed with ``PagingError/Code/unsupportedOperation`` and loads nothing.
    mutating func itemAppeared(atPresented position: Int) -> Effects {
        guard isLoaded, !isRefreshing, position >= 0 else { return Effects() }
        let shape = currentShape
        guard position < shape.count else { return Effects() }
        let held = position - shape.before
        if held >= 0, held < items.count { return itemAppeared(at: held) }
        let distance = held < 0 ? -held : held - items.count + 1
        if let threshold = configuration.jumpThreshold, distance > threshold {
            guard jumpKey != nil else {
                var effects = Effects()
                if jumpRefusal == nil {
                    jumpRefusal = .unsupportedOperation(Self.cannotJump)
                    publish(ListChange(), into: &effects)
                }
                return effects
            }
            return jump(to: position).1
        }
        // The reader is beyond an end: that end loads, and goes on loading as pages come.
        viewport = (held, items.count - 1 - held)
        var effects = Effects()
        prefetchAroundViewport(into: &effects)
        return effects
    }

    /// A caller asks for the page around a position of the whole list: with placeholders, the
    /// position in ``PagingSnapshot/presented``; without, the index of the item in the whole
    /// list, counted from its start. A position held already is only shown (as
    /// ``itemAppeared(at:)``). Otherwise, as a refresh does, every load in flight is cancelled
    /// (their callers are told so) and a new generation starts; one request asks for
    /// ``PagingConfiguration/jumpLoadSize`` items with the position in the middle (within the
    /// list's total when known), and its page replaces everything held.
    mutating func jump(to position: Int) -> (Admission, Effects) {
        guard position >= 0 else {
            return (
                .done(
                    .failure(
                        .invalidArgument("position is \(position), but a position in a list is 0 or more"))),
                Effects()
            )
        }
        guard let jumpKey else { return (.done(.failure(.unsupportedOperation(Self.cannotJump))), Effects()) }
        let (target, first) = jumpPage(to: position)
        // The position of the first item held: in the presented list, or, without placeholders,
        // in the whole list when its pages count the items before it.
        let base = configuration.placeholders ? currentShape.before : window.placeholderCounts.before
        if isLoaded, !isRefreshing, let base, target >= base,
            target - base < items.count
        {
            return (.done(.success(.loaded)), itemAppeared(at: target - base))
        }
        if let current = inFlight[Slot.refresh.rawValue], let loading = current.job as? JumpLoad<Key, Item>,
            loading.start <= target, target - loading.start < current.request.count
        {
            // The jump in flight brings this position too.
            inFlight[Slot.refresh.rawValue]?.job = JumpLoad<Key, Item>(target: target, start: loading.start)
            return (.wait(operation: current.operation), Effects())
        }
        var effects = Effects()
        startGeneration(keeping: nil, into: &effects)
        let operation = start(
            .refresh, request: Request(.initial(jumpKey(first)), count: configuration.jumpLoadSize),
            job: JumpLoad<Key, Item>(target: target, start: first), operation: nil, into: &effects)
        return (.wait(operation: operation), effects)
    }

    /// What a jump over a source that cannot jump answers.
    static var cannotJump: String {
        "this list's source cannot load the page at a position of the list (it is not a JumpablePageSource, "
            + "or it is an OffsetSource that pages one way only); load the pages up to it instead, or page "
            + "with an OffsetSource(.bidirectional)"
    }

    /// An item at an index was shown: load at an end within the prefetch
    /// distance. Failed ends are not retried on their own.
    mutating func itemAppeared(at index: Int) -> Effects {
        var effects = Effects()
        guard isLoaded, !isRefreshing, index >= 0, index < items.count else {
            return effects
        }
        viewport = (index, items.count - 1 - index)
        prefetchAroundViewport(into: &effects)
        return effects
    }

    /// Loads at each end the last item shown lies within the prefetch distance of.
    mutating func prefetchAroundViewport(into effects: inout Effects) {
        guard let viewport, !isRefreshing else { return }
        let distance = configuration.prefetchDistance
        if viewport.fromEnd <= distance {
            prefetch(.next, into: &effects)
        }
        if viewport.fromStart <= distance {
            prefetch(.previous, into: &effects)
        }
    }

    mutating func prefetch(_ direction: LoadDirection, into effects: inout Effects) {
        let slot: Slot = direction == .next ? .next : .previous
        guard inFlight[slot.rawValue] == nil, failures[slot.rawValue] == nil,
            let (request, replaying) = nextRequest(direction, count: nil)
        else { return }
        let job = EndLoad<Key, Item>(direction, replaying: replaying)
        _ = start(slot, request: request, job: job, operation: nil, into: &effects)
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

    private func slot(waitingFor command: Command) -> Slot? {
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

    /// Applies a batch of edits in order, each only while its condition
    /// holds, and publishes one snapshot with their merged change when any
    /// applied.
    /// - Returns: the outcome of each edit, and the item each removal removed.
    /// - Complexity: O(*k* (*m* + log *p*)) for *k* edits in pages of *m*
    ///   items out of *p*; merging the change of a batch that inserts or
    ///   removes adds O(*k*²).
    mutating func apply(_ edits: [PagerEdit<Item>]) -> (
        outcomes: [PagerEdit<Item>.Outcome], removed: [Item?], effects: Effects
    ) {
        var effects = Effects()
        var outcomes: [PagerEdit<Item>.Outcome] = []
        var removed: [Item?] = []
        outcomes.reserveCapacity(edits.count)
        removed.reserveCapacity(edits.count)
        var batch = EditBatch(countBefore: items.count)
        let refreshing = isRefreshing
        for edit in edits {
            let (outcome, item) = window.apply(edit, version: version, into: &batch)
            outcomes.append(outcome)
            removed.append(item)
            if case .remove(let id) = edit.kind,
                outcome.isApplied || outcome == .notHeld && edit.isUnconditional
            {
                removedWhileLoading(id)
            }
            guard edit.survivesRefresh, outcome.isApplied else { continue }
            if refreshing { recordForRefresh(edit) }
            if case .insert(let item, _) = edit.kind { unjoined?.insert(item.id) }
        }
        guard !batch.isEmpty else { return (outcomes, removed, effects) }
        window.markModified(batch.edited, version: version + 1)
        publish(batch.change, into: &effects)
        return (outcomes, removed, effects)
    }

    /// Notes an id removed by a local edit in the loads in flight at the ends: their pages land
    /// without it (a refresh's pages replace local edits, but for those that survive it).
    /// - Complexity: O(1) expected.
    private mutating func removedWhileLoading(_ id: Item.ID) {
        for slot in [Slot.next, .previous] where inFlight[slot.rawValue] != nil {
            inFlight[slot.rawValue]?.removedMeanwhile.insert(id)
        }
    }

    /// Notes that the list may be missing items at its top from now on (a live list's stream
    /// went down): the items inserted by surviving edits from now on are not where the next head
    /// refresh reaches the list, until one swaps in.
    mutating func owesHeadRefresh() {
        if unjoined == nil { unjoined = [] }
    }

    /// Keeps an edit to apply again to the pages of the refresh in flight.
    private mutating func recordForRefresh(_ edit: PagerEdit<Item>) {
        if refreshEdits.generation != generation { refreshEdits = (generation, RefreshRebase()) }
        refreshEdits.rebase.record(edit)
    }

    /// The edits to apply again to the pages of the refresh that swaps in
    /// now, forgotten here.
    mutating func takeRefreshEdits() -> RefreshRebase<Key, Item> {
        defer { refreshEdits = (generation, RefreshRebase()) }
        return refreshEdits.generation == generation ? refreshEdits.rebase : RefreshRebase()
    }

    /// The held items with some ids, by id.
    /// - Complexity: O(*k* (*m* + log *p*)) for *k* ids.
    func items(withIDs ids: some Sequence<Item.ID>) -> [Item.ID: Item] {
        window.items(withIDs: ids)
    }

    /// The indices of the held items with some ids, by id.
    /// - Complexity: as ``PageWindow/indices(of:)``.
    func indices(of ids: some Sequence<Item.ID>) -> [Item.ID: Int] {
        window.indices(of: ids)
    }

    // MARK: Helpers

    /// The request that loads the next page at an end, and whether it
    /// replays a dropped page; `nil` at the end.
    private func nextRequest(_ direction: LoadDirection, count: Int?) -> (Request, Bool)? {
        window.nextRequest(direction, count: count, pageSize: configuration.pageSize)
    }

    /// Records a load in a slot and asks the driver to start it. Keeps the
    /// given operation (a refresh going on to its next page, a restarted
    /// refresh) or opens a new one.
    private mutating func start(
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

    /// Marks a new snapshot with the given change.
    ///
    /// One event publishes one snapshot, taken when the event ends: a second
    /// change in the same event (a page applied, then the load it sets off,
    /// which shows as loading) is merged into the first, so that the
    /// snapshot's change leads from the snapshot before it to this one.
    mutating func publish(_ change: ListChange, duplicates: Int = 0, into effects: inout Effects) {
        version += 1
        if configuration.placeholders {
            let shape = currentShape
            let step = PresentedChange.make(from: presentedShape, to: shape, held: change)
            if !effects.changed {
                presentedCountBefore = presentedShape.count
                presentedChange = step
            } else if !step.isEmpty {
                presentedChange = ListChange.merging(
                    [presentedChange, step], countBefore: presentedCountBefore)
            }
            presentedShape = shape
        } else {
            presentedShape = PresentedChange.Shape(held: items.count)
        }
        if effects.changed {
            if !change.isEmpty {
                // The count before the first change: undo the second, then the first.
                let countBefore =
                    items.count - change.insertedCount + change.removedCount - self.change.insertedCount
                    + self.change.removedCount
                self.change = ListChange.merging([self.change, change], countBefore: countBefore)
            }
            duplicatesDropped += duplicates
        } else {
            self.change = change
            duplicatesDropped = duplicates
            drift = nil
        }
        effects.changed = true
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
