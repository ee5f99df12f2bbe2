/// The pages a pager holds, in list order, and what it knows of those it
/// dropped: the window of ``PagerStateMachine``.
///
/// Each page has a sequence number: the first page loaded is 0, a page
/// appended after page *s* is *s* + 1, one prepended before it *s* − 1, and a
/// page keeps its sequence while it is held. A page dropped at an end leaves
/// its request behind, so that coming back to that end replays it. A head
/// refresh puts its pages just before the pages it keeps, which keep their
/// sequences (and their entries in the identity index): ``origin`` says
/// where the list's first page is then.
///
/// Invariants:
/// - ``items`` holds ``pageCount`` pages (``endSequence`` − ``firstSequence``);
///   its page *i* is the page of sequence ``firstSequence`` + *i*, and there is
///   a ``PageRecord`` for each of these sequences and for no other.
/// - No id is held twice, and the identity index names, for each held item,
///   the sequence of the page holding it (and nothing else).
/// - ``droppedFront`` (``droppedBack``) holds the requests of the pages
///   dropped before the first (after the last) held page, the nearest last;
///   a page is replayed from the last one only.
/// - ``asked`` holds the key of each held or dropped page's request, once
///   for each such page, and no other key; but in a direction whose keys were
///   forgotten after a drift (``forgetAskedKeys(_:)``), only those of the
///   requests made since.
struct PageWindow<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable where Item.ID: Sendable {
    typealias Request = PageRequest<Key>

    /// What the window keeps of a held page besides its items.
    struct PageRecord: Sendable {
        /// The request that loaded the page (or that loads what is left of it).
        var request: Request
        /// The page's key of the page before it.
        let previousKey: Key?
        /// The page's key of the page after it.
        let nextKey: Key?
        /// The version of the first snapshot that showed the page's items
        /// as they are: a local edit of an item conditioned on the item
        /// being unchanged since a version checks this.
        var modified: Int
        /// How many items of the whole list the page said stand before it and after it.
        let itemsBefore: Int?
        let itemsAfter: Int?

        /// The record of a page loaded by a request.
        init(request: Request, page: Page<Key, Item>, modified: Int) {
            self.request = request
            previousKey = page.previousKey
            nextKey = page.nextKey
            self.modified = modified
            // Kept within 0 ... 2⁴⁸ whatever the source says, so that sums of counts cannot
            // overflow: a negative count is none, and no list holds more.
            itemsBefore = page.itemsBefore.map(PresentedItems<Item>.clampedCount)
            itemsAfter = page.itemsAfter.map(PresentedItems<Item>.clampedCount)
        }
    }

    /// A held item and where it is.
    struct Row {
        /// The sequence of the page holding it.
        let sequence: Int
        /// The items of that page.
        var pageItems: [Item]
        /// The index in the list of the page's first item.
        let firstIndex: Int
        /// The item's offset in its page.
        let offset: Int
    }

    /// The items of the held pages, one leaf per page.
    private(set) var items = PagedItems<Item>()
    /// Page records by sequence number, for `firstSequence ..< endSequence`.
    private(set) var records: [Int: PageRecord] = [:]
    /// The sequence of the first held page.
    private(set) var firstSequence = 0
    /// The sequence of the page holding the list's first items as last
    /// loaded from the top: 0, the first page loaded, but after a head
    /// refresh, whose first page it is then. A refetch starts there.
    private(set) var origin = 0
    /// One past the sequence of the last held page.
    private(set) var endSequence = 0
    /// The page (sequence number) holding each item id.
    private var ids = IdentityIndex()
    /// The number of ids the identity index holds: one per item held.
    /// - Complexity: O(1).
    var indexedCount: Int { ids.count }
    /// Requests of pages dropped before the first held page; the last is the
    /// nearest.
    private(set) var droppedFront: [Request] = []
    /// Requests of pages dropped after the last held page; the last is the
    /// nearest.
    private(set) var droppedBack: [Request] = []
    /// The keys asked for at each end since the last restart, held pages and
    /// dropped ones: a page that names one of them as its key in that
    /// direction would lead round in a cycle.
    private(set) var asked = AskedKeys<Key>()

    // MARK: What is held

    /// Whether a page is held.
    /// - Complexity: O(1).
    var isLoaded: Bool { endSequence > firstSequence }

    /// The number of pages held.
    /// - Complexity: O(1).
    var pageCount: Int { endSequence - firstSequence }

