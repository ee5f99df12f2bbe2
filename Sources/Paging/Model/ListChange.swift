/// What changed between two snapshots of a list, as index ranges: what a
/// table or collection view needs to animate the change.
///
/// As in a batch update, ``removed`` indexes the previous snapshot, and
/// ``inserted`` and ``updated`` index the new one: remove first (from the
/// end), then insert (from the start), then reload. Only a batch of local
/// edits (``Pager/apply(_:)``) and merged changes
/// (``merging(_:countBefore:)``) report updates in the same change as
/// insertions or removals.
///
/// ```swift
/// var rows = Array(previous.items)
/// snapshot.change.apply(to: &rows, from: snapshot.items)
/// // rows == Array(snapshot.items)
/// ```
public struct ListChange: Sendable, Hashable, CustomStringConvertible {
    /// Ranges removed, as indices of the previous snapshot, ascending.
    public var removed: [Range<Int>]
    /// Ranges inserted, as indices of the new snapshot, ascending.
    public var inserted: [Range<Int>]
    /// Ranges whose items changed in place, as indices of the new snapshot.
    public var updated: [Range<Int>]

    /// Creates a change.
    public init(removed: [Range<Int>] = [], inserted: [Range<Int>] = [], updated: [Range<Int>] = []) {
        self.removed = removed
        self.inserted = inserted
        self.updated = updated
    }

    /// Whether nothing changed in the items (load states may still have).
    /// - Complexity: O(1).
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && updated.isEmpty }

    /// How many items were removed.
    /// - Complexity: O(*r*) for *r* ranges.
    public var removedCount: Int { removed.reduce(0) { $0 + $1.count } }
    /// How many items were inserted.
    /// - Complexity: O(*r*) for *r* ranges.
    public var insertedCount: Int { inserted.reduce(0) { $0 + $1.count } }

    /// Applies the change to a copy of the previous items, taking inserted
    /// and updated items from the new ones.
    /// - Parameters:
    ///   - collection: the previous items; on return, equal to `newItems`.
    ///   - newItems: the items of the new snapshot.
    /// - Complexity: O(*n*) for *n* items in `collection`, per range.
    public func apply<C: RangeReplaceableCollection, N: RandomAccessCollection>(
        to collection: inout C, from newItems: N
    ) where C.Index == Int, N.Index == Int, N.Element == C.Element {
        for range in removed.reversed() {
            collection.removeSubrange(range)
        }
        for range in inserted {
            collection.insert(contentsOf: newItems[range], at: range.lowerBound)
        }
        for range in updated {
            collection.replaceSubrange(range, with: newItems[range])
        }
    }

    /// Applies the change as ``apply(to:from:)`` does, after checking that
    /// it fits: that `collection` holds the items the change was made from
    /// (as many as its ranges remove from and insert among) and that
    /// `newItems` holds the items it was made to. A change that does not
    /// fit (applied to the wrong rows, or twice) throws and leaves
    /// `collection` as it was, where ``apply(to:from:)`` would trap.
    ///
    /// ```swift
    /// do {
    ///     try change.checkedApply(to: &rows, from: list.items)
    /// } catch {
    ///     rows = Array(list.items)  // the rows were not the change's base
    /// }
    /// ```
    /// - Parameters:
    ///   - collection: the previous items; on return, equal in count to `newItems`.
    ///   - newItems: the items of the new snapshot.
    /// - Throws: ``ListChangeMismatch`` naming the range that does not fit.
    /// - Complexity: O(*r*) to check *r* ranges, then as ``apply(to:from:)``.
    public func checkedApply<C: RangeReplaceableCollection, N: RandomAccessCollection>(
        to collection: inout C, from newItems: N
    ) throws(ListChangeMismatch) where C.Index == Int, N.Index == Int, N.Element == C.Element {
        try check(baseCount: collection.count, newItems: newItems.startIndex..<newItems.endIndex)
        apply(to: &collection, from: newItems)
    }

    /// Applies the change as ``apply(to:from:)`` does, after checking that
    /// it fits by counts (as `checkedApply(to:from:)` does) and by
    /// identity: every item it keeps must be, in its new place, the item of
    /// the same id in `newItems`. So a change applied to rows it was not
    /// made from, or applied twice, throws even where the counts agree, and
    /// leaves `collection` as it was.
    /// - Parameters:
    ///   - collection: the previous items; on return, equal to `newItems` by id.
    ///   - newItems: the items of the new snapshot.
    /// - Throws: ``ListChangeMismatch`` naming what does not fit.
    /// - Complexity: O(*n*) for *n* items, in time and in a copy of the items.
    public func checkedApply<C: RangeReplaceableCollection, N: RandomAccessCollection>(
        to collection: inout C, from newItems: N
    ) throws(ListChangeMismatch)
    where C.Index == Int, N.Index == Int, N.Element == C.Element, C.Element: Identifiable {
        try check(baseCount: collection.count, newItems: newItems.startIndex..<newItems.endIndex)
        var result = collection
        apply(to: &result, from: newItems)
        for (offset, (item, expected)) in zip(result, newItems).enumerated() where item.id != expected.id {
            throw ListChangeMismatch(
                "it leaves \(item.id) at \(offset), where the new items have \(expected.id)")
        }
        collection = result
    }

    /// Checks the ranges against the counts of the items before and after.
    func check(baseCount: Int, newItems: Range<Int>) throws(ListChangeMismatch) {
        var end = 0
        for range in removed {
            guard range.lowerBound >= end, range.upperBound <= baseCount else {
                throw ListChangeMismatch("it removes \(range) from \(baseCount) items")
            }
            end = range.upperBound
        }
        var count = baseCount - removedCount
        end = 0
        for range in inserted {
            guard range.lowerBound >= end, range.lowerBound <= count, range.upperBound <= newItems.upperBound
            else {
                throw ListChangeMismatch(
                    "it inserts \(range) among \(count) items, from \(newItems.count) new ones")
            }
            count += range.count
            end = range.upperBound
        }
        guard count == newItems.count else {
            throw ListChangeMismatch(
                "it makes \(count) items of \(baseCount), and there are \(newItems.count) new ones")
        }
        for range in updated where range.upperBound > newItems.upperBound {
            throw ListChangeMismatch("it updates \(range) of \(newItems.count) items")
        }
    }

    /// A short description, such as `removed [0..<20], inserted [80..<100]`.
    public var description: String {
        var parts: [String] = []
        if !removed.isEmpty { parts.append("removed \(removed)") }
        if !inserted.isEmpty { parts.append("inserted \(inserted)") }
        if !updated.isEmpty { parts.append("updated \(updated)") }
        return parts.isEmpty ? "no change" : parts.joined(separator: ", ")
    }
}
