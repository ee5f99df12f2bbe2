import PagingTesting
import Testing

@testable import Paging

@Suite("Pager window and prefetch")
struct PagerWindowTests {
    let list = NumberList(total: 200)

    @Test("an item appearing within the prefetch distance of the end loads the next page, and only then")
    func prefetchNext() async throws {
        let source = ScriptedSource<Int, TestItem>()
        let pager = Pager(source: source, configuration: try .testing(pageSize: 10, prefetchDistance: 3))
        let first = pager.loadNext()
        let call = await source.nextCall()
        call.succeed(with: list.page(for: call.request))
        _ = try await first.value
        pager.itemAppeared(at: 5)
        #expect(!pager.isLoadingNext)
        pager.itemAppeared(at: 6)
        #expect(pager.isLoadingNext)
        pager.itemAppeared(at: 9)  // joins, does not load twice
        let next = await source.nextCall()
        #expect(next.request == PageRequest(.next(after: 10), count: 10))
        #expect(source.pendingCount == 1)
    }

    @Test("reporting an item by id finds its index and prefetches")
    func appearedByID() async throws {
        let pager = Pager(source: list.source, configuration: try .testing(prefetchDistance: 0))
        _ = try await pager.loadNext().value
        pager.itemAppeared(id: 3)
        #expect(!pager.isLoadingNext)
        pager.itemAppeared(id: 12_345)
        #expect(!pager.isLoadingNext)
        pager.itemAppeared(id: 9)
        #expect(pager.isLoadingNext || pager.items.count == 20)
    }

    @Test("scrolling forward through a window holds at most the maximum, and hasPrevious stays true")
    func windowForward() async throws {
        let pager = Pager(
            source: list.source, configuration: try .testing(pageSize: 10, maximumHeld: .pages(3)))
        for _ in 0..<10 { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array(70..<100))
        #expect(pager.items.pageCount == 3)
        #expect(pager.hasPrevious)
        #expect(pager.loadStates.previous == .notLoading)
    }