    /// Whether there is more after the last held page: a dropped page, or
    /// the last page's next key. True while nothing is held.
    /// - Complexity: O(1) expected.
    var hasNext: Bool {
        guard isLoaded else { return true }
        return !droppedBack.isEmpty || records[endSequence - 1]?.nextKey != nil
    }

    /// Whether there is more before the first held page. True while nothing
    /// is held.
    /// - Complexity: O(1) expected.
    var hasPrevious: Bool {
        guard isLoaded else { return true }
        return !droppedFront.isEmpty || records[firstSequence]?.previousKey != nil
    }

    /// The previous key of the first page held and the next key of the last.
    /// - Complexity: O(1) expected.
    var edgeKeys: (previous: Key?, next: Key?) {
        (records[firstSequence]?.previousKey, records[endSequence - 1]?.nextKey)
    }

    /// How many items of the whole list stand before the first held item and
    /// after the last: what the first held page said stands before it, while
    /// more can load there (0 once the start is reached), and what the last
    /// said stands after it, likewise; `nil` where the source did not say.
    /// - Complexity: O(1) expected.
    var placeholderCounts: (before: Int?, after: Int?) {
        guard isLoaded else { return (0, 0) }
        return (
            hasPrevious ? records[firstSequence]?.itemsBefore : 0,
            hasNext ? records[endSequence - 1]?.itemsAfter : 0
        )
    }

    /// The number of pages dropped at each end.
    /// - Complexity: O(1).
    var droppedPageCounts: (front: Int, back: Int) { (droppedFront.count, droppedBack.count) }

    /// The record of the held page of a sequence.
    /// - Complexity: O(1) expected.
    func record(at sequence: Int) -> PageRecord? {
        records[sequence]
    }

    /// Whether the window holds more than a limit allows.
    /// - Complexity: O(1).
    func exceeds(_ limit: PagingConfiguration.HeldLimit?) -> Bool {
        switch limit {
        case .pages(let limit): pageCount > limit
        case .items(let limit): items.count > limit
        case nil: false
        }
    }

    /// The request that loads the next page at an end, and whether it
    /// replays a dropped page; `nil` at the end. A dropped page comes back
    /// with its own request, marked as a reload.
    /// - Parameters:
    ///   - direction: the end.
    ///   - count: the size to ask for, or `nil` for `pageSize`.
    ///   - pageSize: the configured page size.
    /// - Complexity: O(1) expected.
    func nextRequest(_ direction: LoadDirection, count: Int?, pageSize: Int) -> (Request, Bool)? {
        switch direction {
        case .next:
            if var dropped = droppedBack.last {
                dropped.isReload = true
                return (dropped, true)
            }
            guard let key = records[endSequence - 1]?.nextKey else { return nil }
            return (Request(.next(after: key), count: count ?? pageSize), false)
        case .previous:
            if var dropped = droppedFront.last {
                dropped.isReload = true
                return (dropped, true)
            }
            guard let key = records[firstSequence]?.previousKey else { return nil }
            return (Request(.previous(before: key), count: count ?? pageSize), false)
        }
    }

    // MARK: Changing the pages

    /// Adds a page at an end, without the items whose id is held already or
    /// repeated within the page, and remembers its request's key. A page that
    /// replays a dropped one takes that page's place: its request is no
    /// longer dropped.
    /// - Parameters:
    ///   - page: the page.
    ///   - request: the request that loaded it.
    ///   - atEnd: after the last page (`true`) or before the first.
    ///   - replaying: whether it replays the nearest dropped page at that end.
    ///   - modified: the version of the snapshot that will show it.
    /// - Returns: how many items were kept and how many dropped as duplicates.
    /// - Complexity: O(*m*) expected for *m* items, plus O(log *p*) for *p*
    ///   pages held.
    mutating func add(
        _ page: Page<Key, Item>, for request: Request, atEnd: Bool, replaying: Bool, modified: Int
    ) -> (kept: Int, duplicates: Int) {
        if replaying {
            let dropped = atEnd ? droppedBack.removeLast() : droppedFront.removeLast()
            asked.forget(dropped)
        }
        asked.remember(request)
        let sequence = atEnd ? endSequence : firstSequence - 1
        let (kept, duplicates) = admit(page.items, sequence: sequence)
        records[sequence] = PageRecord(request: request, page: page, modified: modified)
        if atEnd {
            items.appendPage(kept)
            endSequence += 1
        } else {
            items.prependPage(kept)
            firstSequence -= 1
        }
        return (kept.count, duplicates)
    }

