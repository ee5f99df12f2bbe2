/// What a batch of local edits (``PagerStateMachine/apply(_:)``) changed so
/// far: the change of each edit applied, in order, and the pages it edited.
///
/// Invariants: ``changes`` holds one change per edit recorded, in order;
/// ``edited`` holds the sequence of the page of each; ``updatedOnly`` lists
/// the index each updated, as long as every edit recorded updated one item in
/// place, and is `nil` from the first insert or removal on. ``change`` is the
/// batch's changes as one change from the list as it was before the batch
/// (``countBefore`` items).
struct EditBatch: Sendable {
    /// The number of items before the batch.
    let countBefore: Int
    /// The change of each edit applied, in order.
    private(set) var changes: [ListChange] = []
    /// The indices updated, while nothing was inserted or removed.
    private(set) var updatedOnly: [Int]? = []
    /// The sequences of the pages the batch edited.
    private(set) var edited: Set<Int> = []

    /// An empty batch over a list of `countBefore` items.
    init(countBefore: Int) {
        self.countBefore = countBefore
    }

    /// Whether no edit was recorded.
    /// - Complexity: O(1).
    var isEmpty: Bool { changes.isEmpty }

    /// Records the change of an edit applied to the page of a sequence: one
    /// item updated, inserted or removed.
    /// - Complexity: O(1) amortized.
    mutating func record(_ change: ListChange, sequence: Int) {
        changes.append(change)
        edited.insert(sequence)
        if change.inserted.isEmpty, change.removed.isEmpty, let index = change.updated.first?.lowerBound {
            updatedOnly?.append(index)
        } else {
            updatedOnly = nil
        }
    }

    /// The batch's change as one: updates in place sorted and joined,
    /// anything else merged (``ListChange/merging(_:countBefore:)``).
    /// - Complexity: O(*k* log *k*) for *k* updates in place; O(*k*²) for a
    ///   batch that inserts or removes.
    var change: ListChange {
        guard let indices = updatedOnly else {
            return ListChange.merging(changes, countBefore: countBefore)
        }
        var ranges: [Range<Int>] = []
        for index in Set(indices).sorted() {
            if let last = ranges.last, last.upperBound == index {
                ranges[ranges.count - 1] = last.lowerBound..<index + 1
            } else {
                ranges.append(index..<index + 1)
            }
        }
        return ListChange(updated: ranges)
    }
}
