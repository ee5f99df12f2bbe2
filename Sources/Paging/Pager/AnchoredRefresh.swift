/// An anchored refresh under way (``Pager/refresh(around:)``): the page that
/// holds the anchor, asked for again after the key of the page kept next to
/// it (with its own request when none is kept there), and the page after it
/// in the direction that page was loaded in.
///
/// Invariants:
/// - ``pages`` holds at most ``maximumPages`` pages: the first loaded in
///   the anchor page's place, each other after (or, backward, before) the
///   one loaded before it;
/// - ``sequence`` is the anchor page's sequence in the window when the
///   refresh was asked for: the pages on the near side of it stay, those on
///   the far side go.
struct AnchoredRefresh<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    /// The item the refresh keeps in place.
    let anchor: Item.ID
    /// The request that loaded the anchor's page, asked again first.
    let request: PageRequest<Key>
    /// The anchor page's sequence.
    let sequence: Int
    /// Whether the anchor page was loaded forward (an initial or a next
    /// request): the list then keeps the pages before it and drops those
    /// after; backward, the other way round.
    let forward: Bool
    /// The most pages loaded.
    let maximumPages: Int
    /// The pages loaded, in load order, with their requests.
    private(set) var pages: [(PageRequest<Key>, Page<Key, Item>)] = []
    /// The keys of the pages loaded: a page that names one of them as the
    /// key of the next would lead round.
    private(set) var asked = AskedKeys<Key>()

    /// A refresh of the page of `sequence`, loaded with `request`, forward or not.
    init(
        anchor: Item.ID, request: PageRequest<Key>, sequence: Int, forward: Bool, maximumPages: Int = 2
    ) {
        self.anchor = anchor
        self.request = request
        self.sequence = sequence
        self.forward = forward
        self.maximumPages = maximumPages
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
