import PagingTestSupport
import PagingTesting
import Testing

@testable import Paging

/// ``PagedList`` with placeholders: it presents the whole list, its changes index the presented
/// rows, and it takes presented positions.
@MainActor
@Suite("PagedList, placeholders", .timeLimit(.minutes(HangLimit.minutes(1))))
struct PagedListPlaceholderTests {
    @Test("presented rows, their changes turn by turn, a placeholder shown, a jump and the anchor")
    func presentedList() async throws {
        let backend = PagerPlaceholderTests.Backend(total: 300)
        let list = PagedList(
            source: backend.source(),
            configuration: try PagingConfiguration(
                pageSize: 10, prefetchDistance: 2, maximumHeld: .pages(4), placeholders: true,
                jumpThreshold: 40))
        var rows: [TestItem?] = []
        func follow() throws {
            let change = try #require(list.takeChange())
            try change.checkedApply(to: &rows, from: list.presented)
            #expect(rows.map { $0?.id } == list.presented.map { $0?.id })
        }
        _ = try await list.loadNext().value
        try follow()
        #expect(list.presented.count == 300 && list.items.count == 10)
        #expect(rows.count == 300 && rows[9]?.id == 9 && rows[10] == nil)
        // A placeholder within the threshold: the pages up to it load, all as rows updated.
        list.itemAppeared(at: 30)
        while list.presented[30] == nil || list.pager.requestsStarted != backend.requests.count {
            await list.pager.waitUntilResponsesTaken(list.pager.requestsStarted)
            await list.waitUntilCaughtUp()
        }
        let versionBefore = list.version
        try follow()
        #expect(list.presented[30]?.id == 30 && list.presented.count == 300)
        let change = try #require(list.change(since: versionBefore))
        #expect(change.isEmpty)
        #expect(list.anchor == nil)  // a placeholder shown is not an item shown
        // Far away: one jump, and the rows stay 300.
        let before = backend.requests.count
        _ = try await list.jump(to: 250).value
        try follow()
        #expect(backend.requests.count == before + 1)
        #expect(list.presented[250]?.id == 250 && list.presented[30] == nil && list.presented.count == 300)
        #expect(list.lastChange.inserted.isEmpty && list.lastChange.removed.isEmpty)
        list.itemAppeared(at: 251)
        #expect(list.anchor == 251)
        list.itemAppeared(at: 240)  // a placeholder near the items: it loads, and the anchor stays
        #expect(list.anchor == 251)
        while list.presented[240] == nil {
            await list.pager.waitUntilResponsesTaken(list.pager.requestsStarted)
            await list.waitUntilCaughtUp()
        }
        try follow()
        #expect(list.anchor == 251 && list.presented.count == 300)
    }

    @Test("a separated list over a list with placeholders reports rows at their items' positions")
    func separatedRows() async throws {
        let backend = PagerPlaceholderTests.Backend(total: 300)
        let list = PagedList(
            source: backend.source(), initialKey: 100,
            configuration: try PagingConfiguration(
                pageSize: 10, prefetchDistance: 2, placeholders: true, jumpThreshold: 40))
        let separated = list.separated { (before: TestItem?, after: TestItem?) -> Int? in
            guard let after else { return nil }
            return before.map { $0.id / 5 } == after.id / 5 ? nil : after.id / 5
        }
        _ = try await list.loadNext().value
        #expect(list.presented.heldRange == 100..<110)
        // The last row: item 109, held index 9, position 109: the next page loads (not a jump to 9).
        separated.rowAppeared(at: separated.rows.count - 1)
        await list.pager.waitUntilResponsesTaken(list.pager.requestsStarted)
        await list.waitUntilCaughtUp()
        #expect(backend.requests.map(\.offset) == [100, 110])
        #expect(list.presented.heldRange == 100..<120)
    }
}
