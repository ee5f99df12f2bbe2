/// The changes a list model on the main actor has shown: what its
/// `change(since:)` and `takeChange()` merge, and the change of the current
/// main-actor turn (its `lastChange`). ``PagedList`` keeps one for its items,
/// ``SeparatedList`` one for its rows.
struct ChangeHistory {
    /// How many changes ``change(since:upTo:)`` reaches back.
    static var limit: Int { 1_000 }

    /// Each change shown, oldest first, with the version before it and the count of rows it
    /// applied to.
    private var entries: [(from: Int, countBefore: Int, change: ListChange)] = []
    /// The version the current turn's first change started from; `nil` between turns.
    var turnStart: Int?
    /// The version ``take(upTo:)`` last returned a change up to.
    private var takenVersion = -1

    /// Records a change shown.
    /// - Complexity: amortized O(1).
    mutating func record(from version: Int, countBefore: Int, change: ListChange) {
        entries.append((version, countBefore, change))
        // Trimmed in batches, so that each change moves the history rarely.
        if entries.count > 2 * Self.limit { entries.removeFirst(entries.count - Self.limit) }
    }

    /// The merged change from the rows shown at `version` to those shown at `latest`; `nil` when
    /// `version` is no longer recorded.
    /// - Complexity: O(*s* · *r*) for the *s* changes since `version` with *r* ranges in all.
    func change(since version: Int, upTo latest: Int) -> ListChange? {
        if version == latest { return ListChange() }
        guard let start = entries.firstIndex(where: { $0.from == version }) else { return nil }
        let changes = entries[start...]
        return ListChange.merging(changes.lazy.map(\.change), countBefore: changes.first?.countBefore ?? 0)
    }

    /// The change since the previous call (the first: since an empty list), up to `latest`.
    mutating func take(upTo latest: Int) -> ListChange? {
        defer { takenVersion = latest }
        return change(since: takenVersion, upTo: latest)
    }

    /// The change of the current turn once `applied` (the changes just shown, from the rows shown
    /// at `shown` holding `countBefore`) is shown up to `latest`: every change of the turn merged.
    /// - Returns: the change, and whether a turn started with it (the caller ends the turn once
    ///   the main actor's current job is over, by setting ``turnStart`` to `nil`).
    mutating func turnChange(applied: [ListChange], countBefore: Int, shown: Int, latest: Int)
        -> (change: ListChange, started: Bool)
    {
        if let start = turnStart, let merged = change(since: start, upTo: latest) {
            return (merged, false)
        }
        turnStart = shown
        let change = applied.count == 1 ? applied[0] : ListChange.merging(applied, countBefore: countBefore)
        return (change, true)
    }
}
