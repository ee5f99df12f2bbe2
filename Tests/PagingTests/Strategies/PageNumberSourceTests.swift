import Paging
import PagingTesting
import Testing

@Suite("PageNumberSource")
struct PageNumberSourceTests {
    typealias Source = PageNumberSource<TestItem>

    struct Fetch: Equatable, Sendable {
        var page: Int
        var perPage: Int
    }

    /// `GET /repos?page=&per_page=` over `0..<total`, numbering pages from
    /// `firstPage`, with or without the number of the last page (a
    /// `Link: rel="last"` header).
    final class Backend: Sendable {
        let total: Int
        let firstPage: Int
        let reportsLast: Bool
        let fetches = Recorder<Fetch>()

        init(total: Int, firstPage: Int = 1, reportsLast: Bool) {
            self.total = total
            self.firstPage = firstPage
            self.reportsLast = reportsLast
        }

        func repos(page: Int, perPage: Int) -> NumberedPage<TestItem> {
            fetches.record(Fetch(page: page, perPage: perPage))
            let start = (page - firstPage) * perPage
            let range = min(max(0, start), total)..<min(total, max(0, start + perPage))
            let pages = (total + perPage - 1) / perPage
            return NumberedPage(
                items: range.map { TestItem(id: $0) }, lastPage: reportsLast ? firstPage + pages - 1 : nil)
        }
    }

    @Test(
        "initial without a key asks for the first page, with a key for that page; neighbours ask for their number; the pager's count is ignored"
    )
    func requests() async throws {
        let backend = Backend(total: 100, reportsLast: true)
        let source = try Source(pageSize: 30) { backend.repos(page: $0, perPage: $1) }
        _ = try await source.load(PageRequest(.initial(nil), count: 10))
        _ = try await source.load(PageRequest(.initial(3), count: 10))
        _ = try await source.load(PageRequest(.initial(-2), count: 10))
        _ = try await source.load(PageRequest(.next(after: 2), count: 50))
        _ = try await source.load(PageRequest(.previous(before: 1), count: 50))
        #expect(
            backend.fetches.recorded == [
                Fetch(page: 1, perPage: 30), Fetch(page: 3, perPage: 30), Fetch(page: 1, perPage: 30),
                Fetch(page: 2, perPage: 30), Fetch(page: 1, perPage: 30),
            ])
    }

    @Test(
        "keys are the neighbouring page numbers: none before the first page, none after the last page reported"
    )
    func keysWithLastPage() async throws {
        let backend = Backend(total: 100, reportsLast: true)
        let source = try Source(pageSize: 30) { backend.repos(page: $0, perPage: $1) }
        let first = try await source.load(PageRequest(.initial(nil), count: 30))
        #expect(first.previousKey == nil)
        #expect(first.nextKey == 2)
        let middle = try await source.load(PageRequest(.initial(3), count: 30))
        #expect(middle.previousKey == 2)
        #expect(middle.nextKey == 4)
        let last = try await source.load(PageRequest(.next(after: 4), count: 30))
        #expect(last.items.map(\.id) == Array(90..<100))
        #expect(last.previousKey == 3)
        #expect(last.nextKey == nil)
    }

    @Test("without a last page, a short page is the last and a full one may have more")
    func keysWithoutLastPage() async throws {
        let backend = Backend(total: 60, reportsLast: false)
        let source = try Source(pageSize: 30) { backend.repos(page: $0, perPage: $1) }
        let full = try await source.load(PageRequest(.initial(2), count: 30))
        #expect(full.nextKey == 3)
        let empty = try await source.load(PageRequest(.next(after: 3), count: 30))
        #expect(empty.items.isEmpty)
        #expect(empty.nextKey == nil)
    }

    @Test("pages numbered from 0 have no page before 0")
    func zeroBased() async throws {
        let backend = Backend(total: 25, firstPage: 0, reportsLast: true)
        let source = try Source(pageSize: 10, firstPage: 0) { backend.repos(page: $0, perPage: $1) }
        let first = try await source.load(PageRequest(.initial(nil), count: 10))
        #expect(backend.fetches.recorded == [Fetch(page: 0, perPage: 10)])
        #expect(first.items.map(\.id) == Array(0..<10))
        #expect(first.previousKey == nil)
        #expect(first.nextKey == 1)
    }

    @Test("through a pager opened at page 3: both ends, every item once, in order", arguments: [true, false])
    func throughPager(reportsLast: Bool) async throws {
        let backend = Backend(total: 67, reportsLast: reportsLast)
        let pager = Pager(
            // Without the drift check (its requests are OffsetDriftTests'): the numbers as they are.
            source: try Source(pageSize: 10, driftCheck: .none) { backend.repos(page: $0, perPage: $1) },
            initialKey: 3,
            configuration: try .testing(pageSize: 10))
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.ids == Array(20..<30))
        while try await pager.loadNext().value == .loaded {}
        while try await pager.loadPrevious().value == .loaded {}
        #expect(pager.items.ids == Array(0..<67))
        #expect(!pager.hasNext && !pager.hasPrevious)
        #expect(backend.fetches.recorded.map(\.page) == [3, 4, 5, 6, 7, 2, 1])
    }
}
