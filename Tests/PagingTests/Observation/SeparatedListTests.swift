import PagingLock
import PagingTesting
import Testing

@testable import Paging

/// ``SeparatedList``: a ``PagedList``'s rows with separators, following the list.
@MainActor
@Suite("SeparatedList")
struct SeparatedListTests {
    /// A header above each group of ten ids, "top" and "end" at the ends reached.
    static let rule: SeparatorRule<TestItem, String> = { before, after in
        switch (before, after) {
        case (nil, nil): "empty"
        case (nil, let after?): "top \(after.id / 10)"
        case (_?, nil): "end"
        case (let before?, let after?):
            before.id / 10 == after.id / 10 ? nil : "\(after.id / 10).\(after.version)"
        }
    }

    let numbers = NumberList(total: 35)

    func makeList(maximumHeld: PagingConfiguration.HeldLimit? = nil, prefetchDistance: Int = 0) throws
        -> PagedList<Int, TestItem>
    {
        let numbers = self.numbers
        return PagedList(
            source: ClosurePageSource { request in numbers.page(for: request) },
            configuration: try .testing(
                pageSize: 7, prefetchDistance: prefetchDistance, maximumHeld: maximumHeld))
    }

    /// The rows the list shows, made the obvious way.
    func expected(_ list: PagedList<Int, TestItem>) -> [PagedRow<TestItem, String>] {
        expectedRows(
            Array(list.items), startReached: !list.hasPrevious, endReached: !list.hasNext, rule: Self.rule)
    }

    @Test("rows follow loads to the end, and takeChange leads from the rows taken before")
    func followsLoads() async throws {
        let list = try makeList()
        let separated = list.separated(by: Self.rule)
        #expect(separated.rows.isEmpty)
        var rows: [PagedRow<TestItem, String>] = []
        while list.hasNext {
            _ = try await list.loadNext().value
            let change = try #require(separated.takeChange())
            try change.checkedApply(to: &rows, from: Array(separated.rows))
            #expect(sameRows(rows, Array(separated.rows)))
            #expect(sameRows(Array(separated.rows), expected(list)))
            #expect(separated.version == list.version)
        }
        #expect(rows.last?.separator == "end")
        #expect(rows.first?.separator == "top 0")
        #expect(rows.compactMap(\.separator) == ["top 0", "1.0", "2.0", "3.0", "end"])
    }

    @Test("an edit that changes a separator updates that row, and change(since:) merges what came after")
    func editsAndHistory() async throws {
        let list = try makeList()
        let separated = list.separated(by: Self.rule)
        _ = try await list.loadNext().value
        _ = try await list.loadNext().value
        let before = Array(separated.rows)
        let version = separated.version
        // Item 10 starts group 1: its separator's value follows its version.
        list.update(TestItem(id: 10, version: 1))
        await list.waitUntilCaughtUp()
        let row = try #require(separated.rows.firstIndex { $0.id == .separator(before: 9, after: 10) })
        #expect(separated.rows[row].separator == "1.1")
        var rows = before
        let change = try #require(separated.change(since: version))
        try change.checkedApply(to: &rows, from: Array(separated.rows))
        #expect(sameRows(rows, Array(separated.rows)))
        #expect(change.updated.contains { $0.contains(row) }, "\(change)")
    }

    @Test("a window that drops pages drops their rows; a row shown prefetches like its item")
    func windowAndPrefetch() async throws {
        let list = try makeList(maximumHeld: .pages(2), prefetchDistance: 1)
        let separated = list.separated(by: Self.rule)
        var rows: [PagedRow<TestItem, String>] = []
        for _ in 0..<4 {
            _ = try await list.loadNext().value
            try #require(separated.takeChange()).checkedApply(to: &rows, from: Array(separated.rows))
            #expect(sameRows(rows, expected(list)))
        }
        #expect(list.items.count == 14)
        #expect(!rows.contains { $0.separator?.hasPrefix("top") == true }, "the start is not held")
        // A separator row stands for the item below it: the header above item 20, in the middle
        // of the fourteen held, asks for nothing.
        let header = try #require(separated.rows.firstIndex { $0.separator != nil })
        separated.rowAppeared(at: header)
        #expect(list.pager.requestsStarted == 4)
        // The last row reported shown asks for the next page, as its item would.
        separated.rowAppeared(at: separated.rows.count - 1)
        #expect(list.pager.requestsStarted == 5)
        await list.pager.waitUntilResponsesTaken(5)
        await list.waitUntilCaughtUp()
        try #require(separated.takeChange()).checkedApply(to: &rows, from: Array(separated.rows))
        #expect(sameRows(rows, expected(list)))
        #expect(list.items.first?.id == 21 && list.items.count == 14 && !list.hasNext)
    }

    @Test(
        "a refresh with new data replaces the separators it changes; one turn's snapshots merge into lastChange"
    )
    func refreshAndTurns() async throws {
        // The server's list: its items' versions change between the two loads.
        let server = Lock(NumberList(total: 35))
        let list = PagedList(
            source: ClosurePageSource { request in server.withLock { $0.page(for: request) } },
            configuration: try .testing(pageSize: 7))
        let separated = list.separated(by: Self.rule)
        _ = try await list.loadNext().value
        _ = try await list.loadNext().value
        var rows: [PagedRow<TestItem, String>] = []
        try #require(separated.takeChange()).checkedApply(to: &rows, from: Array(separated.rows))
        #expect(rows.compactMap(\.separator) == ["top 0", "1.0"])

        server.withLock { $0.version = 1 }
        _ = try await list.refresh().value
        #expect(sameRows(Array(separated.rows), expected(list)))
        #expect(separated.rows.compactMap(\.separator) == ["top 0"], "a restart shows the first page alone")
        #expect(separated.rows.allSatisfy { $0.item.map { $0.version == 1 } ?? true })
        try #require(separated.takeChange()).checkedApply(to: &rows, from: Array(separated.rows))
        #expect(sameRows(rows, Array(separated.rows)))

        // Two edits in one main-actor job: lastChange leads from the rows before the first.
        let before = Array(separated.rows)
        list.update(TestItem(id: 3, version: 2))
        list.update(TestItem(id: 0, version: 2))
        var merged = before
        try separated.lastChange.checkedApply(to: &merged, from: Array(separated.rows))
        #expect(sameRows(merged, Array(separated.rows)))
        #expect(separated.rows.compactMap(\.item?.version).prefix(4) == [2, 1, 1, 2])
    }

    @Test("a separated list dropped stops following; the list goes on")
    func dropped() async throws {
        let list = try makeList()
        weak var dropped: SeparatedList<Int, TestItem, String>?
        do {
            let separated = list.separated(by: Self.rule)
            dropped = separated
            _ = try await list.loadNext().value
            #expect(separated.rows.count == 8)
        }
        #expect(dropped == nil)
        #expect(list.onShow.count == 1)
        _ = try await list.loadNext().value
        #expect(list.items.count == 14)
        #expect(list.onShow.isEmpty, "the list keeps calling a follower that is gone")
    }
}
