import Paging
import Testing

/// Counts and keys from the app at the edge of `Int` give
/// ``PagingError/Code/invalidArgument``, never a trap.
@Suite("Pager, arguments at the limits of Int")
struct PagerArgumentTests {
    @Test("loadNext(count: .max) on a Firebase-style timeline fails with invalidArgument")
    func maxCountOnInclusiveBoundary() async throws {
        let source = InclusiveBoundarySource<Int, TestItem> { limit, endAt in
            let end = endAt ?? 99
            return (max(0, end - min(limit, 100) + 1)...end).map { (key: $0, item: TestItem(id: $0)) }
        }
        let pager = Pager(source: source, configuration: try .testing(pageSize: 5))
        _ = try await pager.loadNext().value
        let error = await #expect(throws: PagingError.self) { try await pager.loadNext(count: .max).value }
        #expect(error?.code == .invalidArgument)
        #expect(pager.items.count == 5, "what was loaded is kept")
        // A sane count still works after it.
        _ = try? await pager.retry().value
        #expect(pager.loadStates.next.error?.code == .invalidArgument, "the same request fails the same way")
        _ = try await pager.loadNext(count: 5).value
        #expect(pager.items.count == 10)
    }

    @Test("a page-number key of Int.max fails with invalidArgument instead of overflowing")
    func maxPageNumber() async throws {
        let source = try PageNumberSource<TestItem>(pageSize: 3) { page, perPage in
            NumberedPage(items: (0..<perPage).map { TestItem(id: page &* 10 &+ $0) })
        }
        let pager = Pager(source: source, initialKey: .max, configuration: try .testing(pageSize: 3))
        let error = await #expect(throws: PagingError.self) { _ = try await pager.loadNext().value }
        #expect(error?.code == .invalidArgument)
    }

    @Test("an offset near Int.max fails with invalidArgument before anything is fetched")
    func offsetNearMax() async throws {
        let fetches = VersionBox()
        let source = OffsetSource<TestItem>(.forward) { offset, limit in
            fetches.value += 1
            return OffsetPage(items: [TestItem(id: 1)])
        }
        let pager = Pager(source: source, initialKey: .max - 5, configuration: try .testing(pageSize: 10))
        let error = await #expect(throws: PagingError.self) { _ = try await pager.loadNext().value }
        #expect(error?.code == .invalidArgument)
        #expect(fetches.value == 0)
    }

    @Test("a backend that sends more items than asked near Int.max leads to a refused load, not a trap")
    func offsetBackendOverrun() async throws {
        let source = OffsetSource<TestItem>(.forward) { _, _ in
            OffsetPage(items: (0..<20).map { TestItem(id: $0) })
        }
        let page = source.page(
            from: OffsetPage(items: (0..<20).map { TestItem(id: $0) }), offset: .max - 10, limit: 5)
        #expect(page.nextKey == .max)
        let pager = Pager(source: source, initialKey: .max, configuration: try .testing(pageSize: 1))
        let error = await #expect(throws: PagingError.self) { _ = try await pager.loadNext().value }
        #expect(error?.code == .invalidArgument)
    }

    @Test("a count of Int.max reaches a Relay source as first: Int.max, without a trap")
    func maxCountOnRelay() async throws {
        let backend = RelayConnectionBackend((0..<30).map { TestItem(id: $0) }, cursor: { "c\($0.id)" })
        let pager = Pager(source: RelayCursorSource<TestItem>(.forward) { try backend.connection($0) })
        _ = try await pager.loadNext(count: .max).value
        #expect(pager.items.count == 30)
    }

    @Test("configurations with values near Int.max are checked without overflowing")
    func configurationNearMax() throws {
        #expect(throws: PagingError.self) {
            try PagingConfiguration(pageSize: .max / 2, prefetchDistance: .max / 2, maximumHeld: .pages(2))
        }
        #expect(throws: PagingError.self) {
            try PagingConfiguration(
                pageSize: 10, prefetchDistance: .max / 2 + 1, maximumHeld: .items(.max - 1))
        }
        let huge = try PagingConfiguration(pageSize: .max / 4, prefetchDistance: 0, maximumHeld: .pages(.max))
        #expect(huge.pageSize == .max / 4)
    }
}
