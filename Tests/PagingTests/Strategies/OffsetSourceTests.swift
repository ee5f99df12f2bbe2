import Paging
import PagingTesting
import Testing

@Suite("OffsetSource")
struct OffsetSourceTests {
    typealias Source = OffsetSource<TestItem>

    struct Fetch: Equatable, Sendable {
        var offset: Int
        var limit: Int
    }

    /// `GET /items?offset=&limit=` over `0..<total`, with or without a total
    /// count in the response.
    final class Backend: Sendable {
        let total: Int
        let reportsTotal: Bool
        let fetches = Recorder<Fetch>()

        init(total: Int, reportsTotal: Bool) {
            self.total = total
            self.reportsTotal = reportsTotal
        }

        func items(offset: Int, limit: Int) -> OffsetPage<TestItem> {
            fetches.record(Fetch(offset: offset, limit: limit))
            let range = min(offset, total)..<min(total, offset + limit)
            return OffsetPage(items: range.map { TestItem(id: $0) }, totalCount: reportsTotal ? total : nil)
        }
    }

    /// The source under test; without the drift check, whose requests `OffsetDriftTests` tests:
    /// here the offsets asked are the keys as they are.
    func source(_ direction: PagingDirection, _ backend: Backend) -> Source {
        Source(direction, checksDrift: false) { backend.items(offset: $0, limit: $1) }
    }

    // MARK: Counts

    @Test("a page counts the items before it, and after it when the response has a total")
    func counts() async throws {
        let counted = Backend(total: 95, reportsTotal: true)
        let page = try await source(.bidirectional, counted).load(PageRequest(.initial(40), count: 20))
        #expect(page.itemsBefore == 40 && page.itemsAfter == 35)
        let last = try await source(.bidirectional, counted).load(PageRequest(.next(after: 90), count: 20))
        #expect(last.itemsBefore == 90 && last.itemsAfter == 0)
        let uncounted = Backend(total: 95, reportsTotal: false)
        let unknown = try await source(.forward, uncounted).load(PageRequest(.initial(40), count: 20))
        #expect(unknown.itemsBefore == 40 && unknown.itemsAfter == nil)
    }

    @Test("only a bidirectional source can jump; the key of a position is its offset")
    func jumps() {
        let backend = Backend(total: 10, reportsTotal: true)
        #expect(source(.bidirectional, backend).canJump)
        #expect(!source(.forward, backend).canJump && !source(.reverse, backend).canJump)
        #expect(source(.bidirectional, backend).key(forIndex: 900) == 900)
        #expect(source(.bidirectional, backend).key(forIndex: -3) == 0)
    }

    @Test("a transform that keeps the item count keeps the counts; a filter makes them unknown")
    func mapItemsCounts() {
        let page = Page<Int, Int>(
            items: [1, 2, 3], previousKey: 7, nextKey: 10, itemsBefore: 7, itemsAfter: -4)
        #expect(page.itemsAfter == 0)
        let mapped = page.mapItems { $0.map { $0 * 2 } }
        #expect(mapped.itemsBefore == 7 && mapped.itemsAfter == 0)
        let filtered = page.mapItems { $0.filter { $0 > 1 } }
        #expect(filtered.itemsBefore == nil && filtered.itemsAfter == nil && filtered.previousKey == 7)
    }

    // MARK: Requests

