import PagingTesting
import Testing

@testable import Paging

@Suite("Pager")
struct PagerTests {
    typealias Source = ScriptedSource<Int, TestItem>
    let list = NumberList(total: 35)

    /// A pager over a scripted source that ignores cancellation, so that every
    /// late answer really reaches the pager.
    func makePager(_ configuration: PagingConfiguration? = nil, initialKey: Int? = nil) throws -> (
        Pager<Int, TestItem>, Source
    ) {
        let source = Source(ignoresCancellation: true)
        let pager = Pager(
            source: source, initialKey: initialKey, configuration: try configuration ?? .testing())
        return (pager, source)
    }

    @Test("the first load is reported as a refresh and fills the list")
    func firstLoad() async throws {
        let (pager, source) = try makePager()
        #expect(pager.hasNext)
        let load = pager.loadNext()
        #expect(pager.loadStates.refresh == .loading)
        #expect(pager.loadStates.next == .notLoading)
        let call = await source.nextCall()
        #expect(call.request == PageRequest(.initial(nil), count: 10))
        call.succeed(with: list.page(for: call.request))
        #expect(try await load.value == .loaded)
        #expect(pager.items.ids == Array(0..<10))
        #expect(
            pager.loadStates == LoadStates(refresh: .notLoading, previous: .endReached, next: .notLoading))
    }

    @Test("a load awaited after its pager is released ends as cancelled instead of waiting forever")
    func loadOutlivesPager() async throws {
        var (pager, source): (Pager<Int, TestItem>?, Source) = try makePager()
        let load = try #require(pager).loadNext()
        let call = await source.nextCall()
        pager = nil
        #expect(try await load.value == .cancelled)
        // The late answer reaches no one.
        call.succeed(with: list.page(for: call.request))
    }

    @Test("a second loadNext while one is in flight joins it: one request, both callers get the page")
    func joinsInFlightLoad() async throws {
        let (pager, source) = try makePager()
        try await loadFirstPage(pager, source)
        let first = pager.loadNext()
        let second = pager.loadNext()
        let call = await source.nextCall()
        call.succeed(with: list.page(for: call.request))
        #expect(try await first.value == .loaded)
        #expect(try await second.value == .loaded)
        #expect(source.requests.count == 2)
        #expect(pager.items.ids == Array(0..<20))
    }

    @Test("loads at both ends run at once, one per end")
    func onePerDirection() async throws {
        let (pager, source) = try makePager(initialKey: 10)
        try await loadFirstPage(pager, source)
        let next = pager.loadNext()
        let previous = pager.loadPrevious()
        _ = pager.loadPrevious()
        #expect(pager.isLoadingNext && pager.isLoadingPrevious)
        let first = await source.nextCall()
        let second = await source.nextCall()
        #expect(source.pendingCount == 2)
        // Complete in the opposite order from the requests.
        for call in [second, first] { call.succeed(with: list.page(for: call.request)) }
        #expect(try await next.value == .loaded)
        #expect(try await previous.value == .loaded)
        #expect(pager.items.ids == Array(0..<30))
        #expect(pager.loadStates.previous == .endReached)
    }

    @Test(
        "each load's request names it, and the snapshot names the loads in flight until a refresh lets them go"
    )
    func loadIDs() async throws {
        let (pager, source) = try makePager(initialKey: 10)
        try await loadFirstPage(pager, source)
        _ = pager.loadNext()
        _ = pager.loadPrevious()
        let calls = [await source.nextCall(), await source.nextCall()]
        let ids = calls.compactMap(\.request.loadID)
        #expect(Set(ids).count == 2, "every load has its own id")
        let next = try #require(calls.first { $0.request.direction == .next })
        let previous = try #require(calls.first { $0.request.direction == .previous })
        #expect(
            pager.snapshot.loadIDs
                == SlotLoadIDs(next: next.request.loadID, previous: previous.request.loadID))

        _ = pager.refresh()
        let refresh = await source.nextCall()
        #expect(refresh.request.loadID.map { !ids.contains($0) } == true)
        #expect(pager.snapshot.loadIDs == SlotLoadIDs(refresh: refresh.request.loadID))
        refresh.succeed(with: list.page(for: refresh.request))
        for call in calls { call.succeed(with: list.page(for: call.request)) }
        await pager.waitUntilDelivered(4)
        #expect(pager.snapshot.loadIDs == SlotLoadIDs())
    }

    @Test("at the end, loadNext answers endReached at once without a request")
    func endReached() async throws {
        let pager = Pager(source: list.source, configuration: try .testing(pageSize: 20))
        #expect(try await pager.loadAll() == .endReached)
        let requests = pager.snapshot.version
        #expect(try await pager.loadNext().value == .endReached)
        #expect(pager.snapshot.version == requests)
        #expect(pager.items.ids == Array(0..<35))
        #expect(!pager.hasNext)
        #expect(pager.loadStates.next == .endReached)
    }

    @Test("a failure keeps the items, and retry repeats exactly the failed request")
    func failureAndRetry() async throws {
        let (pager, source) = try makePager()
        try await loadFirstPage(pager, source)
        let load = pager.loadNext()
        let failing = await source.nextCall()
        failing.fail(with: SourceFailure())
        let error = try #require(await #expect(throws: PagingError.self) { try await load.value })
        #expect(error.code == .loadFailed)
        #expect(error.underlyingError as? SourceFailure == SourceFailure())
        #expect(pager.items.ids == Array(0..<10))
        #expect(pager.loadStates.next == .failed(error))

        let retry = pager.retry()
        let repeated = await source.nextCall()
        #expect(repeated.request == failing.request)
        repeated.succeed(with: list.page(for: repeated.request))
        #expect(try await retry.value == .loaded)
        #expect(pager.items.ids == Array(0..<20))
        #expect(pager.loadStates.next == .notLoading)
    }

    @Test(
        "the edge keys say where paging continues, and a new pager opened at the next key resumes with nothing repeated"
    )
    func edgeKeysResume() async throws {
        let pager = Pager(source: list.source, initialKey: 10, configuration: try .testing())
        #expect(pager.nextKey == nil && pager.previousKey == nil)
        _ = try await pager.loadNext().value
        _ = try await pager.loadNext().value
        #expect(pager.nextKey == 30)
        #expect(pager.previousKey == 10)
        let resumed = Pager(source: list.source, initialKey: pager.nextKey, configuration: try .testing())
        #expect(try await resumed.loadAll() == .endReached)
        #expect(pager.items.ids + resumed.items.ids == Array(10..<35))
        #expect(resumed.nextKey == nil)
    }

    @Test("retry with nothing failed does nothing")
    func retryWithoutFailure() async throws {
        let pager = Pager(source: list.source, configuration: try .testing())
        #expect(try await pager.retry().value == .nothingToRetry)
    }

    @Test("reset cancels the load in flight, and its late response is never applied")
    func resetDropsStaleResponse() async throws {
        let (pager, source) = try makePager()
        try await loadFirstPage(pager, source)
        let load = pager.loadNext()
        let call = await source.nextCall()
        pager.reset()
        #expect(try await load.value == .cancelled)
        #expect(source.cancelledCalls == [call.number])
        // The source ignores cancellation and answers anyway: nothing changes.
        call.succeed(with: list.page(for: call.request))
        #expect(pager.items.isEmpty)
        #expect(pager.loadStates == LoadStates())
    }

    @Test("refresh keeps the items visible until the new ones replace them in one change")
    func refreshSwapsInOneChange() async throws {
        let (pager, source) = try makePager()
        try await loadFirstPage(pager, source)
        let next = pager.loadNext()
        let nextCall = await source.nextCall()
        let refresh = pager.refresh()
        #expect(try await next.value == .cancelled)
        #expect(pager.items.ids == Array(0..<10))
        #expect(pager.loadStates.refresh == .loading)

        let refreshCall = await source.nextCall()
        #expect(refreshCall.request == PageRequest(.initial(nil), count: 10))
        nextCall.succeed(with: list.page(for: nextCall.request))  // stale: ignored
        #expect(pager.items.ids == Array(0..<10))

        var fresh = list
        fresh.version = 1
        let versionBefore = pager.snapshot.version
        refreshCall.succeed(with: fresh.page(for: refreshCall.request))
        #expect(try await refresh.value == .loaded)
        let snapshot = pager.snapshot
        #expect(snapshot.version == versionBefore + 1)
        #expect(snapshot.items.allSatisfy { $0.version == 1 })
        #expect(snapshot.change == ListChange(removed: [0..<10], inserted: [0..<10]))
    }

    @Test("loadNext during a refresh joins the refresh instead of loading with stale keys")
    func loadDuringRefreshJoins() async throws {
        let (pager, source) = try makePager()
        try await loadFirstPage(pager, source)
        let refresh = pager.refresh()
        let joined = pager.loadNext()
        let call = await source.nextCall()
        call.succeed(with: list.page(for: call.request))
        #expect(try await refresh.value == .loaded)
        #expect(try await joined.value == .loaded)
        #expect(source.requests.count == 2)
    }

    @Test("a refresh during a refresh starts over, and the first caller waits for the second")
    func refreshRestartsRefresh() async throws {
        let (pager, source) = try makePager()
        try await loadFirstPage(pager, source)
        let first = pager.refresh()
        let firstCall = await source.nextCall()
        let second = pager.refresh()
        let secondCall = await source.nextCall()
        #expect(source.cancelledCalls == [firstCall.number])
        var fresh = list
        fresh.version = 2
        secondCall.succeed(with: fresh.page(for: secondCall.request))
        #expect(try await first.value == .loaded)
        #expect(try await second.value == .loaded)
        #expect(pager.items.allSatisfy { $0.version == 2 })
        // This source ignores cancellation, so the first call still waits: its late answer
        // changes nothing (and its task ends, instead of waiting past the test).
        firstCall.succeed(with: list.page(for: firstCall.request))
        await pager.waitUntilDelivered(3)
        #expect(pager.items.allSatisfy { $0.version == 2 })
    }

    @Test("refetching every loaded page refreshes in order and keeps the list's length")
    func refetchLoadedPages() async throws {
        let pager = Pager(
            source: list.source, configuration: try .testing(refreshPolicy: .refetchLoadedPages))
        _ = try await pager.loadAll(maxPages: 3)
        #expect(pager.items.count == 30)
        let source = Source(ignoresCancellation: true)
        // Same pager state, now driven by a scripted source to watch the order.
        let scripted = Pager(source: source, configuration: try .testing(refreshPolicy: .refetchLoadedPages))
        for _ in 0..<3 {
            let load = scripted.loadNext()
            let call = await source.nextCall()
            call.succeed(with: list.page(for: call.request))
            _ = try await load.value
        }
        let refresh = scripted.refresh()
        var fresh = list
        fresh.version = 1
        var refetched: [PageRequest<Int>] = []
        for _ in 0..<3 {
            let call = await source.nextCall()
            refetched.append(call.request)
            #expect(scripted.items.allSatisfy { $0.version == 0 })
            call.succeed(with: fresh.page(for: call.request))
        }
        #expect(try await refresh.value == .loaded)
        #expect(refetched.map(\.position) == [.initial(nil), .next(after: 10), .next(after: 20)])
        #expect(scripted.items.ids == Array(0..<30))
        #expect(scripted.items.allSatisfy { $0.version == 1 })
    }

    @Test("a source that returns the key it was asked with is reported, not followed")
    func repeatedKey() async throws {
        let source = ClosurePageSource<Int, TestItem> { request in
            let key = request.key ?? 0
            return Page(items: [TestItem(id: key)], nextKey: 5)
        }
        let pager = Pager(source: source, configuration: try .testing())
        #expect(try await pager.loadNext().value == .loaded)  // initial: next key 5
        // After 5, the source says 5 again.
        let error = try #require(await #expect(throws: PagingError.self) { try await pager.loadNext().value })
        #expect(error.code == .repeatedKey)
        #expect(pager.items.ids == [0])
        #expect(pager.loadStates.next == .failed(error))
        #expect(error.description.contains("would load the same page forever"))
    }

    @Test("cancel stops the loads in flight and keeps the items")
    func cancelKeepsItems() async throws {
        let (pager, source) = try makePager()
        try await loadFirstPage(pager, source)
        let load = pager.loadNext()
        let call = await source.nextCall()
        pager.cancel()
        #expect(try await load.value == .cancelled)
        call.succeed(with: list.page(for: call.request))
        #expect(pager.items.ids == Array(0..<10))
        #expect(pager.loadStates.next == .notLoading)
        // The same page loads again on demand.
        let again = pager.loadNext()
        let repeated = await source.nextCall()
        #expect(repeated.request == call.request)
        repeated.succeed(with: list.page(for: repeated.request))
        #expect(try await again.value == .loaded)
        #expect(pager.items.ids == Array(0..<20))
    }

    @Test("cancelling the task that awaits a load ends the wait, not the load")
    func cancellingTheWaiter() async throws {
        let (pager, source) = try makePager()
        try await loadFirstPage(pager, source)
        let load = pager.loadNext()
        let waiter = Task { try await load.value }
        let call = await source.nextCall()
        waiter.cancel()
        #expect(try await waiter.value == .cancelled)
        #expect(pager.isLoadingNext)
        call.succeed(with: list.page(for: call.request))
        #expect(try await load.value == .loaded)
        #expect(pager.items.count == 20)
    }

    @Test("a count below 1 is rejected with a clear error")
    func invalidCount() async throws {
        let (pager, _) = try makePager()
        let error = try #require(
            await #expect(throws: PagingError.self) { try await pager.loadNext(count: 0).value })
        #expect(error.code == .invalidArgument)
        #expect(error.description == "invalid argument: count is 0, but a load must ask for at least 1 item")
    }

    @Test("snapshots stream every change in order, starting with the current state")
    func snapshotsStream() async throws {
        let pager = Pager(source: list.source, configuration: try .testing(pageSize: 20))
        var iterator = pager.snapshots.makeAsyncIterator()
        let initial = try #require(await iterator.next())
        #expect(initial.items.isEmpty && initial.hasNext)
        _ = try await pager.loadAll()
        var versions: [Int] = [initial.version]
        var rows: [TestItem] = []
        while let snapshot = await iterator.next() {
            versions.append(snapshot.version)
            snapshot.change.apply(to: &rows, from: snapshot.items)
            #expect(rows == Array(snapshot.items))
            if snapshot.loadStates.next == .endReached { break }
        }
        #expect(versions == Array(versions[0]...(versions[0] + versions.count - 1)))
        #expect(rows.map(\.id) == Array(0..<35))
    }

    private func loadFirstPage(_ pager: Pager<Int, TestItem>, _ source: Source) async throws {
        let load = pager.loadNext()
        let call = await source.nextCall()
        call.succeed(with: list.page(for: call.request))
        #expect(try await load.value == .loaded)
    }
}
