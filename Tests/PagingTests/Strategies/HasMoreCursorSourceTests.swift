import Paging
import PagingTesting
import Testing

@Suite("HasMoreCursorSource")
struct HasMoreCursorSourceTests {
    typealias Source = HasMoreCursorSource<String, TestItem>

    struct Fetch: Equatable, Sendable {
        var pageSize: Int
        var after: String?
    }

    /// A `launches(pageSize:after:)` over `0..<total` in the shape of the
    /// tutorial's server: the cursor is the last item's, and `hasMore` says
    /// whether that item is not the list's last.
    final class Backend: Sendable {
        let total: Int
        let fetches = Recorder<Fetch>()

        init(total: Int) { self.total = total }

        func launches(pageSize: Int, after cursor: String?) -> HasMorePage<String, TestItem> {
            fetches.record(Fetch(pageSize: pageSize, after: cursor))
            let start = cursor.flatMap { Int($0.dropFirst("after-".count)) }.map { $0 + 1 } ?? 0
            let page = (start..<min(total, start + pageSize)).map { TestItem(id: $0) }
            let cursor = page.last.map { "after-\($0.id)" }
            return HasMorePage(items: page, cursor: cursor, hasMore: (page.last?.id ?? total - 1) < total - 1)
        }
    }

    @Test(
        "initial without a cursor, initial at a cursor and next after a cursor each fetch pageSize items after it"
    )
    func requests() async throws {
        let backend = Backend(total: 100)
        let source = Source { backend.launches(pageSize: $0, after: $1) }
        _ = try await source.load(PageRequest(.initial(nil), count: 20))
        _ = try await source.load(PageRequest(.initial("after-41"), count: 7))
        _ = try await source.load(PageRequest(.next(after: "after-19"), count: 20))
        #expect(
            backend.fetches.recorded == [
                Fetch(pageSize: 20, after: nil), Fetch(pageSize: 7, after: "after-41"),
                Fetch(pageSize: 20, after: "after-19"),
            ])
    }

    @Test(
        "the next key is the cursor while hasMore, nil once hasMore is false, no previous key, and hasMore without a cursor is an error"
    )
    func keys() throws {
        let items = [TestItem(id: 1), TestItem(id: 2)]
        let more = try Source.page(from: HasMorePage(items: items, cursor: "c2", hasMore: true))
        #expect(more.items == items)
        #expect(more.nextKey == "c2")
        #expect(more.previousKey == nil)
        let last = try Source.page(from: HasMorePage(items: items, cursor: "c2", hasMore: false))
        #expect(last.nextKey == nil)
        #expect(last.previousKey == nil)
        // An empty last page (the tutorial's server answers so past the end).
        let empty = try Source.page(
            from: HasMorePage<String, TestItem>(items: [], cursor: nil, hasMore: false))
        #expect(empty.items.isEmpty && empty.nextKey == nil)
        // More promised but nowhere to load it from: a backend bug, reported.
        let error = try #require(throws: PagingError.self) {
            try Source.page(from: HasMorePage<String, TestItem>(items: items, cursor: nil, hasMore: true))
        }
        #expect(error.code == .invalidPage)
        #expect(
            error.description
                == "invalid page: the page says hasMore is true but has no cursor to load more from")
    }

    @Test("a previous page is refused with invalidArgument, without a fetch")
    func previousIsRefused() async throws {
        let fetches = Counter()
        let source = Source { _, _ in
            fetches.increment()
            return HasMorePage(items: [], cursor: nil, hasMore: false)
        }
        let error = try #require(
            await #expect(throws: PagingError.self) {
                try await source.load(PageRequest(.previous(before: "c10"), count: 10))
            })
        #expect(error.code == .invalidArgument)
        #expect(error.description.contains("forward only"))
        #expect(fetches.count == 0)
    }

    @Test(
        "through a pager: pages until hasMore is false, every item once and in order, each fetch after the last cursor"
    )
    func throughPager() async throws {
        let backend = Backend(total: 45)
        let pager = Pager(
            source: Source { backend.launches(pageSize: $0, after: $1) },
            configuration: try .testing(pageSize: 10))
        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.ids == Array(0..<45))
        #expect(!pager.hasNext && !pager.hasPrevious)
        #expect(
            backend.fetches.recorded.map(\.after) == [nil, "after-9", "after-19", "after-29", "after-39"])
        #expect(try await pager.loadNext().value == .endReached)
        #expect(backend.fetches.count == 5)
    }
}
