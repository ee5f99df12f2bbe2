/// Where the first pages of a list, as the source has them now, go in the
/// list held: a head refresh's splice (``Pager/refreshHead(maximumPages:)``).
///
/// The items both hold are aligned on the longest run whose order is the
/// same in both: they keep their rows. The head covers the held items from
/// the first up to the last of that run, and replaces them, in the head's
/// order: what the held list has there and the head does not (deleted, or
/// moved further down) is removed; what the head has and the held list does
/// not there (new at the top, or moved up) is inserted, and a held item the
/// head moved up from below the covered range is removed where it was. The
/// items kept in place are marked updated when they changed (or cannot be
/// compared). Everything else after the covered range is kept as it is, with
/// no request.
///
/// Invariants:
/// - ``tailStart`` is one past the greatest held index of the run kept in
///   place; ``tailCount`` counts the held items from there on that the head
///   does not hold, so the spliced list is the head followed by those;
/// - ``change`` turns the held items into that list, checked: its removals
///   are old indices, its insertions and updates indices below the head's
///   count;
/// - no row moves that need not: the rows kept in place form a longest run
///   whose order is the same in both.
struct HeadSplice: Equatable {
    /// The held index where the kept tail starts.
    let tailStart: Int
    /// The number of held items kept after the head.
    let tailCount: Int
    /// The change from the held items to the spliced ones.
    let change: ListChange

    /// The splice of a head into held items; `nil` when the head holds none
    /// of them (it does not reach the held list).
    /// - Parameters:
    ///   - head: the head's items, each id once.
    ///   - heldCount: the number of items held.
    ///   - heldIndex: the held index of an id, `nil` for one not held.
    ///   - heldItem: the held item at an index.
    /// - Complexity: O(*h* log *h* + *t*) for *h* head items covering *t*
    ///   held ones, plus *h* lookups of `heldIndex`.
    static func make<Item: Identifiable>(
        head: [Item], heldCount: Int, heldIndex: (Item.ID) -> Int?, heldItem: (Int) -> Item
    ) -> HeadSplice? {
        let old = head.map { heldIndex($0.id) }
        // The items in both, in the head's order, with their held indices: those on the longest
        // increasing run of held indices keep their rows.
        let common = old.indices.filter { old[$0] != nil }
        guard !common.isEmpty else { return nil }
        let staying = Set(longestIncreasingRun(common.map { old[$0] ?? 0 }).map { common[$0] })
        let tailStart = 1 + (staying.compactMap { old[$0] }.max() ?? -1)
        var keptOld = Set<Int>()
        var movedFromTail: [Int] = []
        var inserted: [Int] = []
        var updated: [Int] = []
        for position in head.indices {
            guard let index = old[position] else {
                inserted.append(position)
                continue
            }
            guard staying.contains(position) else {
                inserted.append(position)
                if index >= tailStart { movedFromTail.append(index) }
                continue
            }
            keptOld.insert(index)
            if differs(head[position], heldItem(index)) { updated.append(position) }
        }
        let removed = (0..<tailStart).filter { !keptOld.contains($0) } + movedFromTail.sorted()
        return HeadSplice(
            tailStart: tailStart, tailCount: heldCount - tailStart - movedFromTail.count,
            change: ListChange(removed: ranges(removed), inserted: ranges(inserted), updated: ranges(updated))
        )
    }

    /// The positions of a longest strictly increasing subsequence of values,
    /// in order (patience sorting).
    /// - Complexity: O(*n* log *n*).
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // positions: the smallest tail of each run length
        var previous = [Int](repeating: -1, count: values.count)
        for position in values.indices {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < values[position] { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            run.append(position)
            position = previous[position]
        }
        return run.reversed()
    }

    /// Sorted indices as ranges of consecutive ones.
    /// - Complexity: O(*n*).
    static func ranges(_ indices: [Int]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for index in indices {
            if let last = ranges.last, last.upperBound == index {
                ranges[ranges.count - 1] = last.lowerBound..<index + 1
            } else {
                ranges.append(index..<index + 1)
            }
        }
        return ranges
    }

    /// Whether two versions of an item differ: by `==` for an item that is
    /// `Equatable`, always otherwise (it cannot be told, so it is shown again).
    static func differs<Item>(_ new: Item, _ old: Item) -> Bool {
        !equalIfEquatable(new, old)
    }
}
