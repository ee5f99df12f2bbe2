/// The pager's logic, with no task, no lock and no clock: every event is a
/// mutating method that returns what the driver must do (``Effects``).
///
/// It holds the items (a ``PagedItems`` tree whose leaf *i* is the page with
/// sequence number `firstSequence + i`), the request and neighbour keys of
/// each page, the ids held (for deduplication and edits), the requests of
/// pages dropped from the window, and the load in flight or the failure of
/// each slot (refresh, next, previous).
///
/// Key cycles: the keys asked for at each end since the last restart are
/// remembered, so a source whose keys come round again (A → B → A), not only
/// one that returns the key it was asked with, is stopped with
/// ``PagingError/Code/repeatedKey`` instead of being followed forever.
///
/// Stale responses: every load carries a request id and the generation it
/// started in. A response is applied only when its slot still waits for that
/// very request id in that generation; a reset, a refresh and a cancel clear
/// or replace the slots and bump the generation, so nothing started before
/// them is ever applied.
struct PagerStateMachine<Key: Hashable & Sendable, Item: Identifiable & Sendable> where Item.ID: Sendable {
    typealias Request = PageRequest<Key>

    /// The three things that can load at once.
    enum Slot: Int, CaseIterable, Sendable {
        case refresh, next, previous
    }

    /// A load the driver must start.
    struct Command: Sendable, Equatable {
        /// Identifies the request; its response is reported with it.
        let id: Int
        /// The generation the request started in.
        let generation: Int
        /// What to ask the source for.
        let request: Request
    }

    /// What the driver must do after an event.
    struct Effects: Sendable {
        /// Loads to start.
        var start: [Command] = []
        /// Request ids whose tasks to cancel.
        var cancel: [Int] = []
        /// Operations that ended, with their result, for the callers waiting.
        var finished: [(operation: Int, result: Result<LoadOutcome, PagingError>)] = []
        /// Whether a new snapshot is to be published.
        var changed = false
    }

    /// How a load call is answered: wait for an operation to end, or at once.
    enum Admission: Sendable, Equatable {
        case wait(operation: Int)
        case done(Result<LoadOutcome, PagingError>)
    }

    /// What an in-flight load is for.
    enum Job: Sendable {
        /// The first load, or a restart: replaces everything with its page.
        case restart
        /// A refetch of the held pages.
        case refetch(Refetch)
        /// A page after the last; `replaying` when it reloads a dropped page.
        case append(replaying: Bool)
        /// A page before the first; `replaying` when it reloads a dropped page.
        case prepend(replaying: Bool)
    }

    /// A refresh that loads every held page again, keeping the list's
    /// length: first the held page nearest the list's first page (its
    /// anchor, sequence 0) with its own request, then the pages after it
    /// forward and the pages before it backward, each asked for with its own
    /// size and the fresh keys. A list paged only forward is refetched
    /// forward from its first held page, one paged only backward (a chat)
    /// backward from its last.
    struct Refetch: Sendable {
        enum Phase: Sendable { case anchor, after, before }

        /// The sequence of the page refetched first; the pages keep their
        /// sequences, so pages dropped from the window still fit around them.
        let anchorSequence: Int
        /// Whether pages before (after) the anchor are refetched: the dropped
        /// requests at an end refetched are forgotten, the fresh keys lead on.
        let refetchesFront: Bool
        let refetchesBack: Bool
        var phase = Phase.anchor
        var anchor: (Request, Page<Key, Item>)?
        /// The pages after the anchor, in order.
        var after: [(Request, Page<Key, Item>)] = []
        /// The pages before the anchor, nearest first.
        var before: [(Request, Page<Key, Item>)] = []
        /// The sizes of the pages to refetch after the anchor, in order, and
        /// how many of them were asked for.
        let sizesAfter: [Int]
        var askedAfter = 0
        /// The sizes of the pages to refetch before it, nearest first, and
        /// how many of them were asked for.
        let sizesBefore: [Int]
        var askedBefore = 0
        /// The keys this refetch asked for with `next(after:)` and with
        /// `previous(before:)`.
        var askedNext: Set<Key> = []
        var askedPrevious: Set<Key> = []

        /// The requests of the pages dropped at each end when the refresh was planned, kept
        /// around the refetched pages at an end not refetched. Those dropped since (by loads
        /// that ended after the refetch failed, before it was retried) belong to another
        /// window: keeping them would put pages beside ones they overlap, out of order.
        let dropped: (front: [Request], back: [Request])

