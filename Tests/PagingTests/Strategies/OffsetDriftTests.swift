import PagingLock
import PagingTesting
import Testing

@testable import Paging

/// An offset source's drift check through a pager, case by case: the requests it makes, and the
/// page and report when the list moved above the next offset.
@Suite("OffsetSource drift")
struct OffsetDriftTests {
    struct Fetch: Equatable, Sendable {
        var offset: Int
        var limit: Int
    }

    /// `GET /items?offset=&limit=` over a list the test changes.
    final class Backend: Sendable {
        let items: Lock<[TestItem]>
        let fetches = Recorder<Fetch>()

        init(count: Int) { items = Lock((0..<count).map { TestItem(id: $0) }) }

        func fetch(_ offset: Int, _ limit: Int) -> OffsetPage<TestItem> {
            fetches.record(Fetch(offset: offset, limit: limit))
            return items.withLock { items in
                OffsetPage(items: Array(items[min(offset, items.count)..<min(items.count, offset + limit)]))
            }
        }
    }

    private func pager(_ backend: Backend, checksDrift: Bool = true) throws -> Pager<Int, TestItem> {
        Pager(
            source: OffsetSource<TestItem>(.forward, checksDrift: checksDrift) { backend.fetch($0, $1) },
            configuration: try .testing(pageSize: 10))
    }

