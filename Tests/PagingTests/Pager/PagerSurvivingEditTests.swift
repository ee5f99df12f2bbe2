import Paging
import PagingTesting
import Testing

/// Edits marked `survivingRefresh()`: made while a refresh is in flight, they are applied again to
/// its pages (answered, perhaps, before they were made) before those swap in, in the same snapshot.
@Suite("Pager, edits that outlive a refresh in flight")
struct PagerSurvivingEditTests {
    typealias Edit = PagerEdit<TestItem>

    /// A page of the ids given; `next` is the key of the page after it.
    private static func page(_ ids: some Sequence<Int>, next: Int?) -> Page<Int, TestItem> {
        Page(items: ids.map { TestItem(id: $0) }, previousKey: nil, nextKey: next)
    }

    /// A pager over a scripted source holding the pages `99...90` and `89...80`, newest first.
    private static func loadedPager(_ policy: PagingConfiguration.RefreshPolicy = .restart) async throws
        -> (Pager<Int, TestItem>, ScriptedSource<Int, TestItem>)
    {
        let source = ScriptedSource<Int, TestItem>()
        let pager = Pager(source: source, configuration: try .testing(pageSize: 10, refreshPolicy: policy))
        for (ids, next) in [((90...99).reversed(), 1), ((80...89).reversed(), 2)] {
            let load = pager.loadNext()
            await source.nextCall().succeed(with: page(ids, next: next))
            #expect(try await load.value == .loaded)
        }
        return (pager, source)
    }

    @Test("a live item inserted at the top during a head refresh answered before it stays, in place")
    func headRefreshKeepsLiveInsert() async throws {
        let (pager, source) = try await Self.loadedPager()
        let refresh = pager.refreshHead()
        let call = await source.nextCall()
        // The server had 100 and 101 when it answered; 102 was announced after.
        #expect(pager.apply([Edit.insert(TestItem(id: 102), at: .first).survivingRefresh()]) == [.applied])
        let before = Array(pager.items)
        #expect(before.map(\.id).first == 102, "the live item shows at once")
        call.succeed(with: Self.page([101, 100] + (92...99).reversed(), next: 1))
        #expect(try await refresh.value == .loaded)

        #expect(pager.items.ids == [102, 101, 100] + Array((80...99).reversed()))
        let change = pager.snapshot.change
        #expect(change == ListChange(inserted: [1..<3]), "the live row stays where it is: \(change)")
        var rows = before
        change.apply(to: &rows, from: pager.items)
        #expect(rows == Array(pager.items))
    }

    /// Answers a head refresh's calls from a list, newest first, in pages of ten keyed by offset.
    private static func answer(
        _ source: ScriptedSource<Int, TestItem>, from list: [Int], pages: Int
    ) async -> [PageRequest<Int>] {
        var requests: [PageRequest<Int>] = []
        for _ in 0..<pages {
            let call = await source.nextCall()
            requests.append(call.request)
            let offset: Int =
                switch call.request.position {
                case .initial: 0
                case .next(let after): after
                case .previous: 0
                }
            let end = min(offset + 10, list.count)
            call.succeed(with: page(list[offset..<end], next: end < list.count ? end : nil))
        }
        return requests
    }

    @Test(
        "a live item at the top is not where the head reaches the list: the pages go on to the rows held before"
    )
    func liveItemIsNoJunction() async throws {
        let (pager, source) = try await Self.loadedPager()
        // While the socket was down, 100...149 were added; 150 is announced once it is back.
        let server = Array((100...150).reversed()) + Array((80...99).reversed())
        let refresh = pager.refreshHead(maximumPages: 10)
        pager.apply([Edit.insert(TestItem(id: 150), at: .first).survivingRefresh()])
        // The first page holds 150: it must not be taken for the held list's top.
        let requests = await Self.answer(source, from: server, pages: 6)
        #expect(try await refresh.value == .loaded)
        #expect(requests.count == 6)
        #expect(pager.items.ids == Array((80...150).reversed()), "no gap below the live item")
    }

    @Test("a live item inserted during a head refresh that was cancelled is no junction for the next one")
    func unjoinedAcrossRefreshes() async throws {
        let (pager, source) = try await Self.loadedPager()
        let first = pager.refreshHead(maximumPages: 10)
        _ = await source.nextCall()
        pager.apply([Edit.insert(TestItem(id: 150), at: .first).survivingRefresh()])
        // Reconnected again: a new head refresh replaces the first.
        let second = pager.refreshHead(maximumPages: 10)
        let server = Array((100...150).reversed()) + Array((80...99).reversed())
        _ = await Self.answer(source, from: server, pages: 6)
        #expect(try await second.value == .loaded)
        #expect(try await first.value == .loaded, "its callers wait for the one that replaced it")
        #expect(pager.items.ids == Array((80...150).reversed()))
        // Once a head refresh has swapped in, the list is whole: the next one may reach it at once.
        let third = pager.refreshHead(maximumPages: 10)
        let requests = await Self.answer(source, from: [151] + Array((80...150).reversed()), pages: 1)
        #expect(try await third.value == .loaded)
        #expect(requests.count == 1)
        #expect(pager.items.ids == Array((80...151).reversed()))
    }