        init(
            anchorSequence: Int, sizesAfter: [Int], sizesBefore: [Int],
            dropped: (front: [Request], back: [Request])
        ) {
            self.anchorSequence = anchorSequence
            self.sizesAfter = sizesAfter
            self.sizesBefore = sizesBefore
            refetchesFront = !sizesBefore.isEmpty
            refetchesBack = !sizesAfter.isEmpty
            self.dropped = dropped
        }

        /// Records the page of the request in flight.
        mutating func collect(_ request: Request, _ page: Page<Key, Item>) {
            switch phase {
            case .anchor: anchor = (request, page)
            case .after: after.append((request, page))
            case .before: before.append((request, page))
            }
            switch request.position {
            case .initial: break
            case .next(let key): askedNext.insert(key)
            case .previous(let key): askedPrevious.insert(key)
            }
        }

        /// The keys this refetch has asked for so far in a direction.
        func askedKeys(_ direction: LoadDirection) -> Set<Key> {
            direction == .next ? askedNext : askedPrevious
        }

        /// The next request to make, or `nil` when every page is in. Forward
        /// first, until the sizes run out or the list ends; then backward.
        mutating func advance() -> Request? {
            guard let anchor else { return nil }
            if phase != .before, askedAfter < sizesAfter.count, let key = (after.last ?? anchor).1.nextKey {
                askedAfter += 1
                phase = .after
                return Request(.next(after: key), count: sizesAfter[askedAfter - 1])
            }
            // Forward is done (all asked, or the list ended): backward.
            if askedBefore < sizesBefore.count, let key = (before.last ?? anchor).1.previousKey {
                askedBefore += 1
                phase = .before
                return Request(.previous(before: key), count: sizesBefore[askedBefore - 1])
            }
            return nil
        }

        /// Every page, in list order.
        var pages: [(Request, Page<Key, Item>)] {
            before.reversed() + [anchor].compactMap { $0 } + after
        }
    }

    struct InFlight: Sendable {
        let operation: Int
        var requestID: Int
        var request: Request
        var job: Job
    }

    struct Failure: Sendable {
        let request: Request
        let job: Job
        let error: PagingError
    }

    struct PageRecord: Sendable {
        let request: Request
        let previousKey: Key?
        let nextKey: Key?
        /// The version of the first snapshot that showed the page's items
        /// as they are: a local edit of an item conditioned on the item
        /// being unchanged since a version checks this.
        var modified: Int
    }

    // MARK: State

    let configuration: PagingConfiguration
    let initialKey: Key?

    private(set) var items = PagedItems<Item>()
    /// Page records by sequence number, for `firstSequence ..< endSequence`.
    private var records: [Int: PageRecord] = [:]
    private var firstSequence = 0
    private var endSequence = 0
    /// The page (sequence number) holding each item id.
    private var ids = IdentityIndex()
    /// Requests of pages dropped before the first held page; the last is the
    /// nearest.
    private var droppedFront: [Request] = []
    /// Requests of pages dropped after the last held page; the last is the
    /// nearest.
    private var droppedBack: [Request] = []
    /// The keys asked for with `next(after:)` (`previous(before:)`) since
    /// the last restart, held pages and dropped ones: a page that names one
    /// of them as its next (previous) key would lead round in a cycle.
    private var askedNext: Set<Key> = []
    private var askedPrevious: Set<Key> = []

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

    init(configuration: PagingConfiguration, initialKey: Key?) {
        self.configuration = configuration
        self.initialKey = initialKey
    }

    // MARK: Derived state

    /// Whether a first page has arrived since the start or the last reset.
    var isLoaded: Bool { endSequence > firstSequence }

    var pageCount: Int { endSequence - firstSequence }

    var hasNext: Bool {
        guard isLoaded else { return true }
        return !droppedBack.isEmpty || records[endSequence - 1]?.nextKey != nil
    }

    var hasPrevious: Bool {
        guard isLoaded else { return true }
        return !droppedFront.isEmpty || records[firstSequence]?.previousKey != nil
    }

    /// The next key of the last page held and the previous key of the first.
    var edgeKeys: (previous: Key?, next: Key?) {
        (records[firstSequence]?.previousKey, records[endSequence - 1]?.nextKey)
    }

