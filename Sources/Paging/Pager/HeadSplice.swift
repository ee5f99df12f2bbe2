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
/// A splice is sure (``isSure``) when no alignment that keeps a held row the
/// head leaves out could keep more rows in place. The head is only the top of
/// the list: a held row it leaves out may be deleted, or just below the head's
/// last row, because the rows the alignment rests on are ones that moved up
/// (a post whose sort key changed, on top of new ones). Such a row could be
/// kept, after a run of the head's rows held above it, with the other left-out
/// rows below it; when that is never longer than the run kept in place, every
/// row the splice removes is deleted or moved (a longest run in order over the
/// whole list need not keep it), whatever the list holds below the head.
/// Otherwise the head refresh loads on, or restarts with what it loaded.
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
    /// Whether no alignment that keeps a held row the head leaves out
    /// before ``tailStart`` keeps more rows in place than this one: then the
    /// rows it removes are gone from the top of the list (deleted, or moved
    /// further down), whatever the list has below the head.
    let isSure: Bool

    /// The splice of a head into held items; `nil` when the head holds none
    /// of them (it does not reach the held list).
    /// - Parameters:
    ///   - head: the head's items, each id once.
    ///   - heldCount: the number of items held.
    ///   - heldIndex: the held index of an id, `nil` for one not held.
    ///   - heldItem: the held item at an index.
    ///   - uncounted: the held indices the head need not hold, not counted
    ///     against its sureness (items inserted locally since the refresh
    ///     was owed, which the source may not have).
    /// - Complexity: O(*h* log *h* + *t*) for *h* head items covering *t*
    ///   held ones, plus *h* lookups of `heldIndex`.
    static func make<Item: Identifiable>(
        head: [Item], heldCount: Int, heldIndex: (Item.ID) -> Int?, heldItem: (Int) -> Item,
        uncounted: Set<Int> = []
    ) -> HeadSplice? {
        let old = head.map { heldIndex($0.id) }
        // The items in both, in the head's order, with their held indices: those on the longest
        // increasing run of held indices keep their rows.
        let common = old.indices.filter { old[$0] != nil }
        guard !common.isEmpty else { return nil }
        let values = common.map { old[$0] ?? 0 }
        let runs = patience(values)
        let staying = Set(runs.longest.map { common[$0] })
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
        let coveredRemoved = (0..<tailStart).filter { !keptOld.contains($0) }
        let inHead = Set(values)
        let leftOut = coveredRemoved.filter { !inHead.contains($0) && !uncounted.contains($0) }
        let removed = coveredRemoved + movedFromTail.sorted()
        return HeadSplice(
            tailStart: tailStart, tailCount: heldCount - tailStart - movedFromTail.count,
            change: ListChange(
                removed: ranges(removed), inserted: ranges(inserted), updated: ranges(updated)),
            isSure: isSure(values: values, lengths: runs.lengths, kept: staying.count, leftOut: leftOut)
        )
    }

    /// Whether a run of `kept` rows is at least as long as every alignment
    /// that keeps a left-out row: a run of the head's held rows above the
    /// first left-out row it keeps, then that row and the left-out rows after
    /// it (as if they were just below the head, in their held order).
    /// - Parameters:
    ///   - values: the held indices of the head's held rows, in the head's order.
    ///   - lengths: for each, the length of a longest increasing run ending there.
    ///   - kept: the length of the run kept in place.
    ///   - leftOut: the held indices the head leaves out before the tail, ascending.
    /// - Complexity: O(*c* log *c* + *l*) for *c* values and *l* left out.
    static func isSure(values: [Int], lengths: [Int], kept: Int, leftOut: [Int]) -> Bool {
        let byIndex = values.indices.sorted { values[$0] < values[$1] }
        var next = 0
        var longestAbove = 0
        for (ordinal, first) in leftOut.enumerated() {
            while next < byIndex.count, values[byIndex[next]] < first {
                longestAbove = max(longestAbove, lengths[byIndex[next]])
                next += 1
            }
            if longestAbove + leftOut.count - ordinal > kept { return false }
        }
        return true
    }

    /// The positions of a longest strictly increasing subsequence of values,
    /// in order (patience sorting).
    /// - Complexity: O(*n* log *n*).
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        patience(values).longest
    }

    /// Patience sorting of values: for each position the length of a longest
    /// strictly increasing subsequence ending there, and the positions of a
    /// longest one, in order.
    /// - Complexity: O(*n* log *n*).
    static func patience(_ values: [Int]) -> (lengths: [Int], longest: [Int]) {
        var tails: [Int] = []  // positions: the smallest tail of each run length
        var previous = [Int](repeating: -1, count: values.count)
        var lengths = [Int](repeating: 0, count: values.count)
        for position in values.indices {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < values[position] { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
            lengths[position] = low + 1
        }
        var run: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            run.append(position)
            position = previous[position]
        }
        return (lengths, run.reversed())
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
