/// A refresh that loads every held page again, keeping the list's length:
/// first the held page nearest the list's first page (its anchor, the
/// window's origin: sequence 0, or the first page of the last head refresh)
/// with its own request, then the pages after it forward and the pages
/// before it backward, each asked for with its own size and the fresh keys.
/// A list paged only forward is refetched forward from its first held page,
/// one paged only backward (a chat) backward from its last.
///
/// Invariants: ``askedAfter`` ≤ `sizesAfter.count` and ``askedBefore`` ≤
/// `sizesBefore.count`; the pages collected are the anchor's, then at most
/// ``askedAfter`` after it and ``askedBefore`` before it, one per request
/// ``advance()`` made; no request goes backward before every forward one was
/// made or the list ended forward; ``askedKeys(_:)`` are the keys of the
/// requests collected, in each direction.
struct RefetchPlan<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    typealias Request = PageRequest<Key>

    /// Which pages the request in flight loads.
    enum Phase: Sendable {
        /// The anchor.
        case anchor
        /// A page after it.
        case after
        /// A page before it.
        case before
    }

    /// The sequence of the page refetched first; the pages keep their
    /// sequences, so pages dropped from the window still fit around them.
    let anchorSequence: Int
    /// Whether pages before the anchor are refetched: the dropped requests
    /// at an end refetched are forgotten, the fresh keys lead on.
    let refetchesFront: Bool
    /// Whether pages after the anchor are refetched.
    let refetchesBack: Bool
    /// Which pages the request in flight loads.
    private(set) var phase = Phase.anchor
    /// The anchor's request and page, once in.
    private(set) var anchor: (Request, Page<Key, Item>)?
    /// The pages after the anchor, in order.
    private(set) var after: [(Request, Page<Key, Item>)] = []
    /// The pages before the anchor, nearest first.
    private(set) var before: [(Request, Page<Key, Item>)] = []
    /// The sizes of the pages to refetch after the anchor, in order.
    let sizesAfter: [Int]
    /// How many of the pages after the anchor were asked for.
    private(set) var askedAfter = 0
    /// The sizes of the pages to refetch before the anchor, nearest first.
    let sizesBefore: [Int]
    /// How many of the pages before the anchor were asked for.
    private(set) var askedBefore = 0
    /// The keys this refetch asked for with `next(after:)` and with
    /// `previous(before:)`.
    private var asked = AskedKeys<Key>()

    /// The requests of the pages dropped at each end when the refresh was planned, kept
    /// around the refetched pages at an end not refetched. Those dropped since (by loads
    /// that ended after the refetch failed, before it was retried) belong to another
    /// window: keeping them would put pages beside ones they overlap, out of order.
    let dropped: (front: [Request], back: [Request])

    /// A plan to refetch the anchor, then pages of the given sizes after and
    /// before it.
    /// - Parameters:
    ///   - anchorSequence: the anchor's sequence.
    ///   - sizesAfter: the sizes of the pages after it, in order.
    ///   - sizesBefore: the sizes of the pages before it, nearest first.
    ///   - dropped: the requests dropped at each end now.
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

    /// The plan that refetches the pages a window holds, and its first
    /// request: the request of the held page nearest the list's first page
    /// (the window's ``PageWindow/origin``, sequence 0 but after a head
    /// refresh), then the pages after it and before it, each with its own
    /// size (`pageSize` where none is known). `nil` when nothing is held.
    /// - Complexity: O(*p*) for *p* pages held.
    static func refetching(_ window: PageWindow<Key, Item>, initial: Request, pageSize: Int) -> (
        Request, Self
    )? {
        guard window.isLoaded else { return nil }
        let (first, end) = (window.firstSequence, window.endSequence)
        let anchor = min(max(window.origin, first), end - 1)
        let request = window.record(at: anchor)?.request ?? initial
        let size = { (sequence: Int) in window.record(at: sequence)?.request.count ?? pageSize }
        let plan = Self(
            anchorSequence: anchor, sizesAfter: (anchor + 1..<end).map(size),
            sizesBefore: (first..<anchor).reversed().map(size),
            dropped: (window.droppedFront, window.droppedBack))
        return (request, plan)
    }

    /// Records the page of the request in flight.
    /// - Complexity: O(1) amortized.
    mutating func collect(_ request: Request, _ page: Page<Key, Item>) {
        switch phase {
        case .anchor: anchor = (request, page)
        case .after: after.append((request, page))
        case .before: before.append((request, page))
        }
        asked.remember(request)
    }

    /// The keys this refetch has asked for so far in a direction.
    /// - Complexity: O(1).
    func askedKeys(_ direction: LoadDirection) -> Set<Key> {
        asked.keys(direction)
    }

    /// The next request to make, or `nil` when every page is in. Forward
    /// first, until the sizes run out or the list ends; then backward.
    /// - Complexity: O(1).
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
    /// - Complexity: O(*p*) for *p* pages collected.
    var pages: [(Request, Page<Key, Item>)] {
        before.reversed() + [anchor].compactMap { $0 } + after
    }

    /// The sequence of the first page of ``pages``: the pages keep theirs.
    /// - Complexity: O(1).
    var firstSequence: Int { anchorSequence - before.count }

    /// The dropped requests to keep around the refetched pages: none at an
    /// end refetched, those dropped when the plan was made at the other.
    /// - Complexity: O(1).
    var keptDropped: (front: [Request]?, back: [Request]?) {
        (refetchesFront ? nil : dropped.front, refetchesBack ? nil : dropped.back)
    }
}

extension RefetchPlan: LoadPlan {
    /// A page leads back when it names a key this refetch asked already that way.
    /// - Complexity: O(1) expected.
    func leadsBack(
        _ page: Page<Key, Item>, from request: Request, in machine: PagerStateMachine<Key, Item>
    ) -> LoadDirection? {
        guard let direction = request.direction,
            AskedKeys.leadsBack(page, from: request, askedBefore: askedKeys(direction))
        else { return nil }
        return direction
    }

    /// Collects the page and asks for the next one (``advance()``).
    mutating func take(
        _ page: Page<Key, Item>, for request: Request, in machine: PagerStateMachine<Key, Item>
    ) -> Request? {
        collect(request, page)
        return advance()
    }

    /// Replaces every page with those refetched, at their sequences, with the surviving edits in
    /// them; the requests dropped at an end not refetched stay.
    /// - Complexity: O(*n* + *k*) for *n* items held and *k* refetched.
    func finish(
        into machine: inout PagerStateMachine<Key, Item>, effects: inout PagerStateMachine<Key, Item>.Effects
    ) {
        var pages = pages
        machine.takeRefreshEdits().apply(to: &pages, first: true, last: true)
        machine.unjoined = nil
        machine.replaceAll(
            with: pages, firstSequence: firstSequence, keepDropped: keptDropped,
            origin: machine.window.origin,
            into: &effects)
    }
}
