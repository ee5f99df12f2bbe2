/// A head refresh under way (``Pager/refreshHead(maximumPages:)``): the
/// pages loaded from the top of the list so far, until one reaches the held
/// list or the limit is met.
///
/// Invariants:
/// - ``pages`` holds at most ``maximumPages`` pages, the first loaded with an
///   initial request and each other after the one before it;
/// - ``items`` holds each id once, in the pages' order (a later repeat of an
///   id is left out, as the window leaves it out).
struct HeadRefresh<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    /// The most pages loaded before giving up on reaching the held list.
    let maximumPages: Int
    /// The pages loaded, in order, with their requests.
    private(set) var pages: [(PageRequest<Key>, Page<Key, Item>)] = []
    /// The items of the pages, each id once.
    private(set) var items: [Item] = []
    /// The ids in ``items``.
    private var seen: Set<Item.ID> = []
    /// The keys asked for after the first page.
    private(set) var asked = AskedKeys<Key>()
    /// Where the pages loaded reach the held list, as of the last page taken; `nil` when they
    /// hold none of its items.
    private(set) var splice: HeadSplice?

    /// A head refresh that loads at most `maximumPages` pages.
    init(maximumPages: Int) {
        self.maximumPages = maximumPages
    }

    /// Adds a page loaded for it.
    /// - Complexity: O(*m*) expected for a page of *m* items.
    mutating func collect(_ request: PageRequest<Key>, _ page: Page<Key, Item>) {
        pages.append((request, page))
        asked.remember(request)
        for item in page.items where seen.insert(item.id).inserted { items.append(item) }
    }

    /// Applies the edits made while it was in flight to its pages
    /// (``RefreshRebase``): `.first` inserts before its first item, `.last`
    /// ones after its last when `reachesEnd` (it becomes the whole list).
    /// - Complexity: as ``RefreshRebase/apply(to:first:last:)``, plus O(*h*)
    ///   for the *h* items of the head.
    mutating func rebase(_ rebase: RefreshRebase<Key, Item>, reachesEnd: Bool) {
        rebase.apply(to: &pages, first: true, last: reachesEnd)
        items = []
        seen = []
        for (_, page) in pages {
            for item in page.items where seen.insert(item.id).inserted { items.append(item) }
        }
    }

    /// The request of the page after the last one loaded; `nil` at the end
    /// of the list or of the limit.
    func nextRequest(count: Int) -> PageRequest<Key>? {
        guard pages.count < maximumPages, let key = pages.last?.1.nextKey else { return nil }
        return PageRequest(.next(after: key), count: count)
    }
}

extension HeadRefresh: LoadPlan {
    /// A page leads back when it names a key this head refresh asked already.
    /// - Complexity: O(1) expected.
    func leadsBack(
        _ page: Page<Key, Item>, from request: PageRequest<Key>, in machine: PagerStateMachine<Key, Item>
    ) -> LoadDirection? {
        guard request.direction != nil,
            AskedKeys.leadsBack(page, from: request, askedBefore: asked.keys(.next))
        else { return nil }
        return .next
    }

    /// Collects the page and finds where the head reaches the held list: not at an item inserted
    /// since the head refresh became owed (``PagerStateMachine/unjoined``: it may sit above what
    /// the source added meanwhile). A head that holds none of the held items, or whose alignment
    /// on them is not sure (it may rest on rows that moved up), loads on within its limit.
    /// - Complexity: as ``HeadSplice/make(head:heldCount:heldIndex:heldItem:uncounted:)``.
    mutating func take(
        _ page: Page<Key, Item>, for request: PageRequest<Key>, in machine: PagerStateMachine<Key, Item>
    ) -> PageRequest<Key>? {
        collect(request, page)
        let held = machine.items
        let heldIndices = machine.window.indices(of: items.lazy.map(\.id))
        let unjoined = machine.unjoined ?? []
        splice = HeadSplice.make(
            head: items, heldCount: held.count,
            heldIndex: { unjoined.contains($0) ? nil : heldIndices[$0] }, heldItem: { held[$0] },
            uncounted: unjoined.isEmpty ? [] : Set(machine.window.indices(of: unjoined).values))
        guard splice?.isSure != true else { return nil }
        return nextRequest(count: machine.configuration.pageSize)
    }

    /// Splices the head in place of the held items it covers when it reached them surely, or
    /// else makes it the list. Whether the head reaches the list is judged by what the source
    /// sent; the edits made meanwhile then go into it, and the splice is made again with them.
    func finish(
        into machine: inout PagerStateMachine<Key, Item>, effects: inout PagerStateMachine<Key, Item>.Effects
    ) {
        var head = self
        let held = machine.items
        let unjoined = machine.unjoined ?? []
        var splicing = splice
        let rebase = machine.takeRefreshEdits()
        let reachesEnd = pages.last?.1.nextKey == nil
        if !rebase.isEmpty { head.rebase(rebase, reachesEnd: reachesEnd) }
        if splice != nil, !rebase.isEmpty || !unjoined.isEmpty {
            // Made again with every held item: those inserted meanwhile keep their rows.
            let heldIndices = machine.window.indices(of: head.items.lazy.map(\.id))
            splicing = HeadSplice.make(
                head: head.items, heldCount: held.count, heldIndex: { heldIndices[$0] },
                heldItem: { held[$0] })
        }
        machine.unjoined = nil
        if let splicing, splice?.isSure == true, !reachesEnd {
            machine.reattach(head, splicing, into: &effects)
        } else {
            // The head did not reach the list surely within its limit (the rows held below are
            // left to paging, not dropped for good), or it reached the end of the list (nothing
            // held below it is there any more): it is the list now.
            machine.replaceKeepingRows(with: head.pages, into: &effects)
        }
    }
}

extension PagerStateMachine {
    /// Splices a head refresh's pages in place of the held items they cover,
    /// in one change (the splice's, and the removal of pages the window then
    /// drops at the back); the item last shown keeps its distance from the
    /// end when it is in the kept tail and nothing there moved up.
    fileprivate mutating func reattach(
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

    /// Replaces every page with `pages`, in one change that keeps the rows of the items in both
    /// (``RowDiff``).
    /// - Complexity: O((*n* + *k*) log *k*) expected for *n* items held and *k* loaded.
    fileprivate mutating func replaceKeepingRows(
        with pages: [(Request, Page<Key, Item>)], into effects: inout Effects
    ) {
        let before = Array(items)
        shiftAbove = (nil, 0)
        let duplicates = window.replaceAll(
            with: pages, firstSequence: 0, keepDropped: (nil, nil), modified: version + 1,
            limit: configuration.maximumHeld)
        viewport = nil
        publish(
            RowDiff.change(from: before, to: Array(items), base: 0), duplicates: duplicates, into: &effects)
    }
}
