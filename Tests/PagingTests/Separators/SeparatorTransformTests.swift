import PagingTesting
import Testing

@testable import Paging

/// An item with a group (the separator rule's key) and a label an edit changes.
struct GroupedItem: Identifiable, Sendable, Hashable {
    var id: Int
    var group: Int
    var label = 0
}

/// The rule the tests use: a header naming the group above each item whose group differs from
/// the one above it (its label's parity too, so that an edit can change a separator in place),
/// "top" above the first item, "end" below the last, "empty" for a list with no item.
let groupRule: SeparatorRule<GroupedItem, String> = { before, after in
    switch (before, after) {
    case (nil, nil): "empty"
    case (nil, let after?): "top \(after.group)"
    case (_?, nil): "end"
    case (let before?, let after?):
        before.group == after.group ? nil : "group \(after.group).\(after.label % 2)"
    }
}

/// The rows a list should show, made the obvious way: every gap, asked of the rule.
func expectedRows<Item: Identifiable & Sendable, Separator: Sendable>(
    _ items: [Item], startReached: Bool, endReached: Bool, rule: SeparatorRule<Item, Separator>
) -> [PagedRow<Item, Separator>] where Item.ID: Sendable {
    var rows: [PagedRow<Item, Separator>] = []
    func gap(_ before: Item?, _ after: Item?) {
        if let separator = rule(before, after) {
            rows.append(.separator(separator, before: before?.id, after: after?.id))
        }
    }
    if items.isEmpty {
        if startReached && endReached { gap(nil, nil) }
        return rows
    }
    for (index, item) in items.enumerated() {
        if index > 0 || startReached { gap(index > 0 ? items[index - 1] : nil, item) }
        rows.append(.item(item))
    }
    if endReached { gap(items.last, nil) }
    return rows
}

/// The rows of a separated snapshot the obvious way.
func expectedRows<Item: Identifiable & Sendable, Separator: Sendable>(
    _ snapshot: PagingSnapshot<Item>, rule: SeparatorRule<Item, Separator>
) -> [PagedRow<Item, Separator>] where Item.ID: Sendable {
    expectedRows(
        Array(snapshot.items), startReached: !snapshot.hasPrevious, endReached: !snapshot.hasNext, rule: rule)
}

/// The gaps a list has, by the ids of their neighbours.
func gapIDs(_ items: [GroupedItem], startReached: Bool, endReached: Bool) -> Set<PagedRowID<Int>> {
    if items.isEmpty {
        return startReached && endReached ? [.separator(before: nil, after: nil)] : []
    }
    var gaps: Set<PagedRowID<Int>> = []
    for index in items.indices where index > 0 || startReached {
        gaps.insert(.separator(before: index > 0 ? items[index - 1].id : nil, after: items[index].id))
    }
    if endReached { gaps.insert(.separator(before: items.last?.id, after: nil)) }
    return gaps
}

/// Compares rows by identity and content (the item, the separator's value).
func sameRows<Item: Identifiable & Sendable & Equatable, Separator: Sendable & Equatable>(
    _ lhs: [PagedRow<Item, Separator>], _ rhs: [PagedRow<Item, Separator>]
) -> Bool where Item.ID: Sendable {
    lhs.count == rhs.count
        && zip(lhs, rhs).allSatisfy { left, right in
            left.id == right.id && left.item == right.item && left.separator == right.separator
        }
}

/// A list made of pages that a test changes page by page, as a pager does (sharing every page it
/// does not touch), with the change each step makes.
struct PagedModel {
    var pages: [[GroupedItem]] = []
    var items = PagedItems<GroupedItem>()
    var startReached = false
    var endReached = false
    var version = 0
    var change = ListChange()

    var all: [GroupedItem] { pages.flatMap { $0 } }

    mutating func append(_ page: [GroupedItem]) {
        let count = items.count
        pages.append(page)
        items.appendPage(page)
        change = ListChange(inserted: page.isEmpty ? [] : [count..<count + page.count])
    }

    mutating func prepend(_ page: [GroupedItem]) {
        pages.insert(page, at: 0)
        items.prependPage(page)
        change = ListChange(inserted: page.isEmpty ? [] : [0..<page.count])
    }

