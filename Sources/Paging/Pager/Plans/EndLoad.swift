/// A page after the last item held (``LoadDirection/next``) or before the first
/// (``LoadDirection/previous``), added at that end; the window drops pages at the other end past
/// its limit.
///
/// When the source checks the held items (``PageSource/checksHeldItems``), its request carries the
/// ids of the items held next to it and the shifts found at the other end
/// (``PageRequest/knownShift``); a page that found the list moved under its keys (``PageDrift``)
/// is reported, and the keys asked that way are forgotten once it is in.
struct EndLoad<Key: Hashable & Sendable, Item: Identifiable & Sendable>: LoadPlan where Item.ID: Sendable {
    /// The end it loads at.
    let direction: LoadDirection
    /// Whether it loads again a page the window dropped (with that page's request).
    let replaying: Bool
    /// The page loaded, with its request.
    private var loaded: (PageRequest<Key>, Page<Key, Item>)?

    /// A load at the end of `direction`, replaying a dropped page or not.
    init(_ direction: LoadDirection, replaying: Bool) {
        self.direction = direction
        self.replaying = replaying
    }

    /// The held ids next to the end, and at the last item the shifts found above the first.
    /// - Complexity: O(*m* + log *p*) for the *m* ids it carries.
    func prepare(_ request: inout PageRequest<Key>, in machine: PagerStateMachine<Key, Item>) {
        guard machine.lendsHeldItems else { return }
        if direction == .next {
            request.heldBefore = machine.heldIDs(atEnd: true, count: request.count)
            request.knownShift = machine.knownShiftAbove
        } else {
            request.heldAfter = machine.heldIDs(atEnd: false, count: request.count)
        }
    }

    /// A dropped page loaded again leads where it led before. A page that found the list moved
    /// under its keys (offsets) may name a key asked before, which stands for another place now;
    /// it may even name the key it was asked with (the list moved back), but then it must bring
    /// an item not held, or the same request would come back for ever.
    /// - Complexity: O(1) expected; O(*m* (log *p* + *k*)) for a page of *m* items that found drift.
    func leadsBack(
        _ page: Page<Key, Item>, from request: PageRequest<Key>, in machine: PagerStateMachine<Key, Item>
    ) -> LoadDirection? {
        guard !replaying else { return nil }
        let leads =
            page.drift == nil
            ? machine.window.asked.leadsBack(page, from: request)
            : AskedKeys.leadsBack(page, from: request, askedBefore: [])
                && page.items.allSatisfy { machine.window.location(of: $0.id) != nil }
        return leads ? direction : nil
    }

    /// Keeps the page: it is the only one.
    mutating func take(
        _ page: Page<Key, Item>, for request: PageRequest<Key>, in machine: PagerStateMachine<Key, Item>
    ) -> PageRequest<Key>? {
        loaded = (request, page)
        return nil
    }

    /// Adds the page at its end, and notes the drift it found.
    /// - Complexity: O(*m* log *p*) expected for a page of *m* items, plus O(*r*) for the *r* items
    ///   of the pages dropped at the other end.
    func finish(
        into machine: inout PagerStateMachine<Key, Item>, effects: inout PagerStateMachine<Key, Item>.Effects
    ) {
        guard let (request, page) = loaded else { return }
        let atEnd = direction == .next
        machine.insert(page, for: request, atEnd: atEnd, replaying: replaying, into: &effects)
        guard let found = page.drift else { return }
        machine.window.forgetAskedKeys(direction)
        machine.drift = found
        machine.driftCount += 1
        // Items added or removed above the first held item moved the last one as much.
        if !atEnd, found.resynchronized, let shift = found.shift {
            machine.shiftAbove = (
                machine.window.record(at: machine.window.endSequence - 1)?.request,
                machine.knownShiftAbove + shift
            )
        }
    }
}

extension PagerStateMachine {
    /// Adds a page at an end and drops pages at the other end past the limit, in one change; the
    /// place of the item last shown moves with it, and the end that grew goes on loading when the
    /// reader is within the prefetch distance of it.
    fileprivate mutating func insert(
        _ page: Page<Key, Item>, for request: Request, atEnd: Bool, replaying: Bool,
        into effects: inout Effects
    ) {
        let oldCount = items.count
        let (kept, duplicates) = window.add(
            page, for: request, atEnd: atEnd, replaying: replaying, modified: version + 1)
        let droppedItems = trim(atEnd: !atEnd, into: &effects)
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
        guard let shown = viewport else { return }
        // The item shown moves away from the end that grew; if the window dropped it, nothing is
        // known of where the reader is any more.
        let moved =
            atEnd
            ? (fromStart: shown.fromStart - droppedItems, fromEnd: shown.fromEnd + kept)
            : (fromStart: shown.fromStart + kept, fromEnd: shown.fromEnd - droppedItems)
        // Only the end trimmed can lose the item shown, when it was held there. A placeholder
        // shown beyond an end (a negative distance from it) stays where it is in the list.
        let lost =
            atEnd ? shown.fromStart >= 0 && moved.fromStart < 0 : shown.fromEnd >= 0 && moved.fromEnd < 0
        viewport = lost ? nil : moved
        // Go on in the direction of this load only: the far end, just trimmed, waits for the
        // reader, or the window would swing back and forth.
        guard let moved = viewport, !isRefreshing else { return }
        let distance = configuration.prefetchDistance
        if atEnd, moved.fromEnd <= distance { prefetch(.next, into: &effects) }
        if !atEnd, moved.fromStart <= distance { prefetch(.previous, into: &effects) }
    }
}
