/// Puts separators between the items of a pager's snapshots: a date header
/// when the day changes, a letter in a contact list.
///
/// Feed it every snapshot of one pager, in order (as ``Pager/snapshots``
/// delivers them); each gives a ``SeparatedSnapshot``: the rows, and what
/// changed in them, for a table or collection view to animate.
///
/// ```swift
/// var headers = SeparatorTransform<Launch, String> { before, after in
///     guard let after else { return nil }
///     return before?.year == after.year ? nil : after.year
/// }
/// for await snapshot in pager.snapshots {
///     let separated = headers.apply(snapshot)
///     show(separated.rows, animating: separated.change)
/// }
/// ```
///
/// The rule sees each pair of neighbours across page boundaries, and is
/// called again only when a neighbour loads, is edited, or changes (an item
/// removed between two makes them neighbours): the separators of the pages
/// that did not change are kept as they are, and nothing is computed for
/// pages not held. The separator above the first item is asked for only
/// once the list's start is reached, the one below the last only once its
/// end is; a list whose both ends are reached with no item asks
/// `rule(nil, nil)`. A separator keeps its identity
/// (``PagedRowID/separator(before:after:)``) as long as its two neighbours
/// stay neighbours; one whose value changed between them is reported
/// updated, one equal to the value before is not.
///
/// - Complexity: ``apply(_:)`` is O(*c* *m* + (*k* + *r*) (log *p* + log *m*))
///   for *p* pages of *m* items held, *c* pages added, replaced, or whose
///   item above changed (the first page after a page dropped), and *k* items
///   inserted or updated in *r* ranges of the snapshot's change: what changed,
///   not what is held. O(1) for a snapshot that changed only load states. A snapshot whose change does not
///   follow the one applied before (the first, or one of another pager) makes
///   every row again: O(*n*), with the rule called only for pages that are not
///   the same as before.
public struct SeparatorTransform<Item: Identifiable & Sendable, Separator: Sendable & Equatable>: Sendable
where Item.ID: Sendable {
    typealias Slot = RowSlot<Item.ID, Separator>
    typealias Box = SeparatorBox<Item.ID, Separator>
    typealias Rows = SeparatedItems<Item, Separator>

    private let rule: SeparatorRule<Item, Separator>
    /// The rows made last.
    private var rows = Rows()
    private var started = false
    /// The rows made for each node of the items' tree held now, by the node's identity: a node
    /// shared with the snapshot before, with the same item above it, keeps its rows.
    private var memo: [ObjectIdentifier: MemoEntry] = [:]
    /// How many times the rule was called since the transform was made.
    public private(set) var ruleCalls = 0

    /// A transform with a rule.
    /// - Parameter rule: the separator between two neighbours, or `nil` for none; pure.
    public init(_ rule: @escaping SeparatorRule<Item, Separator>) {
        self.rule = rule
    }

    /// The rows of a snapshot, and what changed since the rows of the snapshot applied before.
    /// - Parameter snapshot: the next snapshot of the pager.
    /// - Returns: the rows and their change.
    /// - Complexity: see ``SeparatorTransform``.
    public mutating func apply(_ snapshot: PagingSnapshot<Item>) -> SeparatedSnapshot<Item, Separator> {
        let calls = ruleCalls
        let old = rows
        let startReached = !snapshot.hasPrevious
        let endReached = !snapshot.hasNext
        let newItems = snapshot.items
        if started, snapshot.change.isEmpty, old.items.root === newItems.root,
            old.startReached == startReached,
            old.endReached == endReached
        {
            return SeparatedSnapshot(snapshot: snapshot, rows: old, change: ListChange(), ruleCalls: 0)
        }
        var change = snapshot.change
        if !started || (try? change.check(baseCount: old.items.count, newItems: 0..<newItems.count)) == nil {
            change = ListChange(
                removed: old.items.isEmpty ? [] : [0..<old.items.count],
                inserted: newItems.isEmpty ? [] : [0..<newItems.count])
        }
        started = true
        var work = Work(
            old: old, map: ChangeMap(change, oldCount: old.items.count), startReached: startReached)
        var context = Context()
        let root = newItems.root.map { build($0, &context, &work) }
        if let oldRoot = old.items.root { prune(oldRoot, work) }
        var trailing: Box?
        if endReached, !newItems.isEmpty || startReached {
            trailing = separator(
                before: context.beforeLeaf?.items.last, after: nil, at: newItems.count, &work)
        }
        rows = Rows(
            items: newItems, slots: PagedItems(root: root), trailing: trailing, startReached: startReached,
            endReached: endReached)
        return SeparatedSnapshot(
            snapshot: snapshot, rows: rows, change: Self.rowChange(from: old, to: rows, map: work.map),
            ruleCalls: ruleCalls - calls)
    }

    // MARK: Building the rows

    /// The rows made for a node of the items' tree.
    private struct MemoEntry: Sendable {
        /// The node (held, so that its identity is not reused while the entry lives).
        let node: PageTreeNode<Item>
        let rows: PageTreeNode<Slot>
        /// The last leaf with items before the node when its rows were made; `nil` at the start.
        let before: PageTreeNode<Item>?
        /// Whether the list's start was reached then (what the first item's gap depends on).
        let startReached: Bool
        /// The node's own last leaf with items, if any.
        let lastLeaf: PageTreeNode<Item>?
    }

    /// Where a walk of the new items' tree is.
    private struct Context {
        /// The last leaf with items passed: its last item is above the next one.
        var beforeLeaf: PageTreeNode<Item>?
        /// The index of the next item.
        var index = 0
    }

    /// What one `apply` works from, and the memo entries it used or made.
    private struct Work {
        let old: Rows
        let map: ChangeMap
        let startReached: Bool
        var hits: Set<ObjectIdentifier> = []
        var built: Set<ObjectIdentifier> = []
    }

    /// The rows of a node: those made before, if the node and the item above it are the same;
    /// otherwise made again from its children's.
    private mutating func build(
        _ node: PageTreeNode<Item>, _ context: inout Context, _ work: inout Work
    ) -> PageTreeNode<Slot> {
        let key = ObjectIdentifier(node)
        if let entry = memo[key], entry.node === node, entry.before === context.beforeLeaf,
            context.beforeLeaf != nil || entry.startReached == work.startReached
        {
            work.hits.insert(key)
            context.index += node.count
            if let last = entry.lastLeaf { context.beforeLeaf = last }
            return entry.rows
        }
        let before = context.beforeLeaf
        let rows: PageTreeNode<Slot>
        if node.height == 0, let entry = memo[key], entry.node === node {
            // The same page under another item above (or the start reached or left): its own
            // gaps stand; only the gap above its first item is looked at again.
            var slots = entry.rows.items
            if case .separator = slots.first { slots.removeFirst() }
            if let first = node.items.first, before != nil || work.startReached,
                let box = separator(before: before?.items.last, after: first, at: context.index, &work)
            {
                slots.insert(.separator(box), at: 0)
            }
            rows = PageTreeNode(leaf: slots)
            context.index += node.count
            if !node.items.isEmpty { context.beforeLeaf = node }
        } else if node.height == 0 {
            rows = PageTreeNode(leaf: buildLeaf(node, context, &work))
            context.index += node.count
            if !node.items.isEmpty { context.beforeLeaf = node }
        } else {
            var children: [PageTreeNode<Slot>] = []
            children.reserveCapacity(node.children.count)
            for child in node.children { children.append(build(child, &context, &work)) }
            rows = PageTreeNode(children: children)
        }
        memo[key] = MemoEntry(
            node: node, rows: rows, before: before, startReached: work.startReached,
            lastLeaf: context.beforeLeaf === before ? nil : context.beforeLeaf)
        work.built.insert(key)
        return rows
    }

    /// The slots of a page: for each item, the separator above it (if any), then the item.
    private mutating func buildLeaf(_ leaf: PageTreeNode<Item>, _ context: Context, _ work: inout Work)
        -> [Slot]
    {
        var slots: [Slot] = []
        slots.reserveCapacity(leaf.items.count + 1)
        var before = context.beforeLeaf?.items.last
        for (offset, item) in leaf.items.enumerated() {
            if before != nil || work.startReached,
                let box = separator(before: before, after: item, at: context.index + offset, &work)
            {
                slots.append(.separator(box))
            }
            slots.append(.item(offset))
            before = item
        }
        return slots
    }

    /// The separator of the gap above the item at `index` (`after`; `nil` below the last
    /// item): the one the rows before had for the same two neighbours when neither was
    /// inserted or updated since; otherwise the rule's.
    private mutating func separator(before: Item?, after: Item?, at index: Int, _ work: inout Work) -> Box? {
        let fresh =
            (before != nil && work.map.isFresh(index - 1)) || (after != nil && work.map.isFresh(index))
        if !fresh, let kept = Self.oldSeparator(before: before?.id, after: after?.id, at: index, work) {
            return kept
        }
        ruleCalls += 1
        return rule(before, after).map { Box($0, before: before?.id, after: after?.id) }
    }

    /// The separator the rows before had in the gap between the same two items (`.some(nil)`
    /// for none), or `nil` when they had no such gap.
    private static func oldSeparator(before: Item.ID?, after: Item.ID?, at index: Int, _ work: Work) -> Box??
    {
        let old = work.old
        guard let position = work.map.oldIndex(ofNew: index), old.gapExists(position),
            old.itemID(position - 1) == before, old.itemID(position) == after
        else { return nil }
        return .some(old.separator(aboveItem: position))
    }

    /// Forgets the memo entries of the old tree's nodes that the new tree does not hold.
    /// - Complexity: O(nodes of the old tree not shared with the new one).
    private mutating func prune(_ node: PageTreeNode<Item>, _ work: Work) {
        let key = ObjectIdentifier(node)
        if work.hits.contains(key) { return }
        if !work.built.contains(key) { memo.removeValue(forKey: key) }
        for child in node.children { prune(child, work) }
    }

    // MARK: The change in the rows

    /// The row change from the item change: the rows of the items removed and inserted, each
    /// with the gaps that die or are born with them; then the gaps next to where items were
    /// removed, inserted or updated, and at an end reached or left, each compared with the gap
    /// between the same two items before.
    static func rowChange(from old: Rows, to new: Rows, map: ChangeMap) -> ListChange {
        var removed: [Range<Int>] = []
        var inserted: [Range<Int>] = []
        var updated: [Range<Int>] = []
        for run in map.removed {
            removed.append(old.gapStart(run.lowerBound)..<old.rowOrEnd(ofItem: run.upperBound))
        }
        for run in map.inserted {
            inserted.append(new.gapStart(run.lowerBound)..<new.rowOrEnd(ofItem: run.upperBound))
        }
        var oldGaps: Set<Int> = []
        var newGaps: Set<Int> = []
        // Where a run was removed, its neighbours meet; where one was inserted, they parted.
        for run in map.removed {
            if let index = map.newIndex(ofOld: run.upperBound) { newGaps.insert(index) }
        }
        for run in map.inserted {
            if let index = map.oldIndex(ofNew: run.upperBound) { oldGaps.insert(index) }
        }
        for run in map.updated {
            for index in run where !map.isInserted(index) {
                newGaps.insert(index)
                newGaps.insert(index + 1)
                let row = new.rowIndex(forItem: index)
                updated.append(row..<row + 1)
            }
        }
        if old.startReached != new.startReached {
            oldGaps.insert(0)
            newGaps.insert(0)
        }
        if old.endReached != new.endReached {
            oldGaps.insert(old.items.count)
            newGaps.insert(new.items.count)
        }
        // A gap of the old rows, with neither neighbour removed, that the new rows lack.
        for position in oldGaps where old.gapExists(position) {
            if (position > 0 && map.isRemoved(position - 1))
                || (position < old.items.count && map.isRemoved(position))
            {
                continue
            }
            if let index = map.newIndex(ofOld: position), new.gapExists(index),
                new.itemID(index - 1) == old.itemID(position - 1), new.itemID(index) == old.itemID(position)
            {
                newGaps.insert(index)
                continue
            }
            if old.separator(aboveItem: position) != nil {
                let row = old.separatorRow(aboveItem: position)
                removed.append(row..<row + 1)
            }
        }
        // A gap of the new rows, with neither neighbour inserted: new, or the same as before.
        for index in newGaps where new.gapExists(index) {
            if (index > 0 && map.isInserted(index - 1)) || (index < new.items.count && map.isInserted(index))
            {
                continue
            }
            let now = new.separator(aboveItem: index)
            var kept: (position: Int, separator: Box?)?
            if let position = map.oldIndex(ofNew: index), old.gapExists(position),
                old.itemID(position - 1) == new.itemID(index - 1), old.itemID(position) == new.itemID(index)
            {
                kept = (position, old.separator(aboveItem: position))
            }
            switch (kept?.separator, now) {
            case (let then?, let now?):
                if then !== now && then.value != now.value {
                    let row = new.separatorRow(aboveItem: index)
                    updated.append(row..<row + 1)
                }
            case (_?, nil):
                if let position = kept?.position {
                    let row = old.separatorRow(aboveItem: position)
                    removed.append(row..<row + 1)
                }
            case (nil, _?):
                let row = new.separatorRow(aboveItem: index)
                inserted.append(row..<row + 1)
            case (nil, nil):
                break
            }
        }
        let insertedRows = ChangeMap.merged(inserted)
        return ListChange(
            removed: ChangeMap.merged(removed), inserted: insertedRows,
            updated: ChangeMap.merged(updated).flatMap { ChangeMap.subtracting(insertedRows, from: $0) })
    }
}

extension SeparatedItems {
    /// Whether the rows have the gap above the item at `index` (`items.count`: below the last).
    /// - Complexity: O(1).
    func gapExists(_ index: Int) -> Bool {
        if items.isEmpty { return index == 0 && startReached && endReached }
        if index == 0 { return startReached }
        if index == items.count { return endReached }
        return true
    }

    /// The id of the item at `index`, or `nil` outside the items (above the first, below the last).
    /// - Complexity: O(log *p*).
    func itemID(_ index: Int) -> Item.ID? {
        index >= 0 && index < items.count ? items[index].id : nil
    }

    /// The row of the separator above the item at `index` (which must have one), or of the
    /// trailing separator for `items.count`.
    /// - Complexity: O(log *p* + log *m*).
    func separatorRow(aboveItem index: Int) -> Int {
        index < items.count ? rowIndex(forItem: index) - 1 : pageRowCount
    }
}