    var loadStates: LoadStates {
        LoadStates(refresh: state(of: .refresh), previous: state(of: .previous), next: state(of: .next))
    }

    private func state(of slot: Slot) -> LoadState {
        if inFlight[slot.rawValue] != nil { return .loading }
        if let failure = failures[slot.rawValue] { return .failed(failure.error) }
        switch slot {
        case .refresh: return .notLoading
        case .next: return isLoaded && !hasNext ? .endReached : .notLoading
        case .previous: return isLoaded && !hasPrevious ? .endReached : .notLoading
        }
    }

    /// The snapshot of the current state.
    /// - Complexity: O(1).
    var snapshot: PagingSnapshot<Item> {
        var snapshot = PagingSnapshot(
            items: items, loadStates: loadStates, hasNext: hasNext, hasPrevious: hasPrevious, change: change,
            duplicatesDropped: duplicatesDropped, version: version)
        snapshot.loadIDs = SlotLoadIDs(
            refresh: inFlight[Slot.refresh.rawValue]?.requestID,
            next: inFlight[Slot.next.rawValue]?.requestID,
            previous: inFlight[Slot.previous.rawValue]?.requestID)
        return snapshot
    }

    /// The request ids of the loads in flight (for tests and the driver).
    var requestsInFlight: [Int] { inFlight.compactMap { $0?.requestID } }

    /// The number of pages dropped from the window at each end.
    var droppedPageCounts: (front: Int, back: Int) { (droppedFront.count, droppedBack.count) }

    /// The index of the item with an id, if held.
    /// - Complexity: O(log *p* + *m*) for *p* pages of *m* items.
    func index(of id: Item.ID) -> Int? {
        locate(id).map { $0.firstIndex + $0.offset }
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
        var effects = Effects()
        let refreshOperation = inFlight[Slot.refresh.rawValue]?.operation
        cancelAll(except: .refresh, into: &effects)
        if let current = inFlight[Slot.refresh.rawValue] {
            effects.cancel.append(current.requestID)
            inFlight[Slot.refresh.rawValue] = nil
        }
        generation += 1
        failures = [nil, nil, nil]
        let (request, job) = refreshPlan()
        let operation = start(
            .refresh, request: request, job: job, operation: refreshOperation, into: &effects)
        return (.wait(operation: operation), effects)
    }

    /// The first request of a refresh and what it is for, made from the pages held now.
    private func refreshPlan() -> (Request, Job) {
        let request: Request
        let job: Job
        if !isLoaded || configuration.refreshPolicy == .restart {
            request = Request(.initial(initialKey), count: configuration.initialLoadSize)
            job = .restart
        } else {
            // Replay the request of the held page nearest the first page the
            // list loaded (sequence 0), then go on in the directions the list
            // was paged in. Each held page is asked for with its own size, so
            // the list keeps its length and stays within the window.
            let anchor = min(max(0, firstSequence), endSequence - 1)
            request =
                records[anchor]?.request
                ?? Request(.initial(initialKey), count: configuration.initialLoadSize)
            let size = { (sequence: Int) in
                self.records[sequence]?.request.count ?? self.configuration.pageSize
            }
            job = .refetch(
                Refetch(
                    anchorSequence: anchor, sizesAfter: (anchor + 1..<endSequence).map(size),
                    sizesBefore: (firstSequence..<anchor).reversed().map(size),
                    dropped: (droppedFront, droppedBack)))
        }
        return (request, job)
    }

