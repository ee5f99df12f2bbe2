extension ListChange {
    /// The one change that takes a list through several changes in a row:
    /// what a view that shows the list less often than it changes needs to
    /// animate from what it shows to what is there now.
    ///
    /// ```swift
    /// // Two snapshots arrived since the table last drew `shown`.
    /// let change = ListChange.merging([first.change, second.change], countBefore: shown.count)
    /// change.apply(to: &rows, from: second.items)
    /// ```
    ///
    /// Items that one change inserts and a later one removes appear in
    /// neither list of the result; an item updated in place and never
    /// removed is reported updated once; an inserted item that a later change
    /// updates is reported inserted only. Ranges out of bounds of the list
    /// they index are clamped to it.
    /// - Parameters:
    ///   - changes: the changes, oldest first, each indexing the list the
    ///     one before it produced.
    ///   - countBefore: the number of items before the first change.
    /// - Returns: a change whose ``removed`` index the list before the first
    ///   change and whose ``inserted`` and ``updated`` index the list after
    ///   the last.
    /// - Complexity: O(*c* · *r*) for *c* changes of *r* ranges in all; the
    ///   number of items does not count.
    public static func merging(_ changes: some Sequence<ListChange>, countBefore: Int) -> ListChange {
        var runs = RunList(count: max(0, countBefore))
        for change in changes {
            runs.apply(change)
        }
        return runs.mergedChange(countBefore: max(0, countBefore))
    }

    /// This change followed by another, as one change; see
    /// ``merging(_:countBefore:)``.
    /// - Parameters:
    ///   - next: the change that follows, indexing the list this one produced.
    ///   - countBefore: the number of items before this change.
    /// - Returns: the merged change.
    /// - Complexity: O(*r*) for *r* ranges in both.
    public func followed(by next: ListChange, countBefore: Int) -> ListChange {
        Self.merging([self, next], countBefore: countBefore)
    }
}

/// A list described by where its items came from: runs of items of the
/// first list (by their index there) and runs of items inserted since.
private struct RunList {
    struct Run {
        /// The index in the first list of the run's first item; `nil` for
        /// inserted items.
        var origin: Int?
        var count: Int
        var updated = false
    }

    private var runs: [Run]
    private var count: Int

    init(count: Int) {
        runs = count > 0 ? [Run(origin: 0, count: count)] : []
        self.count = count
    }

    mutating func apply(_ change: ListChange) {
        // Removed ranges index the list before the change: remove from the
        // end so the earlier ones keep their place.
        for range in change.removed.reversed() {
            let range = clamped(range)
            guard !range.isEmpty else { continue }
            let (first, end) = (split(at: range.lowerBound), split(at: range.upperBound))
            runs.removeSubrange(first..<end)
            count -= range.count
        }
        for range in change.inserted {
            let lower = min(max(0, range.lowerBound), count)
            guard !range.isEmpty else { continue }
            runs.insert(Run(origin: nil, count: range.count), at: split(at: lower))
            count += range.count
        }
        for range in change.updated {
            let range = clamped(range)
            guard !range.isEmpty else { continue }
            let (first, end) = (split(at: range.lowerBound), split(at: range.upperBound))
            for index in first..<end { runs[index].updated = true }
        }
    }

    func mergedChange(countBefore: Int) -> ListChange {
        var change = ListChange()
        var kept = 0  // the first index of the first list not yet accounted for
        var position = 0
        for run in runs {
            let range = position..<position + run.count
            if let origin = run.origin {
                Self.add(kept..<origin, to: &change.removed)
                kept = origin + run.count
                if run.updated { Self.add(range, to: &change.updated) }
            } else {
                Self.add(range, to: &change.inserted)
            }
            position += run.count
        }
        Self.add(kept..<countBefore, to: &change.removed)
        return change
    }

    private func clamped(_ range: Range<Int>) -> Range<Int> {
        let lower = min(max(0, range.lowerBound), count)
        return lower..<min(max(lower, range.upperBound), count)
    }

    /// Makes a run start at an item position; returns the index of that run
    /// (`runs.count` at the end).
    private mutating func split(at position: Int) -> Int {
        var start = 0
        for index in runs.indices {
            let run = runs[index]
            if position == start { return index }
            if position < start + run.count {
                let head = position - start
                var tail = run
                tail.count -= head
                tail.origin = run.origin.map { $0 + head }
                runs[index].count = head
                runs.insert(tail, at: index + 1)
                return index + 1
            }
            start += run.count
        }
        return runs.count
    }

    /// Appends a range, joined to the last one when they touch.
    private static func add(_ range: Range<Int>, to ranges: inout [Range<Int>]) {
        guard !range.isEmpty else { return }
        if let last = ranges.last, last.upperBound == range.lowerBound {
            ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
        } else {
            ranges.append(range)
        }
    }
}
