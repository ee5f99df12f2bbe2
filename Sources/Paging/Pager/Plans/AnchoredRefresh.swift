/// An anchored refresh under way (``Pager/refresh(around:)``): the page that
/// holds the anchor, asked for again after the key of the page kept next to
/// it (with its own request when none is kept there), and the page after it
/// in the direction that page was loaded in.
///
/// When those pages do not hold the anchor (its sort key moved it, or it is
/// gone), the refresh reads again from further up the near side, where a
/// moved anchor went: from the page next to the anchor's (``widened(in:)``),
/// then from the first of the near side's pages loaded in the same
/// direction. Each attempt loads from there to one page past the anchor's,
/// with fresh keys, so no item falls between pages; the last one's pages
/// are the ones put in place.
///
/// Invariants:
/// - ``pages`` holds at most ``maximumPages`` pages: the first loaded in
///   the place of the page of ``sequence``, each other after (or, backward,
///   before) the one loaded before it;
/// - ``sequence`` is the sequence in the window of the first page read
///   again, ``widening`` pages on the near side of the anchor's page: the
///   pages on the near side of it stay, it and those on the far side go.
struct AnchoredRefresh<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    /// The item the refresh keeps in place.
    let anchor: Item.ID
    /// The request that loaded the page of ``sequence``, asked again first.
    let request: PageRequest<Key>
    /// The sequence of the first page read again.
    let sequence: Int
    /// Whether the anchor page was loaded forward (an initial or a next
    /// request): the list then keeps the pages before it and drops those
    /// after; backward, the other way round.
    let forward: Bool
    /// The most pages loaded.
    let maximumPages: Int
    /// How many of the near side's pages are read again with the anchor's:
    /// 0 at first.
    let widening: Int
    /// The pages loaded, in load order, with their requests.
    private(set) var pages: [(PageRequest<Key>, Page<Key, Item>)] = []
    /// The keys of the pages loaded: a page that names one of them as the
    /// key of the next would lead round.
    private(set) var asked = AskedKeys<Key>()

    /// A refresh from the page of `sequence`, loaded with `request`, forward
    /// or not, `widening` pages on the near side of the anchor's.
    init(
        anchor: Item.ID, request: PageRequest<Key>, sequence: Int, forward: Bool, maximumPages: Int = 2,
        widening: Int = 0
    ) {
        self.anchor = anchor
        self.request = request
        self.sequence = sequence
        self.forward = forward
        self.maximumPages = maximumPages
        self.widening = widening
    }

    /// The refresh from the page of `sequence` in `window`, and its first
    /// request: asked for after the key of the page kept next to it, where
    /// the kept rows end (backward: before the previous key of the page kept
    /// after it), or with its own request when none is kept there. The
    /// page's own request may be older (a dropped page loaded again with its
    /// first request, a first request that would bring back the top) and
    /// lead elsewhere now. `nil` when no page of that sequence is held.
    /// - Complexity: O(1).
    static func starting(
        around anchor: Item.ID, at sequence: Int, forward: Bool, in window: PageWindow<Key, Item>,
        maximumPages: Int = 2, widening: Int = 0
    ) -> (PageRequest<Key>, Self)? {
        guard let record = window.record(at: sequence) else { return nil }
        let plan = Self(
            anchor: anchor, request: record.request, sequence: sequence, forward: forward,
            maximumPages: maximumPages, widening: widening)
        var request = record.request
        if forward, let previous = window.record(at: sequence - 1)?.nextKey {
            request = PageRequest(.next(after: previous), count: request.count)
        } else if !forward, let next = window.record(at: sequence + 1)?.previousKey {
            request = PageRequest(.previous(before: next), count: request.count)
        }
        return (request, plan)
    }

    /// Adds a page loaded for it.
    mutating func collect(_ request: PageRequest<Key>, _ page: Page<Key, Item>) {
        pages.append((request, page))
        asked.remember(request)
    }

    /// The request of the next page to load; `nil` when done.
    func nextRequest(count: Int) -> PageRequest<Key>? {
        guard pages.count < maximumPages, let last = pages.last?.1 else { return nil }
        if forward {
            return last.nextKey.map { PageRequest(.next(after: $0), count: count) }
        }
        return last.previousKey.map { PageRequest(.previous(before: $0), count: count) }
    }

    /// The pages in list order.
    var pagesInListOrder: [(PageRequest<Key>, Page<Key, Item>)] { forward ? pages : pages.reversed() }

    /// Whether the pages loaded hold the anchor.
    /// - Complexity: O(*k*) for *k* items loaded.
    var holdsAnchor: Bool {
        pages.contains { $0.1.items.contains { $0.id == anchor } }
    }

    /// The next attempt, once every page of this one is in and none holds
    /// the anchor: from one page further up the near side the first time,
    /// then from the first near page loaded in the same direction as the
    /// anchor's, through one page past the anchor's; with its first request.
    /// `nil` when the pages hold the anchor, or the near side has no page
    /// left to read.
    /// - Complexity: O(*p*) for the *p* near pages held.
    func widened(in window: PageWindow<Key, Item>) -> (PageRequest<Key>, Self)? {
        guard !holdsAnchor else { return nil }
        // The near pages loaded the same way, nearest first: a page loaded the other way (a list
        // opened in the middle) leads from the other end.
        var near = 0
        while let record = window.record(at: forward ? sequence - near - 1 : sequence + near + 1) {
            let sameWay =
                switch record.request.position {
                case .next: forward
                case .previous: !forward
                case .initial: true
                }
            guard sameWay else { break }
            near += 1
            if case .initial = record.request.position { break }
        }
        guard near > 0 else { return nil }
        let more = widening == 0 ? 1 : near
        return Self.starting(
            around: anchor, at: forward ? sequence - more : sequence + more, forward: forward, in: window,
            maximumPages: maximumPages + more, widening: widening + more)
    }
}