    /// A caller asks to repeat the failed loads.
    mutating func retry() -> ([Admission], Effects) {
        var effects = Effects()
        if let failure = failures[Slot.refresh.rawValue] {
            // A refresh outranks the loads that started after it failed. A refetch goes on
            // where it failed, with its plan: it brings back the list as it was when the
            // refresh was asked for, with the pages dropped then (see `Refetch.dropped`).
            cancelAll(except: nil, into: &effects)
            generation += 1
            failures = [nil, nil, nil]
            let operation = start(
                .refresh, request: failure.request, job: failure.job, operation: nil, into: &effects)
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
        cancelAll(except: nil, into: &effects)
        generation += 1
        failures = [nil, nil, nil]
        let removedCount = items.count
        items = PagedItems()
        records = [:]
        ids.removeAll()
        firstSequence = 0
        endSequence = 0
        droppedFront = []
        droppedBack = []
        askedNext = []
        askedPrevious = []
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
            replaceAll(with: [(request, page)], firstSequence: 0, keepDropped: (nil, nil), into: &effects)
            effects.finished.append((current.operation, .success(.loaded)))

        case .refetch(var refetch):
            if let direction = request.direction,
                Self.leadsBack(page, from: request, askedBefore: refetch.askedKeys(direction))
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
            replaceAll(
                with: refetch.pages, firstSequence: refetch.anchorSequence - refetch.before.count,
                keepDropped: (
                    front: refetch.refetchesFront ? nil : refetch.dropped.front,
                    back: refetch.refetchesBack ? nil : refetch.dropped.back
                ),
                into: &effects)
            effects.finished.append((current.operation, .success(.loaded)))

        case .append(let replaying), .prepend(let replaying):
            let atEnd = slot == .next
            // A dropped page loaded again leads where it led before.
            if !replaying,
                Self.leadsBack(page, from: request, askedBefore: atEnd ? askedNext : askedPrevious)
            {
                let direction: LoadDirection = atEnd ? .next : .previous
                let error = PagingError.repeatedKey(
                    request, direction: direction, returned: page.key(direction))
                fail(slot, current, error: error, into: &effects)
                return effects
            }
            inFlight[slot.rawValue] = nil
            if replaying {
                if atEnd { droppedBack.removeLast() } else { droppedFront.removeLast() }
            }
            remember(request)
            insert(page, for: request, atEnd: atEnd, into: &effects)
            effects.finished.append((current.operation, .success(.loaded)))
        }
        return effects
    }

    /// Whether a page loaded in a direction names, as its key in that
    /// direction, the key it was asked with or one asked for before: following
    /// it would load pages already loaded, round and round.
    private static func leadsBack(
        _ page: Page<Key, Item>, from request: Request, askedBefore: some Sequence<Key>
    ) -> Bool {
        let (asked, key): (Key?, Key?)
        switch request.position {
        case .initial: return false
        case .next(let after): (asked, key) = (after, page.nextKey)
        case .previous(let before): (asked, key) = (before, page.previousKey)
        }
        guard let key else { return false }
        return key == asked || askedBefore.contains(key)
    }

    /// Remembers the key a request asked for in its direction.
    private mutating func remember(_ request: Request) {
        switch request.position {
        case .initial: break
        case .next(let key): askedNext.insert(key)
        case .previous(let key): askedPrevious.insert(key)
        }
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
        var batch = Batch(countBefore: items.count)
        for edit in edits {
            let (outcome, item) = perform(edit, into: &batch)
            outcomes.append(outcome)
            removed.append(item)
        }
        guard !batch.changes.isEmpty else { return (outcomes, removed, effects) }
        for sequence in batch.edited { records[sequence]?.modified = version + 1 }
        publish(batch.change, into: &effects)
        return (outcomes, removed, effects)
    }

    /// The held items with some ids, by id.
    /// - Complexity: O(*k* (*m* + log *p*)) for *k* ids.
    func items(withIDs ids: some Sequence<Item.ID>) -> [Item.ID: Item] {
        var found: [Item.ID: Item] = [:]
        for id in ids where found[id] == nil {
            guard let row = locate(id) else { continue }
            found[id] = row.pageItems[row.offset]
        }
        return found
    }

    /// What a batch of edits changed so far.
    private struct Batch {
        let countBefore: Int
        /// The change of each edit applied, in order.
        var changes: [ListChange] = []
        /// The indices updated, while nothing was inserted or removed.
        var updatedOnly: [Int]? = []
        /// The sequences of the pages the batch edited.
        var edited: Set<Int> = []

        init(countBefore: Int) {
            self.countBefore = countBefore
        }

        mutating func record(_ change: ListChange, sequence: Int) {
            changes.append(change)
            edited.insert(sequence)
            if change.inserted.isEmpty, change.removed.isEmpty, let index = change.updated.first?.lowerBound {
                updatedOnly?.append(index)
            } else {
                updatedOnly = nil
            }
        }

