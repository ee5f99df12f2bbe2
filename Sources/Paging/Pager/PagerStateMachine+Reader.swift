// Where the reader is: the items and placeholders shown, the prefetch around them, and jumps.
extension PagerStateMachine {
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

    /// Where a jump to a position goes, within the list's total when known, and where its page
    /// of ``PagingConfiguration/jumpLoadSize`` items starts: the position in its middle, or as
    /// near as the list's ends let it be.
    func jumpPage(to position: Int) -> (target: Int, first: Int) {
        var target = position
        if let total = knownTotal { target = min(target, max(0, total - 1)) }
        let count = configuration.jumpLoadSize
        var first = max(0, target - count / 2)
        if let total = knownTotal { first = max(0, min(first, total - count)) }
        return (target, first)
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
}
