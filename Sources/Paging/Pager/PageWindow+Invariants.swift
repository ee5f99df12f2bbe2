// The invariants of a page window, as code: what ``PagerStateMachine/invariantViolations(upTo:)``
// checks after every event in a debug build.
extension PageWindow {
    /// The invariants of the type's doc that do not hold, each said in a sentence; empty when all
    /// hold. Those that cost a pass over the items are checked only while at most `limit` items
    /// are held (all of them with `nil`).
    ///
    /// Checked: the held pages are those of `firstSequence ..< endSequence`, one record each and
    /// no other; every count a page gave of the items around it is 0 or more; the identity index
    /// holds one entry per item held; no id is held twice; each page's first and last items are
    /// found in that page.
    /// - Complexity: O(*p*) for *p* pages held, and O(*n*) more for *n* items held within `limit`.
    func invariantViolations(upTo limit: Int? = nil) -> [String] {
        var violations: [String] = []
        if endSequence < firstSequence {
            violations.append("the window ends (\(endSequence)) before it starts (\(firstSequence))")
        }
        if items.pageCount != pageCount {
            violations.append("\(items.pageCount) pages of items for \(pageCount) sequences")
        }
        let sequences = Set(records.keys)
        if sequences != Set(firstSequence..<max(firstSequence, endSequence)) {
            violations.append(
                "records for \(sequences.sorted()), but pages held for \(firstSequence)..<\(endSequence)")
        }
        if records.values.contains(where: { ($0.itemsBefore ?? 0) < 0 || ($0.itemsAfter ?? 0) < 0 }) {
            violations.append("a page counts fewer than 0 items around it")
        }
        if indexedCount != items.count {
            violations.append("the identity index has \(indexedCount) entries for \(items.count) items")
        }
        guard limit.map({ items.count <= $0 }) ?? true, items.pageCount == pageCount else {
            return violations
        }
        var seen = Set<Item.ID>(minimumCapacity: items.count)
        for item in items where !seen.insert(item.id).inserted {
            violations.append("\(item.id) is held twice")
        }
        for offset in 0..<items.pageCount {
            let page = items.page(at: offset).items
            for item in [page.first, page.last].compactMap({ $0 })
            where location(of: item.id) != firstSequence + offset {
                violations.append(
                    "\(item.id) is in the page of sequence \(firstSequence + offset), but the index says \(String(describing: location(of: item.id)))"
                )
            }
        }
        return violations
    }
}