        /// The batch's change as one: updates in place sorted and joined,
        /// anything else merged.
        var change: ListChange {
            guard let indices = updatedOnly else {
                return ListChange.merging(changes, countBefore: countBefore)
            }
            var ranges: [Range<Int>] = []
            for index in Set(indices).sorted() {
                if let last = ranges.last, last.upperBound == index {
                    ranges[ranges.count - 1] = last.lowerBound..<index + 1
                } else {
                    ranges.append(index..<index + 1)
                }
            }
            return ListChange(updated: ranges)
        }
    }

    /// A held item and where it is.
    private struct Row {
        let sequence: Int
        var pageItems: [Item]
        let firstIndex: Int
        let offset: Int
    }

    /// The held item with an id.
    /// - Complexity: O(log *p* + *m*).
    private func locate(_ id: Item.ID) -> Row? {
        guard let sequence = location(of: id) else { return nil }
        let (pageItems, firstIndex) = items.page(at: sequence - firstSequence)
        guard let offset = pageItems.firstIndex(where: { $0.id == id }) else { return nil }
        return Row(sequence: sequence, pageItems: pageItems, firstIndex: firstIndex, offset: offset)
    }

    /// Whether an edit's condition holds for the item it is about.
    private func holds(_ condition: PagerEdit<Item>.Condition, for row: Item, inPage sequence: Int) -> Bool {
        switch condition.kind {
        case .always: true
        case .version(let read): version == read
        case .unchanged(let read): (records[sequence]?.modified ?? .max) <= read
        case .matching(let predicate): predicate(row)
        }
    }

    /// Applies one edit of a batch.
    private mutating func perform(_ edit: PagerEdit<Item>, into batch: inout Batch) -> (
        PagerEdit<Item>.Outcome, Item?
    ) {
        switch edit.kind {
        case .update(let item):
            guard var row = locate(item.id) else { return (.notHeld, nil) }
            guard holds(edit.condition, for: row.pageItems[row.offset], inPage: row.sequence) else {
                return (.conditionFailed, nil)
            }
            row.pageItems[row.offset] = item
            items.replacePage(at: row.sequence - firstSequence, with: row.pageItems)
            let index = row.firstIndex + row.offset
            batch.record(ListChange(updated: [index..<index + 1]), sequence: row.sequence)
            return (.applied, nil)

        case .remove(let id):
            guard var row = locate(id) else { return (.notHeld, nil) }
            guard holds(edit.condition, for: row.pageItems[row.offset], inPage: row.sequence) else {
                return (.conditionFailed, nil)
            }
            let removed = row.pageItems.remove(at: row.offset)
            items.replacePage(at: row.sequence - firstSequence, with: row.pageItems)
            ids.remove(hash: IdentityIndex.hash(id), sequence: row.sequence)
            let index = row.firstIndex + row.offset
            batch.record(ListChange(removed: [index..<index + 1]), sequence: row.sequence)
            return (.applied, removed)

        case .insert(let item, let position):
            guard isLoaded else { return (.notHeld, nil) }
            guard location(of: item.id) == nil else { return (.alreadyHeld, nil) }
            // The item it goes next to, and the offset it takes in that page.
            let row: Row
            let offset: Int
            switch position {
            case .first:
                let (pageItems, firstIndex) = items.page(at: 0)
                row = Row(sequence: firstSequence, pageItems: pageItems, firstIndex: firstIndex, offset: 0)
                offset = 0
            case .last:
                let (pageItems, firstIndex) = items.page(at: endSequence - 1 - firstSequence)
                row = Row(
                    sequence: endSequence - 1, pageItems: pageItems, firstIndex: firstIndex,
                    offset: pageItems.count - 1)
                offset = pageItems.count
            case .before(let id):
                guard let found = locate(id) else { return (.notHeld, nil) }
                row = found
                offset = found.offset
            case .after(let id):
                guard let found = locate(id) else { return (.notHeld, nil) }
                row = found
                offset = found.offset + 1
            }
            // An empty page at an end has no item to be next to: only a
            // condition about the page itself can hold there.
            let neighbour = row.pageItems.indices.contains(row.offset) ? row.pageItems[row.offset] : nil
            let satisfied =
                if let neighbour {
                    holds(edit.condition, for: neighbour, inPage: row.sequence)
                } else if case .matching = edit.condition.kind {
                    false
                } else {
                    holds(edit.condition, for: item, inPage: row.sequence)
                }
            guard satisfied else { return (.conditionFailed, nil) }
            var pageItems = row.pageItems
            pageItems.insert(item, at: offset)
            items.replacePage(at: row.sequence - firstSequence, with: pageItems)
            _ = ids.insert(hash: IdentityIndex.hash(item.id), sequence: row.sequence, base: indexBase) { _ in
                false
            }
            let index = row.firstIndex + offset
            batch.record(ListChange(inserted: [index..<index + 1]), sequence: row.sequence)
            return (.applied, nil)
        }
    }