    @Test("forward: initial from 0 or from the initial offset (never below 0), next from the key")
    func forwardRequests() async throws {
        let backend = Backend(total: 100, reportsTotal: true)
        let source = source(.forward, backend)
        _ = try await source.load(PageRequest(.initial(nil), count: 20))
        _ = try await source.load(PageRequest(.initial(35), count: 20))
        _ = try await source.load(PageRequest(.initial(-4), count: 20))
        _ = try await source.load(PageRequest(.next(after: 40), count: 10))
        #expect(
            backend.fetches.recorded == [
                Fetch(offset: 0, limit: 20), Fetch(offset: 35, limit: 20), Fetch(offset: 0, limit: 20),
                Fetch(offset: 40, limit: 10),
            ])
    }

    @Test(
        "reverse: without a key it asks limit 0 for the total, then the last page; with a key, the page ending there"
    )
    func reverseRequests() async throws {
        let backend = Backend(total: 95, reportsTotal: true)
        let source = source(.reverse, backend)
        let last = try await source.load(PageRequest(.initial(nil), count: 20))
        #expect(backend.fetches.recorded == [Fetch(offset: 0, limit: 0), Fetch(offset: 75, limit: 20)])
        #expect(last.items.map(\.id) == Array(75..<95))
        _ = try await source.load(PageRequest(.initial(50), count: 20))
        _ = try await source.load(PageRequest(.previous(before: 30), count: 20))
        _ = try await source.load(PageRequest(.previous(before: 7), count: 20))
        #expect(
            backend.fetches.recorded.dropFirst(2) == [
                Fetch(offset: 30, limit: 20), Fetch(offset: 10, limit: 20), Fetch(offset: 0, limit: 7),
            ])
    }

    @Test(
        "bidirectional: initial at the offset, next from the end of a page, previous ending at the start of one"
    )
    func bidirectionalRequests() async throws {
        let backend = Backend(total: 100, reportsTotal: false)
        let source = source(.bidirectional, backend)
        _ = try await source.load(PageRequest(.initial(40), count: 10))
        _ = try await source.load(PageRequest(.next(after: 50), count: 10))
        _ = try await source.load(PageRequest(.previous(before: 40), count: 10))
        #expect(
            backend.fetches.recorded == [
                Fetch(offset: 40, limit: 10), Fetch(offset: 50, limit: 10), Fetch(offset: 30, limit: 10),
            ])
    }

    // MARK: Keys

    @Test("with a total count: the next key is the offset after the page until the total is reached")
    func keysWithTotal() {
        let source = source(.forward, Backend(total: 0, reportsTotal: true))
        let items = (20..<30).map { TestItem(id: $0) }
        let middle = source.page(from: OffsetPage(items: items, totalCount: 35), offset: 20, limit: 10)
        #expect(middle.nextKey == 30)
        #expect(middle.previousKey == nil)
        let end = source.page(from: OffsetPage(items: items, totalCount: 30), offset: 20, limit: 10)
        #expect(end.nextKey == nil)
    }

    @Test("without a total count: a short page is the last, a full one may have more")
    func keysWithoutTotal() {
        let source = source(.forward, Backend(total: 0, reportsTotal: false))
        let full = source.page(
            from: OffsetPage(items: (0..<10).map { TestItem(id: $0) }), offset: 0, limit: 10)
        #expect(full.nextKey == 10)
        let short = source.page(
            from: OffsetPage(items: (10..<13).map { TestItem(id: $0) }), offset: 10, limit: 10)
        #expect(short.nextKey == nil)
        let empty = source.page(from: OffsetPage<TestItem>(items: []), offset: 20, limit: 10)
        #expect(empty.nextKey == nil)
    }

    @Test("the previous key is the page's offset while above 0, for reverse and bidirectional sources only")
    func previousKeys() {
        let items = (30..<40).map { TestItem(id: $0) }
        let response = OffsetPage(items: items, totalCount: 100)
        #expect(
            source(.bidirectional, Backend(total: 0, reportsTotal: true)).page(
                from: response, offset: 30, limit: 10
            ).previousKey == 30)
        #expect(
            source(.reverse, Backend(total: 0, reportsTotal: true)).page(
                from: response, offset: 30, limit: 10
            ).previousKey == 30)
        #expect(
            source(.reverse, Backend(total: 0, reportsTotal: true)).page(
                from: response, offset: 30, limit: 10
            ).nextKey == nil)
        #expect(
            source(.forward, Backend(total: 0, reportsTotal: true)).page(
                from: response, offset: 30, limit: 10
            ).previousKey == nil)
        let first = OffsetPage(items: (0..<10).map { TestItem(id: $0) }, totalCount: 100)
        #expect(
            source(.bidirectional, Backend(total: 0, reportsTotal: true)).page(
                from: first, offset: 0, limit: 10
            ).previousKey == nil)
    }

    @Test("a reverse source opened without a key over an API with no total count fails with invalidArgument")
    func reverseWithoutTotal() async throws {
        let backend = Backend(total: 50, reportsTotal: false)
        let error = try #require(
            await #expect(throws: PagingError.self) {
                try await source(.reverse, backend).load(PageRequest(.initial(nil), count: 10))
            })
        #expect(error.code == .invalidArgument)
        #expect(error.description.contains("total count"))
        #expect(backend.fetches.recorded == [Fetch(offset: 0, limit: 0)])
    }

    // MARK: Through a pager

    @Test(
        "forward through a pager, with and without a total count: every item once, in order",
        arguments: [true, false])
    func forwardThroughPager(reportsTotal: Bool) async throws {
        let backend = Backend(total: 53, reportsTotal: reportsTotal)
        let pager = Pager(source: source(.forward, backend), configuration: try .testing())
        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.ids == Array(0..<53))
        #expect(backend.fetches.recorded.map(\.offset) == [0, 10, 20, 30, 40, 50])
    }

    @Test("without a total count, a list that ends on a full page costs one more, empty, request")
    func exactMultipleWithoutTotal() async throws {
        let backend = Backend(total: 30, reportsTotal: false)
        let pager = Pager(source: source(.forward, backend), configuration: try .testing())
        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.ids == Array(0..<30))
        #expect(backend.fetches.recorded.map(\.offset) == [0, 10, 20, 30])
    }

    @Test("reverse through a pager: the last page first, then back to offset 0")
    func reverseThroughPager() async throws {
        let backend = Backend(total: 47, reportsTotal: true)
        let pager = Pager(source: source(.reverse, backend), configuration: try .testing())
        #expect(try await pager.loadPrevious().value == .loaded)
        #expect(pager.items.ids == Array(37..<47))
        #expect(!pager.hasNext)
        while try await pager.loadPrevious().value == .loaded {}
        #expect(pager.items.ids == Array(0..<47))
        #expect(
            backend.fetches.recorded == [
                Fetch(offset: 0, limit: 0), Fetch(offset: 37, limit: 10), Fetch(offset: 27, limit: 10),
                Fetch(offset: 17, limit: 10), Fetch(offset: 7, limit: 10), Fetch(offset: 0, limit: 7),
            ])
    }

    @Test("bidirectional through a pager opened at offset 25: both ends, every item once, in order")
    func bidirectionalThroughPager() async throws {
        let backend = Backend(total: 61, reportsTotal: false)
        let pager = Pager(
            source: source(.bidirectional, backend), initialKey: 25, configuration: try .testing())
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.ids == Array(25..<35))
        while try await pager.loadPrevious().value == .loaded {}
        while try await pager.loadNext().value == .loaded {}
        #expect(pager.items.ids == Array(0..<61))
        #expect(!pager.hasNext && !pager.hasPrevious)
    }
}