    @Test("scrolling back reloads the dropped pages with their original requests, down to the start")
    func windowBackward() async throws {
        let source = ScriptedSource<Int, TestItem>()
        let pager = Pager(source: source, configuration: try .testing(pageSize: 10, maximumHeld: .pages(2)))
        for _ in 0..<4 {
            let load = pager.loadNext()
            let call = await source.nextCall()
            call.succeed(with: list.page(for: call.request))
            _ = try await load.value
        }
        #expect(pager.items.ids == Array(20..<40))
        var replayed: [PageRequest<Int>] = []
        while pager.hasPrevious, !Task.isCancelled {
            let load = pager.loadPrevious()
            let call = await source.nextCall()
            replayed.append(call.request)
            call.succeed(with: list.page(for: call.request))
            _ = try await load.value
        }
        #expect(
            replayed == [PageRequest(.next(after: 10), count: 10), PageRequest(.initial(nil), count: 10)])
        #expect(pager.items.ids == Array(0..<20))
        #expect(pager.hasNext)
        #expect(pager.loadStates.previous == .endReached)
    }

    @Test("an item limit drops whole pages at the far end but never the page just loaded")
    func itemLimit() async throws {
        let pager = Pager(
            source: list.source,
            configuration: try .testing(pageSize: 10, prefetchDistance: 2, maximumHeld: .items(25)))
        for _ in 0..<5 { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array(30..<50))
    }

    @Test("a page dropped at an end cancels the load in flight there; the page comes back on demand")
    func dropCancelsFarLoad() async throws {
        let source = ScriptedSource<Int, TestItem>()
        let pager = Pager(
            source: source, initialKey: 50,
            configuration: try .testing(pageSize: 10, maximumHeld: .pages(2)))
        let initial = pager.loadNext()
        let initialCall = await source.nextCall()
        initialCall.succeed(with: list.page(for: initialCall.request))
        _ = try await initial.value
        let previous = pager.loadPrevious()
        let previousCall = await source.nextCall()
        previousCall.succeed(with: list.page(for: previousCall.request))
        _ = try await previous.value
        #expect(pager.items.ids == Array(40..<60))
        // Both ends load; the next page arrives first and drops the first page.
        let before = pager.loadPrevious()
        let next = pager.loadNext()
        // The two loads reach the source in either order: tell them apart by their requests.
        let firstCall = await source.nextCall()
        let secondCall = await source.nextCall()
        let firstIsPrevious = if case .previous = firstCall.request.position { true } else { false }
        let (beforeCall, nextCall) = firstIsPrevious ? (firstCall, secondCall) : (secondCall, firstCall)
        nextCall.succeed(with: list.page(for: nextCall.request))
        #expect(try await next.value == .loaded)
        #expect(try await before.value == .cancelled)
        #expect(source.cancelledCalls.contains(beforeCall.number))
        #expect(pager.items.ids == Array(50..<70))
        let again = pager.loadPrevious()
        let replay = await source.nextCall()
        #expect(replay.request == previousCall.request)
        replay.succeed(with: list.page(for: replay.request))
        _ = try await again.value
        #expect(pager.items.ids == Array(40..<60))
    }

    @Test("after the last row appeared, pages that bring nothing new keep prefetching until one does")
    func prefetchPastEmptyPages() async throws {
        let source = ScriptedSource<Int, TestItem>()
        let pager = Pager(source: source, configuration: try .testing(pageSize: 5, prefetchDistance: 1))
        let first = pager.loadNext()
        let call = await source.nextCall()
        call.succeed(with: list.page(for: call.request))
        _ = try await first.value
        pager.itemAppeared(at: 4)
        for emptyKey in [5, 6] {
            let call = await source.nextCall()
            #expect(call.request.position == .next(after: emptyKey))
            call.succeed(with: Page(items: [], nextKey: emptyKey + 1))  // everything filtered out
        }
        let full = await source.nextCall()
        full.succeed(with: Page(items: (7..<12).map { TestItem(id: $0) }, nextKey: 12))
        await pager.waitUntilDelivered(4)
        #expect(pager.items.ids == Array(0..<5) + Array(7..<12))
        #expect(!pager.isLoadingNext)  // the reader's row is now 5 items from the end
    }

    @Test("a page arriving in a window prefetches onward only, never swinging back to the end it trimmed")
    func noSwingInWindow() async throws {
        let counter = Counter()
        let list = self.list
        let source = ClosurePageSource<Int, TestItem> { request in
            counter.increment()
            return list.page(for: request)
        }
        let pager = Pager(
            source: source,
            configuration: try .testing(
                pageSize: 10, initialLoadSize: 30, prefetchDistance: 5, maximumHeld: .pages(2)))
        _ = try await pager.loadNext().value
        pager.itemAppeared(at: 27)
        var snapshots = pager.snapshots.makeAsyncIterator()
        while let snapshot = await snapshots.next(), snapshot.isLoadingNext || snapshot.isLoadingPrevious {}
        #expect(counter.count == 2)
        #expect(pager.items.ids == Array(0..<40))
        #expect(!pager.isLoadingPrevious && !pager.isLoadingNext)
    }

    @Test("a suggested prefetch distance covers the items read while a page loads, twice over")
    func suggestedPrefetchDistance() {
        #expect(
            PagingConfiguration.suggestedPrefetchDistance(
                itemsPerSecond: 1000, pageLatency: .milliseconds(20)) == 40)
        #expect(
            PagingConfiguration.suggestedPrefetchDistance(itemsPerSecond: 10, pageLatency: .milliseconds(1))
                == 2)
        #expect(
            PagingConfiguration.suggestedPrefetchDistance(itemsPerSecond: 0, pageLatency: .seconds(1)) == 1)
    }
}
