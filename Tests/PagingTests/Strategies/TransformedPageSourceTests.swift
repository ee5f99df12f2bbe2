import Paging
import PagingTesting
import Testing

@Suite("TransformedPageSource")
struct TransformedPageSourceTests {
    /// A row made from a test item.
    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var title: String
    }

    struct TransformFailure: Error, Equatable {}

    let list = NumberList(total: 50)

    @Test("map runs once per item as each page loads, never again over pages already held")
    func mapOncePerPage() async throws {
        let calls = Counter()
        let source = list.source.map { item in
            calls.increment()
            return Row(id: item.id, title: "#\(item.id)")
        }
        let pager = Pager(source: source, configuration: try .testing())
        for loaded in 1...5 {
            #expect(try await pager.loadNext().value == .loaded)
            #expect(calls.count == loaded * 10)
        }
        #expect(try await pager.loadNext().value == .endReached)
        #expect(calls.count == 50)
        #expect(pager.items.map(\.id) == Array(0..<50))
        #expect(pager.items.map(\.title) == (0..<50).map { "#\($0)" })
    }

    @Test("mapPages runs once per page, with that page's items only")
    func mapPagesOncePerPage() async throws {
        let pageSizes = Recorder<[Int]>()
        let source = list.source.mapPages { items in
            pageSizes.record(items.map(\.id))
            return items.reversed()
        }
        let pager = Pager(source: source, configuration: try .testing(pageSize: 20))
        #expect(try await pager.loadAll() == .endReached)
        #expect(pageSizes.recorded == [Array(0..<20), Array(20..<40), Array(40..<50)])
        #expect(
            pager.items.ids == Array((0..<20).reversed()) + Array((20..<40).reversed())
                + Array((40..<50).reversed()))
    }

    @Test("filter and compactMap run once per item of each page")
    func filterAndCompactMapOncePerPage() async throws {
        let filterCalls = Counter()
        let compactCalls = Counter()
        let source = list.source
            .filter { item in
                filterCalls.increment()
                return item.id % 3 != 0
            }
            .compactMap { item -> Row? in
                compactCalls.increment()
                return item.id % 5 == 0 ? nil : Row(id: item.id, title: "\(item.id)")
            }
        let pager = Pager(source: source, configuration: try .testing())
        _ = try await pager.loadAll()
        #expect(filterCalls.count == 50)
        #expect(compactCalls.count == (0..<50).filter { $0 % 3 != 0 }.count)
        #expect(pager.items.map(\.id) == (0..<50).filter { $0 % 3 != 0 && $0 % 5 != 0 })
    }

    @Test("a page filtered to nothing keeps its keys, so paging goes on past it")
    func emptyPageDoesNotStop() async throws {
        // Items 10..<30 (pages 2 and 3 of 10) are all filtered out.
        let source = list.source.filter { !(10..<30).contains($0.id) }
        let pager = Pager(source: source, configuration: try .testing())
        #expect(try await pager.loadNext().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.ids == Array(0..<10))
        #expect(pager.hasNext)
        #expect(pager.loadStates.next == .notLoading)
        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.ids == Array(0..<10) + Array(30..<50))
    }

    // A page that brings no rows (filtered to nothing, or all duplicates)
    // must not stall prefetch-driven paging: no new row can appear to report
    // itself, so the pager looks again at the last row reported when a page
    // arrives (a `willDisplay`-driven list would otherwise sit at its end).
    @Test(
        "a page filtered to nothing after the last row appeared does not stall prefetching: the last row is still the end"
    )
    func emptyPageKeepsPrefetching() async throws {
        let scripted = ScriptedSource<Int, TestItem>()
        let source = scripted.filter { !(10..<20).contains($0.id) }
        let pager = Pager(source: source, configuration: try .testing(prefetchDistance: 0))
        let first = pager.loadNext()
        let firstCall = await scripted.nextCall()
        firstCall.succeed(with: list.page(for: firstCall.request))
        #expect(try await first.value == .loaded)

        pager.itemAppeared(at: 9)  // the last row is shown
        #expect(pager.isLoadingNext)
        let second = pager.loadNext()  // joins the prefetch, to wait for it
        let secondCall = await scripted.nextCall()
        #expect(secondCall.request == PageRequest(.next(after: 10), count: 10))
        secondCall.succeed(with: list.page(for: secondCall.request))
        #expect(try await second.value == .loaded)
        #expect(pager.items.ids == Array(0..<10))
        #expect(pager.hasNext)
        // No row appeared, so no itemAppeared can come; the reader still sees the end.
        #expect(pager.isLoadingNext)
        pager.cancel()
    }

    @Test("the base source sees the pager's requests unchanged, and the page keeps its keys")
    func requestsAndKeysPassThrough() async throws {
        let requests = Recorder<PageRequest<Int>>()
        let base = ClosurePageSource<Int, TestItem> { request in
            requests.record(request)
            return NumberList(total: 50).page(for: request)
        }
        let source = base.map { Row(id: $0.id, title: "") }
        let request = PageRequest<Int>(.previous(before: 30), count: 7)
        let page = try await source.load(request)
        #expect(requests.recorded == [request])
        let original = NumberList(total: 50).page(for: request)
        #expect(page.previousKey == original.previousKey)
        #expect(page.nextKey == original.nextKey)
        #expect(page.items.map(\.id) == original.items.map(\.id))
    }

    @Test(
        "a transform that throws fails that load, keeps the items, and runs again only for the retried page")
    func throwingTransform() async throws {
        let calls = Counter()
        let failOnce = Counter()
        let source = list.source.mapPages { items -> [TestItem] in
            calls.increment()
            if items.first?.id == 10, failOnce.count == 0 {
                failOnce.increment()
                throw TransformFailure()
            }
            return items
        }
        let pager = Pager(source: source, configuration: try .testing())
        #expect(try await pager.loadNext().value == .loaded)
        let error = try #require(await #expect(throws: PagingError.self) { try await pager.loadNext().value })
        #expect(error.underlyingError as? TransformFailure == TransformFailure())
        #expect(pager.items.ids == Array(0..<10))
        #expect(try await pager.retry().value == .loaded)
        #expect(pager.items.ids == Array(0..<20))
        #expect(calls.count == 3)
    }

    @Test("a refresh transforms the refreshed page only")
    func refreshTransformsOnlyNewPages() async throws {
        let calls = Counter()
        let source = list.source.map { item in
            calls.increment()
            return item
        }
        let pager = Pager(source: source, configuration: try .testing())
        _ = try await pager.loadAll(maxPages: 3)
        #expect(calls.count == 30)
        #expect(try await pager.refresh().value == .loaded)
        #expect(calls.count == 40)
        #expect(pager.items.ids == Array(0..<10))
    }
}
