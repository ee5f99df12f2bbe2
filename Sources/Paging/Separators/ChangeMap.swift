/// An item change (``ListChange``) read as a map between the indices of the
/// items before and after it.
struct ChangeMap: Sendable {
    /// Runs removed, as indices before; sorted.
    let removed: [Range<Int>]
    /// Runs inserted, as indices after; sorted.
    let inserted: [Range<Int>]
    /// Runs updated in place, as indices after; sorted, disjoint.
    let updated: [Range<Int>]
    let oldCount: Int
    let newCount: Int

    /// - Parameters:
    ///   - change: a change that fits `oldCount` items (``ListChange/check(baseCount:newItems:)``).
    ///   - oldCount: the number of items before.
    init(_ change: ListChange, oldCount: Int) {
        removed = change.removed.filter { !$0.isEmpty }
        inserted = change.inserted.filter { !$0.isEmpty }
        updated = Self.merged(change.updated)
        self.oldCount = oldCount
        newCount = oldCount - change.removedCount + change.insertedCount
    }

    /// The index before of the item at `index` after, or `nil` for an item inserted;
    /// `newCount` maps to `oldCount`.
    /// - Complexity: O(*r*) for *r* ranges.
    func oldIndex(ofNew index: Int) -> Int? {
        index == newCount ? oldCount : Self.map(index, leaving: inserted, entering: removed)
    }

    /// The index after of the item at `position` before, or `nil` for an item removed;
    /// `oldCount` maps to `newCount`.
    /// - Complexity: O(*r*) for *r* ranges.
    func newIndex(ofOld position: Int) -> Int? {
        position == oldCount ? newCount : Self.map(position, leaving: removed, entering: inserted)
    }

    /// An index on one side of the change mapped to the other: the runs that only its side has
    /// (`leaving`, sorted) are taken out, `nil` when the index is in one; then the runs that only
    /// the other side has (`entering`, sorted) are put in.
    private static func map(_ index: Int, leaving: [Range<Int>], entering: [Range<Int>]) -> Int? {
        var position = index
        for run in leaving {
            if run.upperBound <= index {
                position -= run.count
            } else if run.lowerBound <= index {
                return nil
            } else {
                break
            }
        }
        for run in entering {
            guard run.lowerBound <= position else { break }
            position += run.count
        }
        return position
    }

    /// The runs of items the change keeps, in order: where each starts before and after, and
    /// its length.
    /// - Complexity: O(*r*) for *r* ranges.
    func survivors() -> [(old: Int, new: Int, count: Int)] {
        let oldRuns = Self.subtracting(removed, from: 0..<oldCount)
        let newRuns = Self.subtracting(inserted, from: 0..<newCount)
        var result: [(old: Int, new: Int, count: Int)] = []
        var (i, j) = (0, 0)
        var (a, b) = (oldRuns.first ?? 0..<0, newRuns.first ?? 0..<0)
        while i < oldRuns.count, j < newRuns.count {
            let length = min(a.count, b.count)
            result.append((a.lowerBound, b.lowerBound, length))
            a = (a.lowerBound + length)..<a.upperBound
            b = (b.lowerBound + length)..<b.upperBound
            if a.isEmpty {
                i += 1
                if i < oldRuns.count { a = oldRuns[i] }
            }
            if b.isEmpty {
                j += 1
                if j < newRuns.count { b = newRuns[j] }
            }
        }
        return result
    }

    /// Whether the item at `position` before was removed.
    /// - Complexity: O(log *r*).
    func isRemoved(_ position: Int) -> Bool { Self.contains(removed, position) }

    /// Whether the item at `index` after was inserted.
    /// - Complexity: O(log *r*).
    func isInserted(_ index: Int) -> Bool { Self.contains(inserted, index) }

    /// Whether the item at `index` after was inserted or updated: a gap next to it is asked again.
    /// - Complexity: O(log *r*).
    func isFresh(_ index: Int) -> Bool { Self.contains(inserted, index) || Self.contains(updated, index) }

    /// Whether one of sorted, disjoint ranges holds a value.
    private static func contains(_ ranges: [Range<Int>], _ value: Int) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound <= value { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(value)
    }

    /// Ranges sorted, with those that overlap or touch joined.
    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// The parts of `range` outside every range of `sorted` (sorted, disjoint).
    static func subtracting(_ sorted: [Range<Int>], from range: Range<Int>) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = range.lowerBound
        for cut in sorted where cut.upperBound > start && cut.lowerBound < range.upperBound {
            if cut.lowerBound > start { parts.append(start..<cut.lowerBound) }
            start = max(start, cut.upperBound)
        }
        if start < range.upperBound { parts.append(start..<range.upperBound) }
        return parts
    }
}