    mutating func drop(atEnd: Bool) {
        let count = items.count
        let page = atEnd ? pages.removeLast() : pages.removeFirst()
        items.removePage(atEnd: atEnd)
        let range = atEnd ? count - page.count..<count : 0..<page.count
        change = ListChange(removed: page.isEmpty ? [] : [range])
    }

    /// Replaces a page; `change` is given as indices within the page.
    mutating func replace(_ ordinal: Int, with page: [GroupedItem], change local: ListChange) {
        let first = pages[..<ordinal].reduce(0) { $0 + $1.count }
        pages[ordinal] = page
        items.replacePage(at: ordinal, with: page)
        func shifted(_ ranges: [Range<Int>]) -> [Range<Int>] {
            ranges.map { $0.lowerBound + first..<$0.upperBound + first }
        }
        change = ListChange(
            removed: shifted(local.removed), inserted: shifted(local.inserted),
            updated: shifted(local.updated))
    }

    mutating func snapshot() -> PagingSnapshot<GroupedItem> {
        version += 1
        defer { change = ListChange() }
        return PagingSnapshot(
            items: items, loadStates: LoadStates(), hasNext: !endReached, hasPrevious: !startReached,
            change: change, version: version)
    }
}

@Suite("Separators between neighbours (SeparatorTransform)")
struct SeparatorTransformTests {
    static func item(_ id: Int, _ group: Int, label: Int = 0) -> GroupedItem {
        GroupedItem(id: id, group: group, label: label)
    }

