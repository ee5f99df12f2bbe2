import Paging
import Testing

/// A source whose keys come round again is stopped, not followed forever.
@Suite("Pager, keys that come round again")
struct PagerKeyCycleTests {
    /// Pages of three items keyed by letters; `next` maps a key to the key of
    /// the page after it (and `previous` likewise backward).
    private static func source(
        next: [String: String], previous: [String: String] = [:]
    ) -> ClosurePageSource<String, TestItem> {
        let letters = Set(next.keys).union(next.values).union(previous.keys).union(previous.values)
            .subtracting(["start"]).sorted()
        return ClosurePageSource { request in
            let key = request.key ?? "start"
            let base = (letters.firstIndex(of: key).map { $0 + 1 } ?? 0) * 3
            return Page(
                items: (base..<base + 3).map { TestItem(id: $0) },
                previousKey: previous[key], nextKey: next[key])
        }
    }

    @Test("loadAll stops with repeatedKey when the keys cycle A → B → A")
    func forwardCycle() async throws {
        let pager = Pager(source: Self.source(next: ["start": "A", "A": "B", "B": "A"]))
        // Bounded, so that a pager that follows the cycle ends the test too.
        let error = await #expect(throws: PagingError.self) { try await pager.loadAll(maxPages: 50) }
        #expect(error?.code == .repeatedKey)
        #expect(
            error?.description
                == "loading next(after: B), count 20 returned A as the next key, a key this list asked for before; "
                + "following it would load the same pages forever, so paging forward stopped. The page source must "
                + "return the key of the next page.")
        // The page that leads back is not applied; the pages before it stay.
        #expect(pager.items.ids == Array(0..<6))
        #expect(pager.loadStates.next.error?.code == .repeatedKey)
    }

    @Test("a longer cycle (A → B → C → B) is caught at the first key seen again")
    func longerCycle() async throws {
        let pager = Pager(source: Self.source(next: ["start": "A", "A": "B", "B": "C", "C": "B"]))
        let error = await #expect(throws: PagingError.self) { try await pager.loadAll(maxPages: 50) }
        #expect(error?.code == .repeatedKey)
        #expect(pager.items.ids == Array(0..<9))
    }

    @Test("paging backward stops with repeatedKey when the keys cycle")
    func backwardCycle() async throws {
        let pager = Pager(source: Self.source(next: [:], previous: ["start": "X", "X": "Y", "Y": "X"]))
        var loads = 0
        while pager.hasPrevious, pager.loadStates.previous.error == nil, loads < 50, !Task.isCancelled {
            _ = try? await pager.loadPrevious().value
            loads += 1
        }
        #expect(pager.loadStates.previous.error?.code == .repeatedKey)
        #expect(loads < 50)
    }

    @Test("a refetch whose keys now cycle fails with repeatedKey and keeps the list")
    func refetchCycle() async throws {
        let cycling = VersionBox()
        let source = ClosurePageSource<Int, TestItem> { request in
            let page = request.key ?? 0
            // Once cycling, page 2 leads back to page 1.
            let next = cycling.value == 1 && page == 2 ? 1 : page + 1
            return Page(
                items: (page * 3..<page * 3 + 3).map { TestItem(id: $0) }, previousKey: nil, nextKey: next)
        }
        let pager = Pager(
            source: source, configuration: try .testing(pageSize: 3, refreshPolicy: .refetchLoadedPages))
        for _ in 0..<4 { _ = try await pager.loadNext(count: 3).value }
        #expect(pager.items.ids == Array(0..<12))
        cycling.value = 1
        let error = await #expect(throws: PagingError.self) { try await pager.refresh().value }
        #expect(error?.code == .repeatedKey)
        #expect(pager.items.ids == Array(0..<12))
    }

    @Test("scrolling a window back and forth replays dropped pages without a false alarm")
    func windowReplays() async throws {
        let list = NumberList(total: 200)
        let pager = Pager(
            source: list.source, configuration: try .testing(pageSize: 10, maximumHeld: .pages(3)))
        for _ in 0..<8 { _ = try await pager.loadNext().value }
        for _ in 0..<5 { _ = try await pager.loadPrevious().value }
        for _ in 0..<17 { _ = try await pager.loadNext().value }
        #expect(pager.loadStates.next.error == nil && pager.loadStates.previous.error == nil)
        #expect(pager.items.ids == Array(170..<200))
        #expect(!pager.hasNext)
    }
}
