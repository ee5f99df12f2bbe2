import PagingTesting
import Testing

@testable import Paging

@Suite("Pager local edits and deduplication")
struct PagerEditTests {
    let list = NumberList(total: 30)

    func loadedPager() async throws -> Pager<Int, TestItem> {
        let pager = Pager(source: list.source, configuration: try .testing())
        _ = try await pager.loadNext().value
        _ = try await pager.loadNext().value
        return pager
    }

    @Test("update replaces the item with the same id at once, as one updated change")
    func update() async throws {
        let pager = try await loadedPager()
        #expect(pager.update(TestItem(id: 12, version: 7)))
        #expect(pager.items[12] == TestItem(id: 12, version: 7))
        #expect(pager.snapshot.change == ListChange(updated: [12..<13]))
        #expect(!pager.update(TestItem(id: 99)))
    }

    @Test("insert places an item first, last, before or after an id, and refuses a held id")
    func insert() async throws {
        let pager = try await loadedPager()
        #expect(pager.insert(TestItem(id: 100), at: .first))
        #expect(pager.insert(TestItem(id: 101), at: .last))
        #expect(pager.insert(TestItem(id: 102), at: .before(10)))
        #expect(pager.insert(TestItem(id: 103), at: .after(10)))
        #expect(pager.snapshot.change == ListChange(inserted: [13..<14]))
        #expect(!pager.insert(TestItem(id: 5), at: .first))
        #expect(!pager.insert(TestItem(id: 104), at: .after(999)))
        #expect(pager.items.ids == [100] + Array(0..<10) + [102, 10, 103] + Array(11..<20) + [101])
        #expect(pager.index(of: 103) == 13)
    }

    @Test("insert before anything is loaded does nothing")
    func insertIntoEmpty() throws {
        let pager = Pager(source: list.source, configuration: try .testing())
        #expect(!pager.insert(TestItem(id: 1), at: .first))
        #expect(pager.items.isEmpty)
    }

    @Test("remove takes the item out at once and returns it; the id may come back later")
    func remove() async throws {
        let pager = try await loadedPager()
        #expect(pager.remove(id: 15) == TestItem(id: 15))
        #expect(pager.snapshot.change == ListChange(removed: [15..<16]))
        #expect(pager.remove(id: 15) == nil)
        #expect(!pager.items.ids.contains(15))
        #expect(pager.insert(TestItem(id: 15), at: .after(14)))
        #expect(pager.items.ids == Array(0..<20))
    }

    @Test(
        "an item removed while a page that holds it is in flight stays out when it lands, held or not; a later page may bring it back"
    )
    func removedWhileAPageIsInFlight() async throws {
        let source = ScriptedSource<Int, TestItem>()
        let pager = Pager(source: source, configuration: try .testing(pageSize: 3))
        let first = pager.loadNext()
        await source.nextCall().succeed(with: Page(items: [1, 2, 3].map { TestItem(id: $0) }, nextKey: 3))
        _ = try await first.value
        let next = pager.loadNext()
        let call = await source.nextCall()
        // The server answered before the deletions: 3 again (an overlap, once held) and 4.
        #expect(pager.remove(id: 3) == TestItem(id: 3))
        #expect(pager.apply([.remove(id: 4)]) == [.notHeld])
        // A conditional removal of an item not held is no deletion: 5 stays.
        #expect(pager.apply([.remove(id: 5, if: .version(-1))]) == [.notHeld])
        call.succeed(with: Page(items: [3, 4, 5, 6].map { TestItem(id: $0) }, nextKey: 7))
        _ = try await next.value
        #expect(pager.items.ids == [1, 2, 5, 6])
        // A page asked for after the removal is the server's word: 4 comes back.
        let later = pager.refresh()
        await source.nextCall().succeed(with: Page(items: [1, 2, 4].map { TestItem(id: $0) }, nextKey: 5))
        _ = try await later.value
        #expect(pager.items.ids == [1, 2, 4])
    }

    @Test("items that come back on a later page are dropped and counted in the snapshot")
    func deduplicatesAcrossPages() async throws {
        // A feed where each page overlaps the one before by three items.
        let source = ClosurePageSource<Int, TestItem> { request in
            let start = request.key ?? 0
            let ids = Array(max(0, start - 3)..<min(30, start + 10))
            return Page(items: ids.map { TestItem(id: $0) }, nextKey: start + 10 < 30 ? start + 10 : nil)
        }
        let pager = Pager(source: source, configuration: try .testing())
        var iterator = pager.snapshots.makeAsyncIterator()
        _ = try await pager.loadAll()
        #expect(pager.items.ids == Array(0..<30))
        var duplicates: [Int] = []
        while let snapshot = await iterator.next() {
            if !snapshot.change.inserted.isEmpty { duplicates.append(snapshot.duplicatesDropped) }
            if snapshot.loadStates.next == .endReached { break }
        }
        #expect(duplicates == [0, 3, 3])
    }

    @Test("edits leave earlier snapshots untouched")
    func snapshotsAreValues() async throws {
        let pager = try await loadedPager()
        let before = pager.snapshot
        pager.update(TestItem(id: 0, version: 1))
        pager.remove(id: 1)
        #expect(before.items.ids == Array(0..<20))
        #expect(before.items[0].version == 0)
        #expect(pager.items.ids == [0] + Array(2..<20))
    }
}
