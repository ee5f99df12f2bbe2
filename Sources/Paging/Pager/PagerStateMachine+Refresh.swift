// The refreshes of a pager state machine: which plan a refresh starts by the list's policy, the
// head and anchored refreshes, and the retry of what failed.
extension PagerStateMachine {
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
}
