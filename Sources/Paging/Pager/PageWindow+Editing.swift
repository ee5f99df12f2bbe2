extension PageWindow {
    /// Applies one local edit of a batch, if its condition holds, and
    /// records its change in the batch. Ids stay unique: an insert of an id
    /// held is refused.
    /// - Parameters:
    ///   - edit: the edit.
    ///   - version: the version of the snapshot published last, for a
    ///     condition on it.
    ///   - batch: the batch the edit belongs to.
    /// - Returns: the edit's outcome, and the item a removal removed.
    /// - Complexity: O(*m* + log *p*) for pages of *m* items out of *p*.
    mutating func apply(_ edit: PagerEdit<Item>, version: Int, into batch: inout EditBatch) -> (
        PagerEdit<Item>.Outcome, Item?
    ) {
        switch edit.kind {
        case .update(let item):
            guard var row = locate(item.id) else { return (.notHeld, nil) }
            guard
                holds(edit.condition, for: row.pageItems[row.offset], inPage: row.sequence, version: version)
            else {
                return (.conditionFailed, nil)
            }
            row.pageItems[row.offset] = item
            replaceItems(ofPage: row.sequence, with: row.pageItems)
            let index = row.firstIndex + row.offset
            batch.record(ListChange(updated: [index..<index + 1]), sequence: row.sequence)
            return (.applied, nil)

        case .remove(let id):
            guard var row = locate(id) else { return (.notHeld, nil) }
            guard
                holds(edit.condition, for: row.pageItems[row.offset], inPage: row.sequence, version: version)
            else {
                return (.conditionFailed, nil)
            }
            let removed = row.pageItems.remove(at: row.offset)
            replaceItems(ofPage: row.sequence, with: row.pageItems, removed: id)
            let index = row.firstIndex + row.offset
            batch.record(ListChange(removed: [index..<index + 1]), sequence: row.sequence)
            return (.applied, removed)

        case .insert(let item, let position):
            return insert(item, at: position, condition: edit.condition, version: version, into: &batch)
        }
    }

    /// Inserts an item next to the one a position names, if the condition
    /// holds for that one.
    /// - Complexity: O(*m* + log *p*).
    private mutating func insert(
        _ item: Item, at position: InsertPosition<Item.ID>, condition: PagerEdit<Item>.Condition,
        version: Int,
        into batch: inout EditBatch
    ) -> (PagerEdit<Item>.Outcome, Item?) {
        guard isLoaded else { return (.notHeld, nil) }
        guard location(of: item.id) == nil else { return (.alreadyHeld, nil) }
        // The item it goes next to, and the offset it takes in that page.
        let row: Row
        let offset: Int
        switch position {
        case .first:
            let (pageItems, firstIndex) = items.page(at: 0)
            row = Row(sequence: firstSequence, pageItems: pageItems, firstIndex: firstIndex, offset: 0)
            offset = 0
        case .last:
            let (pageItems, firstIndex) = items.page(at: endSequence - 1 - firstSequence)
            row = Row(
                sequence: endSequence - 1, pageItems: pageItems, firstIndex: firstIndex,
                offset: pageItems.count - 1)
            offset = pageItems.count
        case .before(let id):
            guard let found = locate(id) else { return (.notHeld, nil) }
            row = found
            offset = found.offset
        case .after(let id):
            guard let found = locate(id) else { return (.notHeld, nil) }
            row = found
            offset = found.offset + 1
        }
        // An empty page at an end has no item to be next to: only a
        // condition about the page itself can hold there.
        let neighbour = row.pageItems.indices.contains(row.offset) ? row.pageItems[row.offset] : nil
        let satisfied =
            if let neighbour {
                holds(condition, for: neighbour, inPage: row.sequence, version: version)
            } else if case .matching = condition.kind {
                false
            } else {
                holds(condition, for: item, inPage: row.sequence, version: version)
            }
        guard satisfied else { return (.conditionFailed, nil) }
        var pageItems = row.pageItems
        pageItems.insert(item, at: offset)
        replaceItems(ofPage: row.sequence, with: pageItems, inserted: item.id)
        let index = row.firstIndex + offset
        batch.record(ListChange(inserted: [index..<index + 1]), sequence: row.sequence)
        return (.applied, nil)
    }

    /// Whether an edit's condition holds for the item it is about, in the
    /// page of a sequence, with `version` published last.
    /// - Complexity: O(1) expected, plus the predicate of a `matching`
    ///   condition.
    private func holds(
        _ condition: PagerEdit<Item>.Condition, for row: Item, inPage sequence: Int, version: Int
    ) -> Bool {
        switch condition.kind {
        case .always: true
        case .version(let read): version == read
        case .unchanged(let read): (record(at: sequence)?.modified ?? .max) <= read
        case .matching(let predicate): predicate(row)
        }
    }
}
