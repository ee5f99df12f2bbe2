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

    /// A short description, such as `removed [0..<20], inserted [80..<100]`.
    public var description: String {
        var parts: [String] = []
        if !removed.isEmpty { parts.append("removed \(removed)") }
        if !inserted.isEmpty { parts.append("inserted \(inserted)") }
        if !updated.isEmpty { parts.append("updated \(updated)") }
        return parts.isEmpty ? "no change" : parts.joined(separator: ", ")
    }
}
