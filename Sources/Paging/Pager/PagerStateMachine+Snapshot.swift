// What a pager state machine shows: the load states, the snapshot, and the change each event
// publishes (of the held items, and of the presented list with placeholders).
extension PagerStateMachine {
    /// The presented list as it stands: placeholders, items held, placeholders (none without
    /// ``PagingConfiguration/placeholders``).
    /// - Complexity: O(1) expected.
    var currentShape: PresentedChange.Shape {
        guard configuration.placeholders else { return PresentedChange.Shape(held: items.count) }
        let counts = window.placeholderCounts
        return PresentedChange.Shape(before: counts.before ?? 0, held: items.count, after: counts.after ?? 0)
    }

    /// The number of items of the whole list, when the pages held tell it.
    /// - Complexity: O(1) expected.
    var knownTotal: Int? {
        let counts = window.placeholderCounts
        guard isLoaded, let before = counts.before, let after = counts.after else { return nil }
        return before + items.count + after
    }

    var loadStates: LoadStates {
        LoadStates(refresh: state(of: .refresh), previous: state(of: .previous), next: state(of: .next))
    }

    func state(of slot: Slot) -> LoadState {
        if inFlight[slot.rawValue] != nil { return .loading }
        if let failure = failures[slot.rawValue] { return .failed(failure.error) }
        switch slot {
        case .refresh: return jumpRefusal.map { .failed($0) } ?? .notLoading
        case .next: return isLoaded && !hasNext ? .endReached : .notLoading
        case .previous: return isLoaded && !hasPrevious ? .endReached : .notLoading
        }
    }

    /// The snapshot of the current state.
    /// - Complexity: O(1).
    var snapshot: PagingSnapshot<Item> {
        var snapshot = PagingSnapshot(
            items: items, loadStates: loadStates, hasNext: hasNext, hasPrevious: hasPrevious, change: change,
            duplicatesDropped: duplicatesDropped, drift: drift, driftCount: driftCount, version: version,
            placeholdersBefore: presentedShape.before, placeholdersAfter: presentedShape.after,
            presentedChange: configuration.placeholders ? presentedChange : change)
        snapshot.loadIDs = SlotLoadIDs(
            refresh: inFlight[Slot.refresh.rawValue]?.requestID,
            next: inFlight[Slot.next.rawValue]?.requestID,
            previous: inFlight[Slot.previous.rawValue]?.requestID)
        return snapshot
    }

    /// Marks a new snapshot with the given change.
    ///
    /// One event publishes one snapshot, taken when the event ends: a second
    /// change in the same event (a page applied, then the load it sets off,
    /// which shows as loading) is merged into the first, so that the
    /// snapshot's change leads from the snapshot before it to this one.
    mutating func publish(_ change: ListChange, duplicates: Int = 0, into effects: inout Effects) {
        version += 1
        if configuration.placeholders {
            let shape = currentShape
            let step = PresentedChange.make(from: presentedShape, to: shape, held: change)
            if !effects.changed {
                presentedCountBefore = presentedShape.count
                presentedChange = step
            } else if !step.isEmpty {
                presentedChange = ListChange.merging(
                    [presentedChange, step], countBefore: presentedCountBefore)
            }
            presentedShape = shape
        } else {
            presentedShape = PresentedChange.Shape(held: items.count)
        }
        if effects.changed {
            if !change.isEmpty {
                // The count before the first change: undo the second, then the first.
                let countBefore =
                    items.count - change.insertedCount + change.removedCount - self.change.insertedCount
                    + self.change.removedCount
                self.change = ListChange.merging([self.change, change], countBefore: countBefore)
            }
            duplicatesDropped += duplicates
        } else {
            self.change = change
            duplicatesDropped = duplicates
            drift = nil
        }
        effects.changed = true
    }
}
