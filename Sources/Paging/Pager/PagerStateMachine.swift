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
    private var window = PageWindow<Key, Item>()

    private var inFlight: [InFlight?] = [nil, nil, nil]
    private var failures: [Failure?] = [nil, nil, nil]
    private(set) var generation = 0
    /// The number of requests started so far.
    private(set) var requestCounter = 0
    private var operationCounter = 0

    /// Where the last item reported as shown lies: its distance from each
    /// end, kept up to date as pages come and go, so that prefetching goes on
    /// when a page brings fewer items than the prefetch distance (or none).
    private var viewport: (fromStart: Int, fromEnd: Int)?

    private(set) var version = 0
    private var change = ListChange()
    private var duplicatesDropped = 0
    /// The drift the page of the last event found, and how many pages found one.
    private var drift: PageDrift?
    private var driftCount = 0
    /// The edits made to outlive the refresh in flight
    /// (``PagerEdit/survivingRefresh()``), with the generation they were
    /// made in: only a swap of that generation applies them again.
    private var refreshEdits = (generation: 0, rebase: RefreshRebase<Key, Item>())
    /// The items inserted by edits marked ``PagerEdit/survivingRefresh()`` since a head refresh
    /// started that has not swapped in yet (`nil` when none is owed): they may sit above items
    /// the source added meanwhile and the list does not hold (a live list's events after a
    /// reconnection), so a head refresh does not take them for the place where it reaches the
    /// list. Kept across a head refresh cancelled or failed, until one swaps in.
    private var unjoined: Set<Item.ID>?
    /// Whether loads at the ends carry the ids of the held items next to
    /// them (the source checks them: ``PageSource/checksHeldItems``).
    var lendsHeldItems = false
    /// The shifts that the pages loaded before the first item found
    /// resynchronized (``PageDrift/shift``) since the last held page loaded,
    /// with that page's request: the next load after the last item carries
    /// them (``PageRequest/knownShift``).
    private var shiftAbove: (last: Request?, shift: Int) = (nil, 0)
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
            let operation = start(.refresh, request: request, job: .restart, operation: nil, into: &effects)
            return (.wait(operation: operation), effects)
        }
        let slot: Slot = direction == .next ? .next : .previous
        if let current = inFlight[slot.rawValue] {
            return (.wait(operation: current.operation), Effects())
        }
        guard let (request, replaying) = nextRequest(direction, count: count) else {
            return (.done(.success(.endReached)), Effects())
        }
        let job: Job = direction == .next ? .append(replaying: replaying) : .prepend(replaying: replaying)
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
        var jumping: Int?
        if case .jump(let target, _) = inFlight[Slot.refresh.rawValue]?.job { jumping = target }
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
            job: .head(HeadRefresh(maximumPages: maximumPages)), operation: refreshOperation,
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
            .refresh, request: request, job: .anchored(plan), operation: refreshOperation, into: &effects)
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
                .head(HeadRefresh(maximumPages: maximumPages))
            )
        }
        if configuration.refreshPolicy == .restart, let around = restartAroundReader(at: reader) {
            return around
        }
        let initial = Request(.initial(initialKey), count: configuration.initialLoadSize)
        guard configuration.refreshPolicy != .restart,
            let (request, plan) = RefetchPlan.refetching(
                window, initial: initial, pageSize: configuration.pageSize)
        else { return (initial, .restart) }
        return (request, .refetch(plan))
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
            .jump(target: page.target, start: page.first)
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
            if case .anchored(let plan) = failure.job,
                window.record(at: plan.sequence)?.request != plan.request
            {
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
        guard isLoaded, inFlight[Slot.refresh.rawValue] == nil, position >= 0 else { return Effects() }
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
        if isLoaded, inFlight[Slot.refresh.rawValue] == nil, let base, target >= base,
            target - base < items.count
        {
            return (.done(.success(.loaded)), itemAppeared(at: target - base))
        }
        if let current = inFlight[Slot.refresh.rawValue], case .jump(_, let loading) = current.job,
            loading <= target, target - loading < current.request.count
        {
            // The jump in flight brings this position too.
            inFlight[Slot.refresh.rawValue]?.job = .jump(target: target, start: loading)
            return (.wait(operation: current.operation), Effects())
        }
        var effects = Effects()
        startGeneration(keeping: nil, into: &effects)
        let operation = start(
            .refresh, request: Request(.initial(jumpKey(first)), count: configuration.jumpLoadSize),
            job: .jump(target: target, start: first), operation: nil, into: &effects)
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
        guard isLoaded, inFlight[Slot.refresh.rawValue] == nil, index >= 0, index < items.count else {
            return effects
        }
        viewport = (index, items.count - 1 - index)
        prefetchAroundViewport(into: &effects)
        return effects
    }

    /// Loads at each end the last item shown lies within the prefetch distance of.
    private mutating func prefetchAroundViewport(into effects: inout Effects) {
        guard let viewport, inFlight[Slot.refresh.rawValue] == nil else { return }
        let distance = configuration.prefetchDistance
        if viewport.fromEnd <= distance {
            prefetch(.next, into: &effects)
        }
        if viewport.fromStart <= distance {
            prefetch(.previous, into: &effects)
        }
    }

    private mutating func prefetch(_ direction: LoadDirection, into effects: inout Effects) {
        let slot: Slot = direction == .next ? .next : .previous
        guard inFlight[slot.rawValue] == nil, failures[slot.rawValue] == nil,
            let (request, replaying) = nextRequest(direction, count: nil)
        else { return }
        let job: Job = direction == .next ? .append(replaying: replaying) : .prepend(replaying: replaying)
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

    /// A page arrived for a request.
    mutating func pageArrived(for command: Command, page: Page<Key, Item>) -> Effects {
        var effects = Effects()
        guard let slot = slot(waitingFor: command), let current = inFlight[slot.rawValue] else {
            return effects
        }
        let request = current.request
        switch current.job {
        case .restart:
            inFlight[slot.rawValue] = nil
            var pages = [(request, page)]
            if slot == .refresh {
                takeRefreshEdits().apply(to: &pages, first: true, last: page.nextKey == nil)
                unjoined = nil
            }
            replaceAll(with: pages, firstSequence: 0, keepDropped: (nil, nil), into: &effects)
            effects.finished.append((current.operation, .success(.loaded)))

        case .refetch(var refetch):
            if let direction = request.direction,
                AskedKeys.leadsBack(page, from: request, askedBefore: refetch.askedKeys(direction))
            {
                let error = PagingError.repeatedKey(
                    request, direction: direction, returned: page.key(direction))
                fail(slot, current, error: error, into: &effects)
                return effects
            }
            refetch.collect(request, page)
            if let next = refetch.advance() {
                _ = start(
                    slot, request: next, job: .refetch(refetch), operation: current.operation, into: &effects)
                return effects
            }
            inFlight[slot.rawValue] = nil
            var pages = refetch.pages
            takeRefreshEdits().apply(to: &pages, first: true, last: true)
            unjoined = nil
            replaceAll(
                with: pages, firstSequence: refetch.firstSequence, keepDropped: refetch.keptDropped,
                origin: window.origin, into: &effects)
            effects.finished.append((current.operation, .success(.loaded)))

        case .head(var head):
            if request.direction != nil,
                AskedKeys.leadsBack(page, from: request, askedBefore: head.asked.keys(.next))
            {
                let error = PagingError.repeatedKey(request, direction: .next, returned: page.nextKey)
                fail(slot, current, error: error, into: &effects)
                return effects
            }
            head.collect(request, page)
            let held = items
            let heldIndices = window.indices(of: head.items.lazy.map(\.id))
            // Where the head reaches the list: not at an item inserted since the head refresh
            // became owed (it may sit above what the source added meanwhile).
            let unjoined = self.unjoined ?? []
            let splice = HeadSplice.make(
                head: head.items, heldCount: held.count,
                heldIndex: { unjoined.contains($0) ? nil : heldIndices[$0] }, heldItem: { held[$0] },
                uncounted: unjoined.isEmpty ? [] : Set(window.indices(of: unjoined).values))
            // A head that holds none of the held items, or whose alignment on them is not sure (it
            // may rest on rows that moved up), loads on within its limit.
            if splice?.isSure != true, let next = head.nextRequest(count: configuration.pageSize) {
                _ = start(slot, request: next, job: .head(head), operation: current.operation, into: &effects)
                return effects
            }
            inFlight[slot.rawValue] = nil
            // Whether the head reaches the list is judged by what the source sent; the edits made
            // meanwhile then go into it, and the splice is made again with them.
            var splicing = splice
            let rebase = takeRefreshEdits()
            let reachesEnd = head.pages.last?.1.nextKey == nil
            if !rebase.isEmpty { head.rebase(rebase, reachesEnd: reachesEnd) }
            if splice != nil, !rebase.isEmpty || !unjoined.isEmpty {
                // Made again with every held item: those inserted meanwhile keep their rows.
                let heldIndices = window.indices(of: head.items.lazy.map(\.id))
                splicing = HeadSplice.make(
                    head: head.items, heldCount: held.count, heldIndex: { heldIndices[$0] },
                    heldItem: { held[$0] })
            }
            self.unjoined = nil
            if let splicing, splice?.isSure == true, !reachesEnd {
                reattach(head, splicing, into: &effects)
            } else {
                // The head did not reach the list surely within its limit (the rows held below are
                // left to paging, not dropped for good), or it reached the end of the list (nothing
                // held below it is there any more): it is the list now.
                let before = Array(items)
                shiftAbove = (nil, 0)
                let duplicates = window.replaceAll(
                    with: head.pages, firstSequence: 0, keepDropped: (nil, nil), modified: version + 1,
                    limit: configuration.maximumHeld)
                viewport = nil
                publish(
                    RowDiff.change(from: before, to: Array(items), base: 0), duplicates: duplicates,
                    into: &effects)
            }
            effects.finished.append((current.operation, .success(.loaded)))

        case .jump(let target, let start):
            inFlight[slot.rawValue] = nil
            var pages = [(request, page)]
            takeRefreshEdits().apply(to: &pages, first: page.previousKey == nil, last: page.nextKey == nil)
            unjoined = nil
            replaceAll(with: pages, firstSequence: 0, keepDropped: (nil, nil), into: &effects)
            // The reader is at the position jumped to: the ends near it load. The page starts
            // where it says it does, or else where it was asked to.
            if !items.isEmpty {
                let first = window.placeholderCounts.before ?? start
                let held = min(max(target - first, 0), items.count - 1)
                viewport = (held, items.count - 1 - held)
                prefetchAroundViewport(into: &effects)
            } else if hasPrevious {
                // Past the end of a list whose length was not known: the page before shows its end.
                viewport = (-1, 0)
                prefetch(.previous, into: &effects)
            }
            effects.finished.append((current.operation, .success(.loaded)))

        case .anchored(var plan):
            let direction = request.direction ?? (plan.forward ? .next : .previous)
            if AskedKeys.leadsBack(page, from: request, askedBefore: plan.asked.keys(direction))
                || page.key(direction).map(plan.asked.keys(direction).contains) == true
            {
                let error = PagingError.repeatedKey(
                    request, direction: direction,
                    returned: direction == .next ? page.nextKey : page.previousKey)
                fail(slot, current, error: error, into: &effects)
                return effects
            }
            plan.collect(request, page)
            if let next = plan.nextRequest(count: configuration.pageSize) {
                _ = start(
                    slot, request: next, job: .anchored(plan), operation: current.operation, into: &effects)
                return effects
            }
            if let (wider, widened) = plan.widened(in: window) {
                // The anchor moved (or is gone): read again from further up the near side.
                _ = start(
                    slot, request: wider, job: .anchored(widened), operation: current.operation,
                    into: &effects)
                return effects
            }
            inFlight[slot.rawValue] = nil
            reanchor(plan, into: &effects)
            effects.finished.append((current.operation, .success(.loaded)))

        case .append(let replaying), .prepend(let replaying):
            let atEnd = slot == .next
            let direction: LoadDirection = atEnd ? .next : .previous
            // A dropped page loaded again leads where it led before. A page that found the list
            // moved under its keys (offsets) may name a key asked before, which stands for another
            // place now: the keys asked that way, its own included, are forgotten once it is in. It
            // may name the key it was asked with (the list moved back), but then must bring an item
            // not held, or the same request would come back forever.
            let leadsBack =
                page.drift == nil
                ? window.asked.leadsBack(page, from: request)
                : AskedKeys.leadsBack(page, from: request, askedBefore: [])
                    && page.items.allSatisfy { window.location(of: $0.id) != nil }
            if !replaying, leadsBack {
                let error = PagingError.repeatedKey(
                    request, direction: direction, returned: page.key(direction))
                fail(slot, current, error: error, into: &effects)
                return effects
            }
            inFlight[slot.rawValue] = nil
            var page = page
            if !current.removedMeanwhile.isEmpty {
                page.items.removeAll { current.removedMeanwhile.contains($0.id) }
            }
            insert(page, for: request, atEnd: atEnd, replaying: replaying, into: &effects)
            if let found = page.drift {
                window.forgetAskedKeys(direction)
                drift = found
                driftCount += 1
                // Items added or removed above the first held item moved the last one as much.
                if !atEnd, found.resynchronized, let shift = found.shift {
                    shiftAbove = (window.record(at: window.endSequence - 1)?.request, knownShiftAbove + shift)
                }
            }
            effects.finished.append((current.operation, .success(.loaded)))
        }
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
        let refreshing = inFlight[Slot.refresh.rawValue] != nil
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
    private mutating func takeRefreshEdits() -> RefreshRebase<Key, Item> {
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
        switch job {
        case .append where lendsHeldItems:
            request.heldBefore = heldIDs(atEnd: true, count: request.count)
            request.knownShift = knownShiftAbove
        case .prepend where lendsHeldItems: request.heldAfter = heldIDs(atEnd: false, count: request.count)
        default: break
        }
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
    private var knownShiftAbove: Int {
        let last = window.record(at: window.endSequence - 1)?.request
        return last != nil && shiftAbove.last == last ? shiftAbove.shift : 0
    }

    /// The ids of the items held at an end, nearest the end first: at most the larger of `count`
    /// and 20, from the pages there.
    /// - Complexity: O(*m* + log *p*) for *m* ids, from the *p* pages held.
    private func heldIDs(atEnd: Bool, count: Int) -> [any Hashable & Sendable] {
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
    private mutating func publish(_ change: ListChange, duplicates: Int = 0, into effects: inout Effects) {
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

    /// Adds a page at an end and drops pages at the other end past the limit.
    private mutating func insert(
        _ page: Page<Key, Item>, for request: Request, atEnd: Bool, replaying: Bool,
        into effects: inout Effects
    ) {
        let oldCount = items.count
        let (kept, duplicates) = window.add(
            page, for: request, atEnd: atEnd, replaying: replaying, modified: version + 1)
        // Trim the far end. A load in flight there would continue a page that
        // is gone: cancel it; the dropped page's request is kept instead.
        var droppedItems = 0
        while window.exceeds(configuration.maximumHeld), window.pageCount > 1 {
            droppedItems += window.dropPage(atEnd: !atEnd)
            // So would a failed request there, if retried: forget it.
            let farSlot: Slot = atEnd ? .previous : .next
            failures[farSlot.rawValue] = nil
            if let far = inFlight[farSlot.rawValue] {
                effects.cancel.append(far.requestID)
                effects.finished.append((far.operation, .success(.cancelled)))
                inFlight[farSlot.rawValue] = nil
            }
        }
        let change: ListChange
        if atEnd {
            let start = oldCount - droppedItems
            change = ListChange(
                removed: droppedItems > 0 ? [0..<droppedItems] : [],
                inserted: kept == 0 ? [] : [start..<start + kept])
        } else {
            change = ListChange(
                removed: droppedItems > 0 ? [oldCount - droppedItems..<oldCount] : [],
                inserted: kept == 0 ? [] : [0..<kept])
        }
        publish(change, duplicates: duplicates, into: &effects)
        if let shown = viewport {
            // The item shown moves away from the end that grew; if the window
            // dropped it, nothing is known of where the reader is any more.
            let moved =
                atEnd
                ? (fromStart: shown.fromStart - droppedItems, fromEnd: shown.fromEnd + kept)
                : (fromStart: shown.fromStart + kept, fromEnd: shown.fromEnd - droppedItems)
            // Only the end trimmed can lose the item shown, when it was held there. A placeholder
            // shown beyond an end (a negative distance from it) stays where it is in the list.
            let lost =
                atEnd ? shown.fromStart >= 0 && moved.fromStart < 0 : shown.fromEnd >= 0 && moved.fromEnd < 0
            viewport = lost ? nil : moved
            // Go on in the direction of this load only: the far end, just
            // trimmed, waits for the reader, or the window would swing back
            // and forth.
            if let moved = viewport, inFlight[Slot.refresh.rawValue] == nil {
                let distance = configuration.prefetchDistance
                if atEnd, moved.fromEnd <= distance { prefetch(.next, into: &effects) }
                if !atEnd, moved.fromStart <= distance { prefetch(.previous, into: &effects) }
            }
        }
    }

    /// Splices a head refresh's pages in place of the held items they cover,
    /// in one change (the splice's, and the removal of pages the window then
    /// drops at the back); the item last shown keeps its distance from the
    /// end when it is in the kept tail and nothing there moved up.
    private mutating func reattach(
        _ head: HeadRefresh<Key, Item>, _ splice: HeadSplice, into effects: inout Effects
    ) {
        let before = items
        let oldCount = before.count
        let tailCount = splice.tailCount
        let headIDs = Set(head.items.map(\.id))
        // The held items the head moved up from below the range it covers: removed there.
        let movedUp = splice.change.removed.lazy.filter { $0.upperBound > splice.tailStart }
            .flatMap { max($0.lowerBound, splice.tailStart)..<$0.upperBound }
        let duplicates = window.reattach(
            head.pages, movedUp: movedUp, tailStart: splice.tailStart, modified: version + 1,
            limit: configuration.maximumHeld)
        let spliced = head.items.count + tailCount
        let dropped = spliced - items.count
        var change = splice.change
        if dropped > 0 {
            if dropped <= tailCount {
                // The window dropped the last kept items of the tail: remove them where they were.
                var gone: [Int] = []
                var index = oldCount - 1
                while gone.count < dropped, index >= splice.tailStart {
                    if !headIDs.contains(before[index].id) { gone.append(index) }
                    index -= 1
                }
                change.removed = HeadSplice.ranges(Set(change.removed.flatMap { Array($0) } + gone).sorted())
            } else {
                change = ListChange(
                    removed: oldCount > 0 ? [0..<oldCount] : [],
                    inserted: items.isEmpty ? [] : [0..<items.count])
            }
        }
        let kept = max(dropped, 0)
        let tailMoved = oldCount - splice.tailStart != tailCount
        if let shown = viewport, !tailMoved, shown.fromEnd >= kept, shown.fromEnd < tailCount {
            let fromEnd = shown.fromEnd - kept
            viewport = (items.count - 1 - fromEnd, fromEnd)
        } else {
            viewport = nil
        }
        publish(change, duplicates: duplicates, into: &effects)
    }

    /// Puts an anchored refresh's pages in place of the anchor's page and
    /// those on its far side, in one change that leaves the near side's rows
    /// as they were (``RowDiff``): the far side's rows are diffed with the
    /// new pages' items, found by id (``PageWindow/indices(of:)``).
    /// O(*k* (log *k* + log *p*)) expected for *k* items loaded out of *p*
    /// pages of *m* items held, plus O(*m*) for each page holding one of
    /// them, plus O(*r* + *q*) for the *r* items of the *q* pages removed.
    private mutating func reanchor(_ plan: AnchoredRefresh<Key, Item>, into effects: inout Effects) {
        guard window.record(at: plan.sequence) != nil else {
            // Not held any more (it cannot happen while a refresh runs): the pages are the list.
            replaceAll(with: plan.pagesInListOrder, firstSequence: 0, keepDropped: (nil, nil), into: &effects)
            return
        }
        let before = items
        let oldCount = before.count
        // The rows replaced: from the anchor's page to the end (forward) or from the start to the
        // end of the anchor's page (backward). The near side's rows are what they were, and on
        // the longest common run whatever the far side's change, so they need no diff.
        let (anchorItems, anchorStart) = before.page(at: plan.sequence - window.firstSequence)
        let far = plan.forward ? anchorStart..<oldCount : 0..<anchorStart + anchorItems.count
        let nearCount = oldCount - far.count
        let oldIndex = window.indices(of: plan.pages.lazy.flatMap { $0.1.items.lazy.map(\.id) })
        let duplicates = window.reanchor(
            plan.pagesInListOrder, at: plan.sequence, forward: plan.forward, modified: version + 1,
            limit: configuration.maximumHeld)
        let newCount = items.count
        let change: ListChange
        if newCount < nearCount {
            // The window's limit dropped near rows too (beyond the new pages): the rest of them stay.
            change = ListChange(removed: [plan.forward ? newCount..<oldCount : 0..<oldCount - newCount])
        } else {
            let start = plan.forward ? nearCount : 0
            let fresh = Array(items[start..<start + newCount - nearCount])
            change = RowDiff.change(
                replacing: far, with: fresh, at: start, oldIndex: { oldIndex[$0] }, oldItem: { before[$0] })
        }
        // Where the reader is, the next item reported shown says: a guess would set off loads.
        viewport = nil
        publish(change, duplicates: duplicates, into: &effects)
    }

    /// Replaces every page with the given ones, in one change, the first at
    /// sequence `first`; the requests of pages dropped at each end become
    /// `keepDropped` (none where it is `nil`).
    private mutating func replaceAll(
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

extension Page {
    /// The key of the neighbour in a direction.
    fileprivate func key(_ direction: LoadDirection) -> Key? {
        direction == .next ? nextKey : previousKey
    }
}