    /// Drops the first or last page, keeping its request to replay it.
    /// - Returns: its item count.
    /// - Complexity: O(*m*) expected for a page of *m* items, plus O(log *p*).
    @discardableResult
    mutating func dropPage(atEnd: Bool) -> Int {
        let sequence = atEnd ? endSequence - 1 : firstSequence
        let removed = items.removePage(atEnd: atEnd)
        unindex(removed, sequence: sequence)
        if let record = records.removeValue(forKey: sequence) {
            if atEnd { droppedBack.append(record.request) } else { droppedFront.append(record.request) }
        }
        if atEnd { endSequence -= 1 } else { firstSequence += 1 }
        return removed.count
    }

    /// Removes the first or last `count` pages for good: their items, their
    /// records, and their requests from the keys asked for; no request is
    /// kept to replay them. When their items are a quarter of those held or
    /// more, the identity index is emptied of them in one pass over its
    /// table (O(*n*) ≤ O(4*r*)), rather than told of each.
    /// - Complexity: O(*r* + *q* + log *p*) expected for *r* items in *q*
    ///   pages out of *p*.
    private mutating func discardPages(atEnd: Bool, count: Int) {
        let count = min(count, pageCount)
        guard count > 0 else { return }
        let sequences = atEnd ? endSequence - count..<endSequence : firstSequence..<firstSequence + count
        let kept = pageCount - count
        let removedItems =
            atEnd
            ? items.count - (kept > 0 ? items.page(at: kept).firstIndex : 0)
            : (kept > 0 ? items.page(at: count).firstIndex : items.count)
        if removedItems >= 1_024, removedItems * 4 >= ids.count {
            ids.remove(sequences: sequences, base: indexBase)
        } else {
            for sequence in sequences {
                unindex(items.page(at: sequence - firstSequence).items, sequence: sequence)
            }
        }
        for sequence in sequences {
            if let record = records.removeValue(forKey: sequence) { asked.forget(record.request) }
        }
        items.removePages(atEnd: atEnd, count: count)
        if atEnd { endSequence -= count } else { firstSequence += count }
    }

    /// Forgets the requests of the pages dropped at an end: nothing is
    /// replayed there any more.
    /// - Complexity: O(*d*) expected for *d* pages dropped there.
    private mutating func forgetDropped(atEnd: Bool) {
        for request in atEnd ? droppedBack : droppedFront { asked.forget(request) }
        if atEnd { droppedBack = [] } else { droppedFront = [] }
    }

    /// Replaces every page with the given ones, the first at sequence
    /// `first`; the requests of pages dropped at each end become
    /// `keepDropped` (none where it is `nil`), and the keys asked for are
    /// those of the new pages and of the kept dropped ones. Pages that do not
    /// fit within `limit` are dropped at the end away from where the pages
    /// were loaded from: the back, unless only the back's dropped requests
    /// are kept. The ``origin`` becomes `origin`, or `first` when it is nil.
    /// - Returns: the number of items dropped as duplicates.
    /// - Complexity: O(*n*) expected for the *n* items of the pages.
    mutating func replaceAll(
        with pages: [(Request, Page<Key, Item>)], firstSequence first: Int,
        keepDropped: (front: [Request]?, back: [Request]?), modified: Int,
        limit: PagingConfiguration.HeldLimit?, origin newOrigin: Int? = nil
    ) -> Int {
        items = PagedItems()
        records = [:]
        ids.removeAll()
        firstSequence = first
        endSequence = first
        origin = newOrigin ?? first
        droppedFront = keepDropped.front ?? []
        droppedBack = keepDropped.back ?? []
        asked.removeAll()
        for request in droppedFront + droppedBack { asked.remember(request) }
        var duplicates = 0
        for (request, page) in pages {
            asked.remember(request)
            let (kept, dropped) = admit(page.items, sequence: endSequence)
            duplicates += dropped
            records[endSequence] = PageRecord(request: request, page: page, modified: modified)
            items.appendPage(kept)
            endSequence += 1
        }
        let dropsAtFront = keepDropped.back != nil && keepDropped.front == nil
        while exceeds(limit), pageCount > 1 {
            dropPage(atEnd: !dropsAtFront)
        }
        return duplicates
    }