    // MARK: Helpers

    /// The request that loads the next page at an end, and whether it
    /// replays a dropped page; `nil` at the end.
    private func nextRequest(_ direction: LoadDirection, count: Int?) -> (Request, Bool)? {
        switch direction {
        case .next:
            if var dropped = droppedBack.last {
                dropped.isReload = true
                return (dropped, true)
            }
            guard let key = records[endSequence - 1]?.nextKey else { return nil }
            return (Request(.next(after: key), count: count ?? configuration.pageSize), false)
        case .previous:
            if var dropped = droppedFront.last {
                dropped.isReload = true
                return (dropped, true)
            }
            guard let key = records[firstSequence]?.previousKey else { return nil }
            return (Request(.previous(before: key), count: count ?? configuration.pageSize), false)
        }
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
        let operation = operation ?? nextOperation()
        inFlight[slot.rawValue] = InFlight(
            operation: operation, requestID: requestCounter, request: request, job: job)
        failures[slot.rawValue] = nil
        effects.start.append(Command(id: requestCounter, generation: generation, request: request))
        publish(ListChange(), into: &effects)
        return operation
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
    private mutating func publish(_ change: ListChange, duplicates: Int = 0, into effects: inout Effects) {
        version += 1
        self.change = change
        duplicatesDropped = duplicates
        effects.changed = true
    }

    /// Adds a page at an end and drops pages at the other end past the limit.
    private mutating func insert(
        _ page: Page<Key, Item>, for request: Request, atEnd: Bool, into effects: inout Effects
    ) {
        let sequence = atEnd ? endSequence : firstSequence - 1
        let (kept, duplicates) = admit(page.items, sequence: sequence)
        records[sequence] = PageRecord(
            request: request, previousKey: page.previousKey, nextKey: page.nextKey, modified: version + 1)
        let oldCount = items.count
        if atEnd {
            items.appendPage(kept)
            endSequence += 1
        } else {
            items.prependPage(kept)
            firstSequence -= 1
        }
        // Trim the far end. A load in flight there would continue a page that
        // is gone: cancel it; the dropped page's request is kept instead.
        var droppedItems = 0
        while exceedsLimit, pageCount > 1 {
            droppedItems += dropPage(atEnd: !atEnd)
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
                inserted: kept.isEmpty ? [] : [start..<start + kept.count])
        } else {
            change = ListChange(
                removed: droppedItems > 0 ? [oldCount - droppedItems..<oldCount] : [],
                inserted: kept.isEmpty ? [] : [0..<kept.count])
        }
        publish(change, duplicates: duplicates, into: &effects)
        if let shown = viewport {
            // The item shown moves away from the end that grew; if the window
            // dropped it, nothing is known of where the reader is any more.
            let moved =
                atEnd
                ? (fromStart: shown.fromStart - droppedItems, fromEnd: shown.fromEnd + kept.count)
                : (fromStart: shown.fromStart + kept.count, fromEnd: shown.fromEnd - droppedItems)
            viewport = moved.fromStart >= 0 && moved.fromEnd >= 0 ? moved : nil
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

    /// Records the items of a new page as held by page `sequence`, dropping
    /// those whose id is already held or repeated within the page.
    /// - Complexity: O(*m*) for *m* items.
    private mutating func admit(_ pageItems: [Item], sequence: Int) -> (kept: [Item], duplicates: Int) {
        var kept: [Item] = []
        kept.reserveCapacity(pageItems.count)
        let base = indexBase
        let (held, first) = (items, firstSequence)
        let hashes = pageItems.map { IdentityIndex.hash($0.id) }
        ids.reserve(hashes.count)
        ids.warm(hashes)
        for (item, hash) in zip(pageItems, hashes) {
            let id = item.id
            // A hash match is confirmed in the page it names: this page, not
            // yet in the tree, or a held one.
            let added = ids.insert(hash: hash, sequence: sequence, base: base) { candidate in
                candidate == sequence
                    ? kept.contains { $0.id == id }
                    : Self.holds(id, inPage: candidate, of: held, first: first)
            }
            if added { kept.append(item) }
        }
        return (kept, pageItems.count - kept.count)
    }

    /// The sequence the identity index counts from: half its range below the
    /// first held page, so that a page prepended before it is still in range.
    private var indexBase: Int { firstSequence - (1 << 31) }

    /// Whether the held page of a sequence holds an item with an id.
    /// - Complexity: O(log *p* + *m*).
    private static func holds(
        _ id: Item.ID, inPage sequence: Int, of items: PagedItems<Item>, first firstSequence: Int
    ) -> Bool {
        let ordinal = sequence - firstSequence
        guard ordinal >= 0, ordinal < items.pageCount else { return false }
        return items.page(at: ordinal).items.contains { $0.id == id }
    }

    /// The sequence of the held page that holds an item with an id.
    /// - Complexity: O(1) expected, plus O(log *p* + *m*) to confirm a match.
    private func location(of id: Item.ID) -> Int? {
        ids.sequence(hash: IdentityIndex.hash(id), base: indexBase) {
            Self.holds(id, inPage: $0, of: items, first: firstSequence)
        }
    }

    private var exceedsLimit: Bool {
        switch configuration.maximumHeld {
        case .pages(let limit): pageCount > limit
        case .items(let limit): items.count > limit
        case nil: false
        }
    }

    /// Drops the first or last page, keeping its request; returns its item count.
    @discardableResult
    private mutating func dropPage(atEnd: Bool) -> Int {
        let sequence = atEnd ? endSequence - 1 : firstSequence
        let removed = items.removePage(atEnd: atEnd)
        let hashes = removed.map { IdentityIndex.hash($0.id) }
        ids.warm(hashes)
        for hash in hashes { ids.remove(hash: hash, sequence: sequence) }
        if let record = records.removeValue(forKey: sequence) {
            if atEnd { droppedBack.append(record.request) } else { droppedFront.append(record.request) }
        }
        if atEnd { endSequence -= 1 } else { firstSequence += 1 }
        return removed.count
    }

    /// Replaces every page with the given ones, in one change, the first at
    /// sequence `first`; the requests of pages dropped at each end become
    /// `keepDropped` (none where it is `nil`).
    private mutating func replaceAll(
        with pages: [(Request, Page<Key, Item>)], firstSequence first: Int,
        keepDropped: (front: [Request]?, back: [Request]?), into effects: inout Effects
    ) {
        let oldCount = items.count
        items = PagedItems()
        records = [:]
        ids.removeAll()
        firstSequence = first
        endSequence = first
        droppedFront = keepDropped.front ?? []
        droppedBack = keepDropped.back ?? []
        askedNext = []
        askedPrevious = []
        for request in droppedFront + droppedBack { remember(request) }
        viewport = nil
        var duplicates = 0
        for (request, page) in pages {
            remember(request)
            let (kept, dropped) = admit(page.items, sequence: endSequence)
            duplicates += dropped
            records[endSequence] = PageRecord(
                request: request, previousKey: page.previousKey, nextKey: page.nextKey, modified: version + 1)
            items.appendPage(kept)
            endSequence += 1
        }
        // Pages that came back larger than before may not all fit: drop at
        // the end away from where the refetch started.
        let dropsAtFront = keepDropped.back != nil && keepDropped.front == nil
        while exceedsLimit, pageCount > 1 {
            dropPage(atEnd: !dropsAtFront)
        }
        let change = ListChange(
            removed: oldCount > 0 ? [0..<oldCount] : [], inserted: items.isEmpty ? [] : [0..<items.count])
        publish(change, duplicates: duplicates, into: &effects)
    }
}

/// Where ``Pager/insert(_:at:)`` puts an item.
public enum InsertPosition<ID: Hashable & Sendable>: Sendable, Hashable {
    /// Before the first item held.
    case first
    /// After the last item held.
    case last
    /// Just before the item with this id.
    case before(ID)
    /// Just after the item with this id.
    case after(ID)
}

extension Page {
    /// The key of the neighbour in a direction.
    fileprivate func key(_ direction: LoadDirection) -> Key? {
        direction == .next ? nextKey : previousKey
    }
}