    @Test("without survivingRefresh(), the same insert is taken back by the head refresh")
    func plainInsertIsReplaced() async throws {
        let (pager, source) = try await Self.loadedPager()
        let refresh = pager.refreshHead()
        let call = await source.nextCall()
        #expect(pager.apply([.insert(TestItem(id: 102), at: .first)]) == [.applied])
        call.succeed(with: Self.page([101, 100] + (92...99).reversed(), next: 1))
        _ = try await refresh.value
        #expect(pager.items.ids == [101, 100] + Array((80...99).reversed()))
    }

    @Test("a head answered after the live item holds it: it shows once, where the head has it")
    func headHoldingTheLiveItem() async throws {
        let (pager, source) = try await Self.loadedPager()
        let refresh = pager.refreshHead()
        let call = await source.nextCall()
        pager.apply([Edit.insert(TestItem(id: 102), at: .first).survivingRefresh()])
        call.succeed(with: Self.page([102, 101, 100] + (93...99).reversed(), next: 1))
        _ = try await refresh.value
        #expect(pager.items.ids == [102, 101, 100] + Array((80...99).reversed()))
        #expect(pager.snapshot.change == ListChange(inserted: [1..<3]))
    }

    @Test("several live items, in the order they came, above a head that needed two pages")
    func severalLiveItemsOverTwoPages() async throws {
        let (pager, source) = try await Self.loadedPager()
        let refresh = pager.refreshHead(maximumPages: 3)
        let first = await source.nextCall()
        pager.apply([Edit.insert(TestItem(id: 120), at: .first).survivingRefresh()])
        // Twelve new items: the first page of the head does not reach the list.
        first.succeed(with: Self.page((110...119).reversed(), next: 11))
        let second = await source.nextCall()
        #expect(second.request.position == .next(after: 11))
        pager.apply([Edit.insert(TestItem(id: 121), at: .first).survivingRefresh()])
        second.succeed(with: Self.page([109, 108] + (92...99).reversed(), next: 1))
        _ = try await refresh.value
        #expect(pager.items.ids == [121, 120] + Array((108...119).reversed()) + Array((80...99).reversed()))
    }

    @Test("a removal and an update made during a refresh are applied to its page; a plain update is not")
    func removalAndUpdate() async throws {
        let (pager, source) = try await Self.loadedPager()
        let refresh = pager.refresh()
        let call = await source.nextCall()
        pager.apply([
            Edit.remove(id: 97).survivingRefresh(),
            Edit.update(TestItem(id: 95, version: 3)).survivingRefresh(),
            .update(TestItem(id: 94, version: 5)),
        ])
        call.succeed(with: Self.page((90...99).reversed(), next: 1))
        _ = try await refresh.value
        #expect(pager.items.ids == [99, 98, 96, 95, 94, 93, 92, 91, 90])
        #expect(pager.items.first { $0.id == 95 }?.version == 3)
        #expect(pager.items.first { $0.id == 94 }?.version == 0, "the page's value wins over a plain edit")
    }

    @Test("inserts next to an item go where the refreshed pages hold it; .last only at the list's end")
    func positions() async throws {
        let (pager, source) = try await Self.loadedPager(.refetchLoadedPages)
        let refresh = pager.refresh()
        let call = await source.nextCall()
        pager.apply([
            Edit.insert(TestItem(id: 500), at: .after(95)).survivingRefresh(),
            Edit.insert(TestItem(id: 501), at: .before(82)).survivingRefresh(),
            Edit.insert(TestItem(id: 502), at: .last).survivingRefresh(),
        ])
        // The refetch asks again for both pages held; 95 is gone from the server meanwhile.
        call.succeed(with: Self.page([99, 98, 97, 96, 94, 93, 92, 91, 90], next: 1))
        let second = await source.nextCall()
        second.succeed(with: Self.page((80...89).reversed(), next: 2))
        _ = try await refresh.value
        let expected = [99, 98, 97, 96, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 501, 82, 81, 80, 502]
        #expect(pager.items.ids == expected, "500 had its neighbour taken away: it goes too")
    }

    @Test("a restart that does not reach the end takes no .last insert")
    func restartKeepsNoLastInsert() async throws {
        let (pager, source) = try await Self.loadedPager()
        let refresh = pager.refresh()
        let call = await source.nextCall()
        pager.apply([Edit.insert(TestItem(id: 502), at: .last).survivingRefresh()])
        call.succeed(with: Self.page((90...99).reversed(), next: 1))
        _ = try await refresh.value
        #expect(pager.items.ids == Array((90...99).reversed()))
    }

    @Test("edits made before a refresh started, or during one that failed, are not applied again")
    func onlyTheRefreshInFlight() async throws {
        let (pager, source) = try await Self.loadedPager()
        // Before: the refresh's request went out after the edit.
        pager.apply([Edit.insert(TestItem(id: 200), at: .first).survivingRefresh()])
        let refresh = pager.refresh()
        await source.nextCall().succeed(with: Self.page((90...99).reversed(), next: 1))
        _ = try await refresh.value
        #expect(pager.items.ids.first == 99)

        // During one that failed: the retry's request went out after the edit.
        let failing = pager.refresh()
        let call = await source.nextCall()
        pager.apply([Edit.insert(TestItem(id: 201), at: .first).survivingRefresh()])
        call.fail(with: SourceFailure())
        _ = try? await failing.value
        let retry = pager.retry()
        await source.nextCall().succeed(with: Self.page((90...99).reversed(), next: 1))
        _ = try await retry.value
        #expect(pager.items.ids == Array((90...99).reversed()))
    }
}
