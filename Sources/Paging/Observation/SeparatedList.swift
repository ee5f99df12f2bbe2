public import Observation

/// A ``PagedList`` with separators between neighbours: its rows, items and
/// separators in order, as an `@Observable` model on the main actor, with a
/// change over rows to animate.
///
/// Made by ``PagedList/separated(by:)``; loads, refreshes and edits go
/// through ``list``, and the rows follow every snapshot the list shows,
/// through a ``SeparatorTransform`` (see <doc:Separators> for what the rule
/// is asked and when).
///
/// ```swift
/// struct LaunchList: View {
///     @State var launches = PagedList(source: LaunchesSource()).separated { before, after -> Int? in
///         guard let after else { return nil }
///         return before?.year == after.year ? nil : after.year
///     }
///
///     var body: some View {
///         List(launches.rows.indices, id: \.self) { row in
///             Group {
///                 switch launches.rows[row] {
///                 case .separator(let year, _, _): Text(String(year)).font(.headline)
///                 case .item(let launch): Text(launch.mission)
///                 }
///             }
///             .onAppear { launches.rowAppeared(at: row) }
///         }
///         .onAppear { launches.list.loadNext() }
///     }
/// }
/// ```
@MainActor
@Observable
public final class SeparatedList<
    Key: Hashable & Sendable, Item: Identifiable & Sendable, Separator: Sendable & Equatable
>
where Item.ID: Sendable {
    /// The list whose items the rows separate: loads, refreshes and edits go through it.
    @ObservationIgnored public let list: PagedList<Key, Item>
    /// The rows: every item the list shows, and the separators between them.
    public private(set) var rows: SeparatedItems<Item, Separator>
    /// What the last main-actor turn that changed the rows changed, as row
    /// indices: every change of that turn merged into one batch from the
    /// rows at the turn's start (``PagedList/lastChange``, for rows). A view
    /// that may draw less often uses ``takeChange()``.
    public private(set) var lastChange: ListChange
    /// The version of the list's snapshot the rows were made from.
    public private(set) var version: Int

    @ObservationIgnored private var transform: SeparatorTransform<Item, Separator>
    @ObservationIgnored private var history = ChangeHistory()

    /// Separates a list's items with a rule.
    /// - Parameters:
    ///   - list: the list; its rows follow every snapshot it shows from now on.
    ///   - rule: the separator between two neighbours, or `nil` for none; pure.
    /// - Complexity: O(*n*) for the *n* items the list shows, and one rule
    ///   call per gap.
    public init(list: PagedList<Key, Item>, rule: @escaping SeparatorRule<Item, Separator>) {
        self.list = list
        var transform = SeparatorTransform(rule)
        let first = transform.apply(list.shownSnapshot)
        self.transform = transform
        rows = first.rows
        version = list.version
        lastChange = ListChange()
        // The first rows, as inserted into an empty list: what the first takeChange() gives.
        history.record(from: -1, countBefore: 0, change: first.change)
        list.onShow.append { [weak self] snapshot in
            guard let self else { return false }
            self.show(snapshot)
            return true
        }
    }

    /// Reports that a row was shown: its item (a separator's: the item
    /// below it, or above it for the separator below the last item), to
    /// prefetch near the ends as ``PagedList/itemAppeared(at:)`` does (with
    /// placeholders, at the item's position in ``PagedList/presented``).
    /// - Parameter row: an index of ``rows``; one out of range is ignored.
    /// - Complexity: O(log *p*) for *p* pages held.
    public func rowAppeared(at row: Int) {
        guard rows.indices.contains(row) else { return }
        let item =
            rows.itemIndex(forRow: row)
            ?? (row + 1 < rows.count ? rows.itemIndex(forRow: row + 1) : nil)
            ?? (row > 0 ? rows.itemIndex(forRow: row - 1) : nil)
        if let item { list.itemAppeared(at: list.presented.presentedIndex(forHeld: item)) }
    }

    /// The change from the rows shown at an earlier version to the rows
    /// shown now, as one batch update.
    /// - Parameter version: a ``version`` the caller read earlier.
    /// - Returns: the merged change (empty when nothing changed), or `nil`
    ///   when the version is not one this list showed within (at least) its
    ///   last 1,000 snapshots: then reload every row.
    /// - Complexity: O(*s* · *r*) for the *s* snapshots since `version` with
    ///   *r* changed ranges in all, whatever the number of rows.
    public func change(since version: Int) -> ListChange? {
        history.change(since: version, upTo: self.version)
    }

    /// The merged change from the rows the previous call saw (the first
    /// call: no row) to the rows shown now.
    ///
    /// ```swift
    /// if let change = launches.takeChange() {
    ///     change.apply(to: &rows, from: launches.rows)
    /// } else {
    ///     rows = Array(launches.rows)  // too far behind: reload every row
    /// }
    /// ```
    /// - Returns: the change, or `nil` when the previous call saw a version
    ///   this list no longer reaches back to: then reload every row.
    /// - Complexity: O(*s* · *r*) for the *s* snapshots since the previous
    ///   call, with *r* changed ranges in all.
    public func takeChange() -> ListChange? {
        list.catchUp()
        return history.take(upTo: version)
    }

    /// Makes the rows of a snapshot the list shows.
    private func show(_ snapshot: PagingSnapshot<Item>) {
        let countBefore = rows.count
        let shown = version
        let separated = transform.apply(snapshot)
        history.record(from: shown, countBefore: countBefore, change: separated.change)
        let turn = history.turnChange(
            applied: [separated.change], countBefore: countBefore, shown: shown, latest: snapshot.version)
        rows = separated.rows
        version = snapshot.version
        lastChange = turn.change
        if turn.started {
            // Runs after this turn's job: the next update starts a new change.
            Task { @MainActor [weak self] in self?.history.turnStart = nil }
        }
    }
}

extension PagedList {
    /// The list's rows with separators between neighbours: a model that
    /// follows this list.
    /// - Parameter rule: the separator between two neighbours, or `nil` for
    ///   none; pure. See <doc:Separators>.
    /// - Returns: the separated list; it holds this list.
    /// - Complexity: O(*n*) for the *n* items shown now.
    public func separated<Separator: Sendable & Equatable>(
        by rule: @escaping SeparatorRule<Item, Separator>
    ) -> SeparatedList<Key, Item, Separator> {
        SeparatedList(list: self, rule: rule)
    }
}