    @Test("separators across page boundaries, the top and the end only once reached")
    func acrossPages() {
        var model = PagedModel()
        var transform = SeparatorTransform(groupRule)
        model.append([Self.item(1, 1), Self.item(2, 1)])
        var result = transform.apply(model.snapshot())
        #expect(
            sameRows(
                Array(result.rows),
                expectedRows(model.all, startReached: false, endReached: false, rule: groupRule)))
        // No separator above the first item while the start is not reached, none below the last.
        #expect(result.rows.map(\.id) == [.item(1), .item(2)])
        model.append([Self.item(3, 2), Self.item(4, 2)])
        result = transform.apply(model.snapshot())
        #expect(
            result.rows.map(\.id) == [
                .item(1), .item(2), .separator(before: 2, after: 3), .item(3), .item(4),
            ])
        #expect(result.rows[2].separator == "group 2.0")
        // The new page's two gaps: the one across the boundary and the one inside it.
        #expect(result.ruleCalls == 2)
        model.startReached = true
        model.endReached = true
        result = transform.apply(model.snapshot())
        #expect(result.rows.first?.separator == "top 1")
        #expect(result.rows.last?.separator == "end")
        #expect(result.ruleCalls == 2, "only the two ends are asked")
        #expect(result.change == ListChange(inserted: [0..<1, 6..<7]))
    }

    @Test("an empty list with both ends reached asks rule(nil, nil) once; empty pages are stepped over")
    func emptyList() {
        var model = PagedModel()
        var transform = SeparatorTransform(groupRule)
        model.append([])
        model.startReached = true
        model.endReached = true
        var result = transform.apply(model.snapshot())
        #expect(result.rows.map(\.separator) == ["empty"])
        #expect(result.ruleCalls == 1)
        model.append([Self.item(1, 1)])
        model.append([])
        model.append([Self.item(2, 2)])
        result = transform.apply(model.snapshot())
        #expect(
            sameRows(
                Array(result.rows),
                expectedRows(model.all, startReached: true, endReached: true, rule: groupRule)))
        #expect(result.rows.map(\.separator) == ["top 1", nil, "group 2.0", nil, "end"])
    }

    @Test("row and item indices map both ways")
    func indexMapping() {
        var model = PagedModel()
        var transform = SeparatorTransform(groupRule)
        model.startReached = true
        model.append([Self.item(1, 1), Self.item(2, 2), Self.item(3, 2)])
        model.append([])
        model.append([Self.item(4, 3), Self.item(5, 3)])
        let rows = transform.apply(model.snapshot()).rows
        let array = Array(rows)
        for (row, value) in array.enumerated() {
            if let item = value.item {
                let index = rows.itemIndex(forRow: row)
                #expect(index.map { rows.items[$0] } == item)
                #expect(index.map { rows.rowIndex(forItem: $0) } == row)
            } else {
                #expect(rows.itemIndex(forRow: row) == nil)
            }
        }
        #expect(rows.count == 8)
    }

    @Test("an edit asks only the two gaps beside the item; a removal only the gap it makes")
    func editsAskOnlyTheirGaps() {
        var model = PagedModel()
        var transform = SeparatorTransform(groupRule)
        model.append((1...4).map { Self.item($0, $0) })
        model.append((5...8).map { Self.item($0, $0) })
        _ = transform.apply(model.snapshot())
        var page = model.pages[0]
        page[1].label = 1
        model.replace(0, with: page, change: ListChange(updated: [1..<2]))
        var result = transform.apply(model.snapshot())
        #expect(result.ruleCalls == 2)
        // The separator above item 2 changed value (its label's parity); the one below did not.
        #expect(result.change == ListChange(updated: [1..<3]))
        page.remove(at: 2)
        model.replace(0, with: page, change: ListChange(removed: [2..<3]))
        let before = Array(transform.apply(model.snapshot()).rows)
        #expect(before.count == 13)
        page.insert(Self.item(9, 3), at: 1)
        model.replace(0, with: page, change: ListChange(inserted: [1..<2]))
        result = transform.apply(model.snapshot())
        #expect(result.ruleCalls == 2)
        var rows = before
        #expect(throws: Never.self) { try result.change.checkedApply(to: &rows, from: Array(result.rows)) }
    }

    @Test("a page dropped from the window and loaded again asks only the gaps of the page loaded")
    func windowScroll() {
        var model = PagedModel()
        var transform = SeparatorTransform(groupRule)
        var next = 0
        func page() -> [GroupedItem] {
            defer { next += 5 }
            return (next..<next + 5).map { Self.item($0, $0 / 3) }
        }
        for _ in 0..<3 { model.append(page()) }
        _ = transform.apply(model.snapshot())
        for _ in 0..<20 {
            model.append(page())
            var result = transform.apply(model.snapshot())
            #expect(result.ruleCalls == 5, "the page's five gaps, the one across the boundary included")
            model.drop(atEnd: false)
            result = transform.apply(model.snapshot())
            #expect(result.ruleCalls == 0, "a page dropped asks nothing")
        }
    }

    /// Random steps on a list of pages, each applied: after every step the rows are those the
    /// rule gives, the change leads from the rows before to them (by identity, and by content:
    /// every row whose separator or item changed is reported), and the rule was called exactly
    /// for the gaps that are new or next to an item inserted or updated.
    @Test("random loads, drops, edits, ends reached and skipped snapshots keep rows, change and calls exact")
    func randomSteps() throws {
        let seed = SeededGenerator.testSeed()
        print("SeparatorTransformTests seed \(seed); replay with PAGING_SEED=\(seed)")
        var random = SeededGenerator(seed: seed)
        for run in 0..<40 {
            var model = PagedModel()
            var transform = SeparatorTransform(groupRule)
            var nextID = 0
            func newItem() -> GroupedItem {
                defer { nextID += 1 }
                return Self.item(nextID, Int.random(in: 0..<(nextID / 3 + 2), using: &random))
            }
            var shown: [PagedRow<GroupedItem, String>] = []
            var shownItems: [GroupedItem] = []
            var shownStart = false
            var shownEnd = false
            for step in 0..<60 {
                var skipped = false
                switch Int.random(in: 0..<12, using: &random) {
                case 0, 1:
                    model.append((0..<Int.random(in: 0...4, using: &random)).map { _ in newItem() })
                case 2:
                    model.prepend((0..<Int.random(in: 0...4, using: &random)).map { _ in newItem() })
                case 3 where !model.pages.isEmpty:
                    model.drop(atEnd: Bool.random(using: &random))
                case 4...5 where !model.pages.isEmpty:
                    let ordinal = Int.random(in: 0..<model.pages.count, using: &random)
                    var page = model.pages[ordinal]
                    guard !page.isEmpty else { continue }
                    let updated = page.indices.filter { _ in Bool.random(using: &random) }
                    for index in updated {
                        page[index].label += 1
                        if Int.random(in: 0..<4, using: &random) == 0 { page[index].group += 1 }
                    }
                    model.replace(
                        ordinal, with: page, change: ListChange(updated: updated.map { $0..<$0 + 1 }))
                case 6 where !model.pages.isEmpty:
                    let ordinal = Int.random(in: 0..<model.pages.count, using: &random)
                    var page = model.pages[ordinal]
                    guard !page.isEmpty else { continue }
                    let removed = page.indices.filter { _ in Bool.random(using: &random) }
                    for index in removed.reversed() { page.remove(at: index) }
                    model.replace(
                        ordinal, with: page, change: ListChange(removed: removed.map { $0..<$0 + 1 }))
                case 7 where !model.pages.isEmpty:
                    let ordinal = Int.random(in: 0..<model.pages.count, using: &random)
                    var page = model.pages[ordinal]
                    var inserted: [Int] = []
                    for index in 0...page.count where Int.random(in: 0..<3, using: &random) == 0 {
                        inserted.append(index + inserted.count)
                    }
                    for index in inserted { page.insert(newItem(), at: index) }
                    model.replace(
                        ordinal, with: page, change: ListChange(inserted: inserted.map { $0..<$0 + 1 }))
                case 8 where !model.pages.isEmpty:
                    // A page reloaded: every item removed and inserted again, some the same.
                    let ordinal = Int.random(in: 0..<model.pages.count, using: &random)
                    let old = model.pages[ordinal]
                    var page = old.filter { _ in Bool.random(using: &random) }
                    page += (0..<Int.random(in: 0...2, using: &random)).map { _ in newItem() }
                    model.replace(
                        ordinal, with: page,
                        change: ListChange(
                            removed: old.isEmpty ? [] : [0..<old.count],
                            inserted: page.isEmpty ? [] : [0..<page.count]))
                case 9:
                    model.startReached.toggle()
                case 10:
                    model.endReached.toggle()
                default:
                    // A snapshot the transform does not see: the next one's change does not lead
                    // from the rows it made.
                    model.append([newItem()])
                    _ = model.snapshot()
                    model.append([newItem()])
                    skipped = true
                }
                let snapshot = model.snapshot()
                let result = transform.apply(snapshot)
                let items = model.all
                let rows = Array(result.rows)
                let expected = expectedRows(
                    items, startReached: model.startReached, endReached: model.endReached, rule: groupRule)
                let context = "seed \(seed), run \(run), step \(step)"
                #expect(sameRows(rows, expected), "\(context): \(rows.map(\.id)) != \(expected.map(\.id))")
                #expect(result.rows.items.count == items.count)
                for (row, value) in rows.enumerated() {
                    guard let index = result.rows.itemIndex(forRow: row) else {
                        #expect(value.item == nil, "\(context): row \(row)")
                        continue
                    }
                    #expect(result.rows.rowIndex(forItem: index) == row, "\(context): row \(row)")
                }
                var applied = shown
                do {
                    try result.change.checkedApply(to: &applied, from: rows)
                } catch {
                    Issue.record("\(context): the change \(result.change) does not fit: \(error)")
                }
                #expect(sameRows(applied, rows), "\(context): a changed row was not reported")
                if !skipped {
                    // Exactly the gaps that are new, or next to an item inserted or updated.
                    let oldGaps = gapIDs(shownItems, startReached: shownStart, endReached: shownEnd)
                    let fresh = Set(
                        (snapshot.change.inserted + snapshot.change.updated).flatMap { $0 }.map {
                            items[$0].id
                        })
                    let asked = gapIDs(items, startReached: model.startReached, endReached: model.endReached)
                        .filter { gap in
                            guard case .separator(let before, let after) = gap else { return false }
                            return !oldGaps.contains(gap) || before.map(fresh.contains) == true
                                || after.map(fresh.contains) == true
                        }
                    #expect(
                        result.ruleCalls == asked.count,
                        "\(context): \(result.ruleCalls) calls for \(asked.count) gaps")
                }
                shown = rows
                shownItems = items
                shownStart = model.startReached
                shownEnd = model.endReached
            }
        }
    }
}
