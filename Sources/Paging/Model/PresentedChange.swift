/// The change of a presented list (``PresentedItems``: placeholders, the items
/// held, placeholders) made from the change of the items held and the counts
/// of placeholders before and after it.
///
/// When every item still held keeps its position in the whole list (a page
/// that fills placeholders, a window that drops a page back into them, a
/// jump), the change is positional: the rows whose content changed are
/// updated, and rows are inserted or removed only at the end, as many as the
/// whole list's count moved. So a screen's rows and its scroll position stay
/// where they are. Otherwise (an item inserted or removed among those held,
/// counts that disagree) the held change is shifted into place, with the
/// placeholder counts' differences inserted or removed at each end.
enum PresentedChange {
    /// The runs of a presented list.
    struct Shape: Sendable, Equatable {
        /// Placeholders before the items held.
        var before = 0
        /// Items held.
        var held = 0
        /// Placeholders after them.
        var after = 0

        /// Every row.
        var count: Int { before + held + after }
    }

    /// The presented change from `old` to `new`, whose held items changed by `held`.
    /// - Complexity: O(*r* log *r*) for *r* ranges in `held`.
    static func make(from old: Shape, to new: Shape, held change: ListChange) -> ListChange {
        let map = ChangeMap(change, oldCount: old.held)
        let survivors = map.survivors()
        if survivors.allSatisfy({ old.before + $0.old == new.before + $0.new }) {
            let kept = survivors.map { (old.before + $0.old)..<(old.before + $0.old + $0.count) }
            let touched = ChangeMap.merged(
                ChangeMap.subtracting(kept, from: old.before..<(old.before + old.held))
                    + ChangeMap.subtracting(kept, from: new.before..<(new.before + new.held))
                    + map.updated.map { ($0.lowerBound + new.before)..<($0.upperBound + new.before) })
            let common = min(old.count, new.count)
            return ListChange(
                removed: new.count < old.count ? [new.count..<old.count] : [],
                inserted: new.count > old.count ? [old.count..<new.count] : [],
                updated: touched.compactMap {
                    $0.lowerBound < common ? $0.lowerBound..<min($0.upperBound, common) : nil
                })
        }
        let lead =
            new.before > old.before
            ? ListChange(inserted: [0..<(new.before - old.before)])
            : new.before < old.before ? ListChange(removed: [0..<(old.before - new.before)]) : ListChange()
        func shifted(_ ranges: [Range<Int>]) -> [Range<Int>] {
            ranges.map { ($0.lowerBound + new.before)..<($0.upperBound + new.before) }
        }
        let middle = ListChange(
            removed: shifted(change.removed), inserted: shifted(change.inserted),
            updated: shifted(change.updated))
        let end = new.before + new.held
        let trail =
            new.after > old.after
            ? ListChange(inserted: [(end + old.after)..<(end + new.after)])
            : new.after < old.after
                ? ListChange(removed: [(end + new.after)..<(end + old.after)]) : ListChange()
        return ListChange.merging([lead, middle, trail], countBefore: old.count)
    }
}
