/// The pages a pager holds, in list order, and what it knows of those it
/// dropped: the window of ``PagerStateMachine``.
///
/// Each page has a sequence number: the first page loaded is 0, a page
/// appended after page *s* is *s* + 1, one prepended before it *s* − 1, and a
/// page keeps its sequence while it is held. A page dropped at an end leaves
/// its request behind, so that coming back to that end replays it.
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
/// - ``asked`` knows the key of every held or dropped page's request made
///   since the last ``replaceAll(with:firstSequence:keepDropped:modified:limit:)``
///   or ``removeAll()``, and in a direction since the last
///   ``forgetAskedKeys(_:)`` of it.
struct PageWindow<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable where Item.ID: Sendable {
    typealias Request = PageRequest<Key>

    /// What the window keeps of a held page besides its items.
    struct PageRecord: Sendable {
        /// The request that loaded the page.
        let request: Request
        /// The page's key of the page before it.
        let previousKey: Key?
        /// The page's key of the page after it.
        let nextKey: Key?
        /// The version of the first snapshot that showed the page's items
        /// as they are: a local edit of an item conditioned on the item
        /// being unchanged since a version checks this.
        var modified: Int
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
    private var records: [Int: PageRecord] = [:]
    /// The sequence of the first held page.
    private(set) var firstSequence = 0
    /// One past the sequence of the last held page.
    private(set) var endSequence = 0
    /// The page (sequence number) holding each item id.
    private var ids = IdentityIndex()
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
            if atEnd { droppedBack.removeLast() } else { droppedFront.removeLast() }
        }
        asked.remember(request)
        let sequence = atEnd ? endSequence : firstSequence - 1
        let (kept, duplicates) = admit(page.items, sequence: sequence)
        records[sequence] = PageRecord(
            request: request, previousKey: page.previousKey, nextKey: page.nextKey, modified: modified)
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
        let hashes = removed.map { IdentityIndex.hash($0.id) }
        ids.warm(hashes)
        for hash in hashes { ids.remove(hash: hash, sequence: sequence) }
        if let record = records.removeValue(forKey: sequence) {
            if atEnd { droppedBack.append(record.request) } else { droppedFront.append(record.request) }
        }
        if atEnd { endSequence -= 1 } else { firstSequence += 1 }
        return removed.count
    }

    /// Replaces every page with the given ones, the first at sequence
    /// `first`; the requests of pages dropped at each end become
    /// `keepDropped` (none where it is `nil`), and the keys asked for are
    /// those of the new pages and of the kept dropped ones. Pages that do not
    /// fit within `limit` are dropped at the end away from where the pages
    /// were loaded from: the back, unless only the back's dropped requests
    /// are kept.
    /// - Returns: the number of items dropped as duplicates.
    /// - Complexity: O(*n*) expected for the *n* items of the pages.
    mutating func replaceAll(
        with pages: [(Request, Page<Key, Item>)], firstSequence first: Int,
        keepDropped: (front: [Request]?, back: [Request]?), modified: Int,
        limit: PagingConfiguration.HeldLimit?
    ) -> Int {
        items = PagedItems()
        records = [:]
        ids.removeAll()
        firstSequence = first
        endSequence = first
        droppedFront = keepDropped.front ?? []
        droppedBack = keepDropped.back ?? []
        asked.removeAll()
        for request in droppedFront + droppedBack { asked.remember(request) }
        var duplicates = 0
        for (request, page) in pages {
            asked.remember(request)
            let (kept, dropped) = admit(page.items, sequence: endSequence)
            duplicates += dropped
            records[endSequence] = PageRecord(
                request: request, previousKey: page.previousKey, nextKey: page.nextKey, modified: modified)
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
    /// - Complexity: O(log *p* + *m*).
    func locate(_ id: Item.ID) -> Row? {
        guard let sequence = location(of: id) else { return nil }
        let (pageItems, firstIndex) = items.page(at: sequence - firstSequence)
        guard let offset = pageItems.firstIndex(where: { $0.id == id }) else { return nil }
        return Row(sequence: sequence, pageItems: pageItems, firstIndex: firstIndex, offset: offset)
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
    /// Puts a head refresh's pages in place of the held items before
    /// `tailStart` (``HeadSplice``), keeping the rest as it is but the items
    /// the head holds (moved up): the page holding the item at `tailStart`,
    /// from that item on, with its record, the pages after it, and the
    /// requests of the pages dropped after the last. Nothing is dropped before the head any more. Pages past `limit`
    /// are dropped at the back.
    /// - Parameters:
    ///   - head: the head's pages, in order, with their requests.
    ///   - headIDs: the ids of the head's items.
    ///   - tailStart: the held index of the first item kept.
    ///   - modified: the version of the snapshot that will show it.
    ///   - limit: the most the window holds.
    /// - Returns: the number of items left out as duplicates.
    /// - Complexity: O(*n*) expected for the *n* items of the new window.
    mutating func reattach(
        _ head: [(Request, Page<Key, Item>)], headIDs: Set<Item.ID>, tailStart: Int, modified: Int,
        limit: PagingConfiguration.HeldLimit?
    ) -> Int {
        var pages = head
        if tailStart < items.count, let row = locate(items[tailStart].id) {
            for sequence in row.sequence..<endSequence {
                guard let record = records[sequence] else { continue }
                var pageItems = items.page(at: sequence - firstSequence).items
                var request = record.request
                if sequence == row.sequence {
                    pageItems = Array(pageItems[row.offset...])
                    // What is left of the page starts after the head, on the server too: asked for
                    // again, it is the page after the head's last (its own request, an initial one
                    // maybe, would bring back what the head holds).
                    if let key = head.last?.1.nextKey {
                        request = Request(.next(after: key), count: request.count)
                    }
                }
                // An item the head moved up is there now.
                pageItems.removeAll { headIDs.contains($0.id) }
                pages.append(
                    (
                        request,
                        Page(items: pageItems, previousKey: record.previousKey, nextKey: record.nextKey)
                    ))
            }
        }
        return replaceAll(
            with: pages, firstSequence: 0, keepDropped: (front: [], back: droppedBack), modified: modified,
            limit: limit)
    }
}

extension PageWindow {
    /// Puts an anchored refresh's pages in place of the page of `sequence`
    /// and the pages on its far side (after it when it was loaded forward,
    /// before it otherwise), keeping those on its near side as they are
    /// (items, records and versions) and the requests dropped beyond them; a
    /// loaded item held on the near side is left out of its page. The
    /// requests dropped on the far side are forgotten (the new pages' keys
    /// lead there now). Pages past `limit` are dropped on the far side.
    /// - Parameters:
    ///   - loaded: the new pages, in list order, with their requests.
    ///   - sequence: the anchor page's sequence.
    ///   - forward: whether the anchor page was loaded forward.
    ///   - modified: the version of the snapshot that will show them.
    ///   - limit: the most the window holds.
    /// - Returns: the number of items left out as duplicates.
    /// - Complexity: O(*n*) expected for the *n* items of the new window.
    mutating func reanchor(
        _ loaded: [(Request, Page<Key, Item>)], at sequence: Int, forward: Bool, modified: Int,
        limit: PagingConfiguration.HeldLimit?
    ) -> Int {
        let near = forward ? firstSequence..<sequence : (sequence + 1)..<endSequence
        var keptIDs = Set<Item.ID>()
        var keptModified: [Int: Int] = [:]
        let kept: [(Request, Page<Key, Item>)] = near.compactMap { held in
            guard let record = records[held] else { return nil }
            let pageItems = items.page(at: held - firstSequence).items
            keptIDs.formUnion(pageItems.map(\.id))
            keptModified[held] = record.modified
            return (
                record.request,
                Page(items: pageItems, previousKey: record.previousKey, nextKey: record.nextKey)
            )
        }
        // The rows that stay keep their items: a loaded item held there is left out of its page.
        let fresh = loaded.map { request, page in
            var page = page
            page.items.removeAll { keptIDs.contains($0.id) }
            return (request, page)
        }
        let duplicates: Int
        if forward {
            duplicates = replaceAll(
                with: kept + fresh, firstSequence: firstSequence,
                keepDropped: (front: droppedFront, back: nil),
                modified: modified, limit: limit)
        } else {
            duplicates = replaceAll(
                with: fresh + kept, firstSequence: sequence - loaded.count + 1,
                keepDropped: (front: nil, back: droppedBack), modified: modified, limit: limit)
        }
        // They stay as they were for a conditional edit too: their versions are theirs.
        for (held, version) in keptModified { records[held]?.modified = version }
        return duplicates
    }

    /// Forgets the keys asked for in a direction (``AskedKeys/forget(_:)``):
    /// a page found the list moved under them.
    /// - Complexity: O(*k*) for *k* keys held.
    mutating func forgetAskedKeys(_ direction: LoadDirection) {
        asked.forget(direction)
    }
}