    /// Forgets everything: no page held or dropped, no key asked for, the
    /// next page loaded is sequence 0.
    /// - Complexity: O(*n*) for the *n* items held (releasing them).
    mutating func removeAll() {
        self = PageWindow()
    }

    // MARK: Identity

    /// The index of the item with an id, if held.
    /// - Complexity: O(log *p* + *m*) for *p* pages of *m* items.
    func index(of id: Item.ID) -> Int? {
        locate(id).map { $0.firstIndex + $0.offset }
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

    /// The held item with an id, and where it is.
    /// - Complexity: O(log *p* + *m*): one look through the page.
    func locate(_ id: Item.ID) -> Row? {
        var row: Row?
        _ = ids.sequence(hash: IdentityIndex.hash(id), base: indexBase) { candidate in
            let ordinal = candidate - firstSequence
            guard ordinal >= 0, ordinal < items.pageCount else { return false }
            let (pageItems, firstIndex) = items.page(at: ordinal)
            guard let offset = pageItems.firstIndex(where: { $0.id == id }) else { return false }
            row = Row(sequence: candidate, pageItems: pageItems, firstIndex: firstIndex, offset: offset)
            return true
        }
        return row
    }

    /// The indices of the held items with some ids, by id (an id not held
    /// has none). Each page holding one of them is looked through once, not
    /// once per id.
    /// - Complexity: O(*k*) expected for *k* ids, plus O(*m* + log *p*) for
    ///   each page holding one of them.
    func indices(of wanted: some Sequence<Item.ID>) -> [Item.ID: Int] {
        // The pages looked through: the index of each one's first item, and its items' offsets.
        var pages: [Int: (firstIndex: Int, offsets: [Item.ID: Int])] = [:]
        var found: [Item.ID: Int] = [:]
        for id in wanted {
            _ = ids.sequence(hash: IdentityIndex.hash(id), base: indexBase) { candidate in
                let ordinal = candidate - firstSequence
                guard ordinal >= 0, ordinal < items.pageCount else { return false }
                if pages[candidate] == nil {
                    let (pageItems, firstIndex) = items.page(at: ordinal)
                    var offsets: [Item.ID: Int] = [:]
                    offsets.reserveCapacity(pageItems.count)
                    for (offset, item) in pageItems.enumerated() { offsets[item.id] = offset }
                    pages[candidate] = (firstIndex, offsets)
                }
                guard let page = pages[candidate], let offset = page.offsets[id] else { return false }
                found[id] = page.firstIndex + offset
                return true
            }
        }
        return found
    }

    /// The sequence of the held page that holds an item with an id.
    /// - Complexity: O(1) expected, plus O(log *p* + *m*) to confirm a match.
    func location(of id: Item.ID) -> Int? {
        ids.sequence(hash: IdentityIndex.hash(id), base: indexBase) {
            Self.holds(id, inPage: $0, of: items, first: firstSequence)
        }
    }

    /// Replaces the items of a held page, for a local edit, and records an
    /// item the edit added (`inserted`) or removed (`removed`) in the
    /// identity index. The caller keeps ids unique: an inserted id is not
    /// held elsewhere.
    /// - Complexity: O(log *p*) plus O(1) expected for the index.
    mutating func replaceItems(
        ofPage sequence: Int, with pageItems: [Item], inserted: Item.ID? = nil, removed: Item.ID? = nil
    ) {
        items.replacePage(at: sequence - firstSequence, with: pageItems)
        if let removed { ids.remove(hash: IdentityIndex.hash(removed), sequence: sequence) }
        if let inserted {
            _ = ids.insert(hash: IdentityIndex.hash(inserted), sequence: sequence, base: indexBase) { _ in
                false
            }
        }
    }

    /// Marks pages as changed in the snapshot of a version.
    /// - Complexity: O(*k*) expected for *k* sequences.
    mutating func markModified(_ sequences: some Sequence<Int>, version: Int) {
        for sequence in sequences { records[sequence]?.modified = version }
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

    /// Records the items of new pages, to be held at sequences `first`,
    /// `first` + 1, ..., in the identity index, dropping those whose id is
    /// held already or comes earlier in these pages (in their order).
    /// - Complexity: O(*n*) expected for *n* items.
    private mutating func admit(pages: [[Item]], firstSequence first: Int) -> (
        kept: [[Item]], duplicates: Int
    ) {
        var kept: [[Item]] = []
        kept.reserveCapacity(pages.count)
        var duplicates = 0
        let base = indexBase
        let (held, heldFirst) = (items, firstSequence)
        ids.reserve(pages.reduce(0) { $0 + $1.count })
        for (ordinal, pageItems) in pages.enumerated() {
            let sequence = first + ordinal
            var current: [Item] = []
            current.reserveCapacity(pageItems.count)
            let hashes = pageItems.map { IdentityIndex.hash($0.id) }
            ids.warm(hashes)
            for (item, hash) in zip(pageItems, hashes) {
                let id = item.id
                // A hash match is confirmed in the page it names: this one or an earlier new one,
                // not yet in the tree, or a held one.
                let added = ids.insert(hash: hash, sequence: sequence, base: base) { candidate in
                    if candidate == sequence { return current.contains { $0.id == id } }
                    if candidate >= first, candidate < sequence {
                        return kept[candidate - first].contains { $0.id == id }
                    }
                    return Self.holds(id, inPage: candidate, of: held, first: heldFirst)
                }
                if added { current.append(item) }
            }
            duplicates += pageItems.count - current.count
            kept.append(current)
        }
        return (kept, duplicates)
    }

    /// Removes items no longer held by the page of `sequence` from the
    /// identity index.
    /// - Complexity: O(*k*) expected for *k* items.
    private mutating func unindex(_ removed: some Collection<Item>, sequence: Int) {
        let hashes = removed.map { IdentityIndex.hash($0.id) }
        ids.warm(hashes)
        for hash in hashes { ids.remove(hash: hash, sequence: sequence) }
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
}

extension PageWindow {
    /// Splices a head refresh's pages in place of the held items before
    /// `tailStart` (``HeadSplice``), keeping the rest as it is but the items
    /// the head holds (moved up, at `movedUp`): the page holding the item at `tailStart`
    /// keeps its items from that one on, and its record (asked for after the
    /// head's last page now), the pages after it stay where they are, with
    /// their records, and so do the requests of the pages dropped after the
    /// last. The pages before it and the requests dropped before the first
    /// go. The head's pages take the sequences just before the kept ones, and
    /// the first of them is the ``origin``. Pages past `limit` are dropped at
    /// the back. The pages kept as they were keep their versions; the head's
    /// pages and those that lost items are marked `modified`.
    /// - Parameters:
    ///   - head: the head's pages, in order, with their requests.
    ///   - movedUp: the held indices, from `tailStart` on, of the items the
    ///     head holds.
    ///   - tailStart: the held index of the first item kept.
    ///   - modified: the version of the snapshot that will show it.
    ///   - limit: the most the window holds.
    /// - Returns: the number of items left out as duplicates.
    /// - Complexity: O(*h*) expected for the *h* items of the head, plus
    ///   O(*m* + log *p*) for each item moved up and for the page the tail
    ///   starts in (*p* pages of *m* items held), plus O(*r* + *q* log *p*)
    ///   for the *r* items in the *q* pages it removes or drops.
    mutating func reattach(
        _ head: [(Request, Page<Key, Item>)], movedUp: some Sequence<Int>, tailStart: Int, modified: Int,
        limit: PagingConfiguration.HeldLimit?
    ) -> Int {
        // Where the kept tail starts: a page and an offset in it (past the last page: none kept).
        var split = (sequence: endSequence, offset: 0)
        if tailStart < items.count, let row = locate(items[tailStart].id) {
            split = (row.sequence, row.offset)
        }
        // The tail's items that the head holds (moved up), by page.
        var moved: [Int: Set<Item.ID>] = [:]
        for index in movedUp where index >= tailStart && index < items.count {
            let id = items[index].id
            guard let sequence = location(of: id) else { continue }
            moved[sequence, default: []].insert(id)
        }
        // What the head covers goes, and nothing is dropped before it any more.
        discardPages(atEnd: false, count: split.sequence - firstSequence)
        forgetDropped(atEnd: false)
        if split.sequence < endSequence, var record = records[split.sequence] {
            var pageItems = items.page(at: 0).items
            let up = moved.removeValue(forKey: split.sequence) ?? []
            if split.offset > 0 || !up.isEmpty {
                let rest = pageItems[split.offset...]
                unindex(pageItems[..<split.offset], sequence: split.sequence)
                if !up.isEmpty { unindex(rest.filter { up.contains($0.id) }, sequence: split.sequence) }
                pageItems = up.isEmpty ? Array(rest) : rest.filter { !up.contains($0.id) }
                items.replacePage(at: 0, with: pageItems)
                record.modified = modified
            }
            // What is left of the page starts after the head, on the server too: asked for again,
            // it is the page after the head's last (its own request, an initial one maybe, would
            // bring back what the head holds).
            if let key = head.last?.1.nextKey {
                asked.forget(record.request)
                record.request = Request(.next(after: key), count: record.request.count)
                asked.remember(record.request)
            }
            records[split.sequence] = record
        }
        // An item the head moved up is there now.
        for (sequence, up) in moved {
            let pageItems = items.page(at: sequence - firstSequence).items
            unindex(pageItems.filter { up.contains($0.id) }, sequence: sequence)
            items.replacePage(at: sequence - firstSequence, with: pageItems.filter { !up.contains($0.id) })
            records[sequence]?.modified = modified
        }
        let first = split.sequence - head.count
        let (kept, duplicates) = admit(pages: head.map { $0.1.items }, firstSequence: first)
        for (ordinal, (request, page)) in head.enumerated().reversed() {
            items.prependPage(kept[ordinal])
            records[first + ordinal] = PageRecord(request: request, page: page, modified: modified)
            asked.remember(request)
        }
        firstSequence = first
        origin = first
        while exceeds(limit), pageCount > 1 { dropPage(atEnd: true) }
        return duplicates
    }
}

extension PageWindow {
    /// Puts an anchored refresh's pages in place of the page of `sequence`
    /// and the pages on its far side (after it when it was loaded forward,
    /// before it otherwise), keeping those on its near side as they are
    /// (items, records, versions and entries in the identity index) and the
    /// requests dropped beyond them; a loaded item held on the near side is
    /// left out of its page (not counted as a duplicate). The requests
    /// dropped on the far side are forgotten (the new pages' keys lead there
    /// now). The new pages take the sequences of the anchor's page and on,
    /// outwards. Pages past `limit` are dropped on the far side.
    /// - Parameters:
    ///   - loaded: the new pages, in list order, with their requests.
    ///   - sequence: the anchor page's sequence.
    ///   - forward: whether the anchor page was loaded forward.
    ///   - modified: the version of the snapshot that will show them.
    ///   - limit: the most the window holds.
    /// - Returns: the number of items left out as duplicates.
    /// - Complexity: O(*k* + log *p*) expected for the *k* items loaded,
    ///   plus O(*m* + log *p*) for each of them held on the near side (in a
    ///   page of *m* items out of *p*), plus O(*r* + *q*) for the *r* items
    ///   of the *q* pages it removes, and O(*m* + log *p*) for each page it
    ///   drops past the limit.
    mutating func reanchor(
        _ loaded: [(Request, Page<Key, Item>)], at sequence: Int, forward: Bool, modified: Int,
        limit: PagingConfiguration.HeldLimit?
    ) -> Int {
        if forward {
            discardPages(atEnd: true, count: endSequence - max(sequence, firstSequence))
        } else {
            discardPages(atEnd: false, count: min(sequence + 1, endSequence) - firstSequence)
        }
        forgetDropped(atEnd: forward)
        // The rows that stay keep their items: a loaded item held there is left out of its page.
        let fresh = loaded.map { _, page in page.items.filter { location(of: $0.id) == nil } }
        let first = forward ? endSequence : firstSequence - loaded.count
        let (kept, duplicates) = admit(pages: fresh, firstSequence: first)
        for ordinal in forward ? Array(loaded.indices) : Array(loaded.indices.reversed()) {
            let (request, page) = loaded[ordinal]
            if forward { items.appendPage(kept[ordinal]) } else { items.prependPage(kept[ordinal]) }
            records[first + ordinal] = PageRecord(request: request, page: page, modified: modified)
            asked.remember(request)
        }
        if forward { endSequence += loaded.count } else { firstSequence -= loaded.count }
        while exceeds(limit), pageCount > 1 { dropPage(atEnd: forward) }
        return duplicates
    }

    /// Forgets the keys asked for in a direction (``AskedKeys/forget(_:)``):
    /// a page found the list moved under them.
    /// - Complexity: O(*k*) for *k* keys held.
    mutating func forgetAskedKeys(_ direction: LoadDirection) {
        asked.forget(direction)
    }
}