/// The change from one run of rows to another by identity: the rows in both
/// keep their places on a longest run whose order is the same in both (they
/// are marked updated when they changed), every other old row is removed and
/// every other new row inserted.
enum RowDiff {
    /// The change from `old` to `new`, with every index shifted by `base`.
    /// - Complexity: O((*o* + *n*) log *n*) expected for *o* old rows and *n* new.
    static func change<Item: Identifiable>(from old: [Item], to new: [Item], base: Int) -> ListChange {
        var oldIndex: [Item.ID: Int] = [:]
        for (index, item) in old.enumerated() { oldIndex[item.id] = index + base }
        return change(
            replacing: base..<base + old.count, with: new, at: base, oldIndex: { oldIndex[$0] },
            oldItem: { old[$0 - base] })
    }

    /// The change that replaces the rows `old` of a list with `new`, from
    /// the index `start` of the new list, the rows before and after them
    /// staying as they are: the same change as ``change(from:to:base:)``
    /// over the two runs, found from the new rows alone.
    /// - Parameters:
    ///   - old: the indices of the rows replaced.
    ///   - new: the new rows, each id once.
    ///   - start: the index of the first new row.
    ///   - oldIndex: the index of a new row's id among the old rows, `nil`
    ///     when it is not one of them (outside `old`).
    ///   - oldItem: the old row at an index.
    /// - Complexity: O(*n* log *n*) for *n* new rows, plus *n* calls of
    ///   `oldIndex` and at most *n* of `oldItem`; the rows removed are ranges,
    ///   at most *n* + 1 of them, whatever their number.
    static func change<Item: Identifiable>(
        replacing old: Range<Int>, with new: [Item], at start: Int, oldIndex: (Item.ID) -> Int?,
        oldItem: (Int) -> Item
    ) -> ListChange {
        let positions = new.map { item in oldIndex(item.id).flatMap { old.contains($0) ? $0 : nil } }
        let common = positions.indices.filter { positions[$0] != nil }
        var staying = [Bool](repeating: false, count: new.count)
        for run in HeadSplice.longestIncreasingRun(common.map { positions[$0] ?? 0 }) {
            staying[common[run]] = true
        }
        var kept: [Int] = []  // ascending: the run is increasing
        var inserted: [Int] = []
        var updated: [Int] = []
        for position in new.indices {
            guard staying[position], let index = positions[position] else {
                inserted.append(position + start)
                continue
            }
            kept.append(index)
            if HeadSplice.differs(new[position], oldItem(index)) { updated.append(position + start) }
        }
        var removed: [Range<Int>] = []
        var next = old.lowerBound
        for index in kept + [old.upperBound] {
            if next < index { removed.append(next..<index) }
            next = index + 1
        }
        return ListChange(
            removed: removed, inserted: HeadSplice.ranges(inserted), updated: HeadSplice.ranges(updated))
    }
}

extension AnchoredRefresh: LoadPlan {
    /// A page leads back when it names, or comes back to, a key this refresh asked already.
    /// - Complexity: O(1) expected.
    func leadsBack(
        _ page: Page<Key, Item>, from request: PageRequest<Key>, in machine: PagerStateMachine<Key, Item>
    ) -> LoadDirection? {
        let direction = request.direction ?? (forward ? .next : .previous)
        let asked = asked.keys(direction)
        if AskedKeys.leadsBack(page, from: request, askedBefore: asked)
            || page.key(direction).map(asked.contains) == true
        {
            return direction
        }
        return nil
    }

    /// Collects the page; asks for the next one, or, when the pages are in and none holds the
    /// anchor, starts again from further up the near side (``widened(in:)``).
    mutating func take(
        _ page: Page<Key, Item>, for request: PageRequest<Key>, in machine: PagerStateMachine<Key, Item>
    ) -> PageRequest<Key>? {
        collect(request, page)
        if let next = nextRequest(count: machine.configuration.pageSize) { return next }
        guard let (wider, widened) = widened(in: machine.window) else { return nil }
        self = widened
        return wider
    }

    /// Puts the pages in place of the anchor's page and those on its far side.
    func finish(
        into machine: inout PagerStateMachine<Key, Item>, effects: inout PagerStateMachine<Key, Item>.Effects
    ) {
        machine.reanchor(self, into: &effects)
    }

    /// A retry repeats the refresh while the window still holds the page it started from.
    /// - Complexity: O(1).
    func stillFits(_ window: PageWindow<Key, Item>) -> Bool {
        window.record(at: sequence)?.request == request
    }
}

extension PagerStateMachine {
    /// Puts an anchored refresh's pages in place of the anchor's page and
    /// those on its far side, in one change that leaves the near side's rows
    /// as they were (``RowDiff``): the far side's rows are diffed with the
    /// new pages' items, found by id (``PageWindow/indices(of:)``).
    /// O(*k* (log *k* + log *p*)) expected for *k* items loaded out of *p*
    /// pages of *m* items held, plus O(*m*) for each page holding one of
    /// them, plus O(*r* + *q*) for the *r* items of the *q* pages removed.
    fileprivate mutating func reanchor(_ plan: AnchoredRefresh<Key, Item>, into effects: inout Effects) {
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
}