    @Test(
        "each next page is asked with the last held item as overlap; a list that held still reports nothing")
    func overlap() async throws {
        let backend = Backend(count: 100)
        let pager = try pager(backend)
        for _ in 0..<3 { _ = try await pager.loadNext().value }
        // Each page after the first brings one item less: the overlap is one of its ten.
        #expect(pager.items.ids == Array(0..<28))
        #expect(
            backend.fetches.recorded == [
                Fetch(offset: 0, limit: 10), Fetch(offset: 9, limit: 10), Fetch(offset: 18, limit: 10),
            ])
        #expect(pager.snapshot.drift == nil)
        #expect(pager.snapshot.driftCount == 0)
    }

    @Test(
        "an item removed above: the next page starts right after the last held item, and the drift is reported"
    )
    func removedAbove() async throws {
        let backend = Backend(count: 100)
        let pager = try pager(backend)
        for _ in 0..<2 { _ = try await pager.loadNext().value }
        backend.items.withLock { $0.removeAll { $0.id == 5 } }
        let fetched = backend.fetches.recorded.count
        _ = try await pager.loadNext().value
        #expect(pager.items.ids == Array(0..<24), "item 19 was skipped, or one repeated")
        #expect(pager.snapshot.drift == PageDrift(direction: .next, shift: -1, resynchronized: true))
        #expect(pager.snapshot.driftCount == 1)
        // The overlap, then one wider request around it.
        #expect(backend.fetches.recorded.count == fetched + 2)
        // The next page goes on from the fresh offsets, with no drift.
        _ = try await pager.loadNext().value
        #expect(pager.items.ids == Array(0..<33))
        #expect(pager.snapshot.drift == nil)
        #expect(backend.fetches.recorded.last == Fetch(offset: 22, limit: 10))
        // No request asks more than a page: an API that caps its limit at the page size serves them.
        #expect(backend.fetches.recorded.allSatisfy { $0.limit <= 10 })
    }

    @Test("items added above, and the last held item removed: nothing repeated, nothing skipped")
    func addedAboveAndLastRemoved() async throws {
        let backend = Backend(count: 100)
        let pager = try pager(backend)
        for _ in 0..<2 { _ = try await pager.loadNext().value }
        backend.items.withLock { items in
            items.insert(contentsOf: [TestItem(id: 500), TestItem(id: 501)], at: 3)
        }
        _ = try await pager.loadNext().value
        #expect(pager.items.ids == Array(0..<21))
        #expect(pager.snapshot.drift?.shift == 2)
        #expect(pager.snapshot.duplicatesDropped == 0)

        backend.items.withLock { $0.removeAll { $0.id == 20 } }
        _ = try await pager.loadNext().value
        #expect(
            pager.items.ids == Array(0..<26),
            "item 21, right after the removed one, was skipped (20 stays held: removed on the server only)")
        #expect(pager.snapshot.drift?.shift == -1)
        #expect(pager.snapshot.driftCount == 2)
    }

    @Test(
        "items added above and among the last held ones: the page starts after the last held item, past the window that showed an earlier one"
    )
    func lastHeldPastTheWindow() async throws {
        let backend = Backend(count: 100)
        let pager = try pager(backend)
        for _ in 0..<2 { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array(0..<19))
        // Three added above, three between 16 and 17: 16 ends the window around the old offset
        // (13 to 22), which shows new items after it; 17 and 18, the last held, are past it.
        backend.items.withLock { items in
            items.insert(contentsOf: [500, 501, 502].map { TestItem(id: $0) }, at: 0)
            items.insert(contentsOf: [503, 504, 505].map { TestItem(id: $0) }, at: 20)
        }
        let fetched = backend.fetches.recorded.count
        _ = try await pager.loadNext().value
        #expect(
            pager.items.ids == Array(0..<20),
            "the items between 16 and 17 are not put after 18, and the page goes on after 18")
        #expect(pager.snapshot.drift == PageDrift(direction: .next, shift: 6, resynchronized: true))
        // The overlap, the window around it, and one more window where the last held would be.
        #expect(backend.fetches.recorded.count == fetched + 3)
        _ = try await pager.loadNext().value
        #expect(pager.items.ids == Array(0..<29))
        #expect(pager.snapshot.drift == nil)
        #expect(backend.fetches.recorded.allSatisfy { $0.limit <= 10 })
    }

    @Test(
        "read backward, items removed above and added among the first held ones: the page ends before the first held item, past the window that showed a later one"
    )
    func firstHeldPastTheWindow() async throws {
        let backend = Backend(count: 100)
        let pager = Pager(
            source: OffsetSource<TestItem>(.reverse) { backend.fetch($0, $1) }, initialKey: 100,
            configuration: try .testing(pageSize: 10))
        for _ in 0..<2 { _ = try await pager.loadPrevious().value }
        #expect(pager.items.ids == Array(81..<100))
        // Seven removed above, three added between 82 and 83: 83 starts the window around the old
        // offset (76 to 85), which shows new items before it; 81 and 82, the first held, are
        // before it.
        backend.items.withLock { items in
            items.removeSubrange(0..<7)
            items.insert(contentsOf: [503, 504, 505].map { TestItem(id: $0) }, at: 76)
        }
        let fetched = backend.fetches.recorded.count
        _ = try await pager.loadPrevious().value
        #expect(
            pager.items.ids == Array(79..<100),
            "the items between 82 and 83 are not put before 81, and the page ends at 81")
        #expect(pager.snapshot.drift == PageDrift(direction: .previous, shift: -7, resynchronized: true))
        #expect(backend.fetches.recorded.count == fetched + 3)
        #expect(backend.fetches.recorded.allSatisfy { $0.limit <= 10 })
    }

    @Test(
        "without the check (checksDrift: false), the pages asked are the offsets, and an item removed above is skipped"
    )
    func optedOut() async throws {
        let backend = Backend(count: 100)
        let pager = try pager(backend, checksDrift: false)
        for _ in 0..<2 { _ = try await pager.loadNext().value }
        backend.items.withLock { $0.removeAll { $0.id == 5 } }
        _ = try await pager.loadNext().value
        #expect(backend.fetches.recorded == [0, 10, 20].map { Fetch(offset: $0, limit: 10) })
        #expect(!pager.items.ids.contains(20), "today's behaviour without the check: 20 is skipped")
        #expect(pager.snapshot.drift == nil)
    }

    @Test("a transform in between (map) does not check: its items are not the base's")
    func transformed() async throws {
        let backend = Backend(count: 100)
        let source = OffsetSource<TestItem>(.forward) { backend.fetch($0, $1) }.map {
            TestItem(id: $0.id * 2)
        }
        let pager = Pager(source: source, configuration: try .testing(pageSize: 10))
        for _ in 0..<2 { _ = try await pager.loadNext().value }
        #expect(backend.fetches.recorded == [0, 10].map { Fetch(offset: $0, limit: 10) })
    }

    @Test("PagedList shows the last drift and how many were found")
    @MainActor
    func pagedList() async throws {
        let backend = Backend(count: 100)
        let list = PagedList(pager: try pager(backend))
        _ = try await list.loadNext().value
        backend.items.withLock { $0.removeAll { $0.id == 2 } }
        _ = try await list.loadNext().value
        #expect(list.lastDrift == PageDrift(direction: .next, shift: -1, resynchronized: true))
        #expect(list.driftCount == 1)
        #expect(list.items.ids == Array(0..<15))
    }

    @Test(
        "a page that reports a drift may name the key it was asked with if it brings a new item; with none, it is a repeated key, not a loop"
    )
    func driftedPageNamingItsOwnKey() async throws {
        // Page 1 holds 0…9 (next key 10); then every page reports a drift and names key 10 again,
        // first with a new item, then with held items only.
        let calls = Lock(0)
        let source = ClosurePageSource<Int, TestItem> { request in
            let call = calls.withLock { calls in
                calls += 1
                return calls
            }
            guard case .next = request.position else {
                return Page(items: (0..<10).map { TestItem(id: $0) }, nextKey: 10)
            }
            var page = Page<Int, TestItem>(items: [TestItem(id: call == 2 ? 100 : 9)], nextKey: 10)
            page.drift = PageDrift(direction: .next, shift: -1, resynchronized: true)
            return page
        }
        let pager = Pager(source: source, configuration: try .testing(pageSize: 10))
        _ = try await pager.loadNext().value
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.ids == Array(0..<10) + [100])
        await #expect(throws: PagingError.self) { try await pager.loadNext().value }
        #expect(pager.loadStates.next.error?.code == .repeatedKey)
    }

    /// Numbered pages (from 1) of a list the test changes.
    private static func numberedSource(_ items: Lock<[TestItem]>, size: Int) throws -> PageNumberSource<
        TestItem
    > {
        try PageNumberSource<TestItem>(pageSize: size) { number, perPage in
            items.withLock { items in
                let start = min((number - 1) * perPage, items.count)
                return NumberedPage(items: Array(items[start..<min(items.count, start + perPage)]))
            }
        }
    }

    @Test("page numbers: many added above, past a page: the pages moved on to count in the shift")
    func pageNumbersMovedOn() async throws {
        let items = Lock((0..<40).map { TestItem(id: $0) })
        let pager = Pager(
            source: try Self.numberedSource(items, size: 5), configuration: try .testing(pageSize: 5))
        for _ in 0..<2 { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array(0..<10))
        items.withLock { $0.insert(contentsOf: (100..<107).map { TestItem(id: $0) }, at: 0) }
        _ = try await pager.loadNext().value
        #expect(pager.items.ids == Array(0..<13))
        #expect(pager.snapshot.drift == PageDrift(direction: .next, shift: 7, resynchronized: true))
    }

    @Test(
        "page numbers: the page before empty (more removed than it held): the drift is reported, not resynchronized"
    )
    func pageNumbersPageBeforeEmpty() async throws {
        let items = Lock((0..<41).map { TestItem(id: $0) })
        let pager = Pager(
            source: try Self.numberedSource(items, size: 20), configuration: try .testing(pageSize: 20))
        for _ in 0..<2 { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array(0..<40))
        items.withLock { $0.removeFirst(21) }
        _ = try await pager.loadNext().value
        #expect(pager.snapshot.drift == PageDrift(direction: .next, shift: nil, resynchronized: false))
    }

    @Test("the check is on by default for identifiable items, and off for others")
    func onByDefault() async throws {
        let backend = Backend(count: 100)
        let pager = Pager(
            source: OffsetSource<TestItem> { backend.fetch($0, $1) },
            configuration: try .testing(pageSize: 10))
        for _ in 0..<2 { _ = try await pager.loadNext().value }
        #expect(backend.fetches.recorded == [Fetch(offset: 0, limit: 10), Fetch(offset: 9, limit: 10)])
        #expect(OffsetSource<TestItem> { _, _ in OffsetPage(items: []) }.checksHeldItems)
        #expect(!OffsetSource<Int> { _, _ in OffsetPage(items: []) }.checksHeldItems)
        #expect(
            try PageNumberSource<TestItem>(pageSize: 10) { _, _ in NumberedPage(items: []) }.driftCheck
                == .previousPage)
        #expect(
            try PageNumberSource<Int>(pageSize: 10) { _, _ in NumberedPage(items: []) }.driftCheck == .none)
    }
}
