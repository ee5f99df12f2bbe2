import Observation
import PagingTesting
import Testing

@testable import Paging

@MainActor
@Suite("PagedList")
struct PagedListTests {
    let list = NumberList(total: 25)

    @Test("a load call updates the model before it returns: Loading… shows in the same frame")
    func startsAtOnce() async throws {
        let source = ScriptedSource<Int, TestItem>()
        let model = PagedList(source: source, configuration: try .testing())
        #expect(model.hasNext && !model.isRefreshing)
        let load = model.loadNext()
        #expect(model.isRefreshing)
        let call = await source.nextCall()
        call.succeed(with: list.page(for: call.request))
        _ = try await load.value
        await model.waitUntilCaughtUp()
        #expect(model.items.ids == Array(0..<10))
        #expect(!model.isRefreshing)
        model.loadNext()
        #expect(model.isLoadingNext && !model.isLoadingPrevious)
    }

    @Test("observation tracking fires when a page arrives, and the model then shows it")
    func observation() async throws {
        let source = ScriptedSource<Int, TestItem>()
        let model = PagedList(source: source, configuration: try .testing())
        let load = model.loadNext()
        let call = await source.nextCall()
        let changed = await withCheckedContinuation { continuation in
            withObservationTracking {
                _ = model.items
            } onChange: {
                continuation.resume(returning: true)
            }
            call.succeed(with: list.page(for: call.request))
        }
        #expect(changed)
        _ = try await load.value
        await model.waitUntilCaughtUp()
        #expect(model.items.count == 10)
        #expect(model.lastChange == ListChange(inserted: [0..<10]))
    }

    @Test("awaiting a load's value returns with the model already showing the result")
    func valueReturnsShown() async throws {
        let source = ScriptedSource<Int, TestItem>()
        let model = PagedList(source: source, configuration: try .testing())
        let load = model.loadNext()
        let call = await source.nextCall()
        call.succeed(with: list.page(for: call.request))
        _ = try await load.value
        #expect(model.items.ids == Array(0..<10))
        #expect(!model.isRefreshing)
        let refresh = model.refresh()
        let refreshCall = await source.nextCall()
        refreshCall.fail(with: SourceFailure())
        await #expect(throws: PagingError.self) { try await refresh.value }
        #expect(model.loadStates.refresh.error?.code == .loadFailed)
        #expect(model.items.ids == Array(0..<10))
    }

    @Test("local edits show at once as one change")
    func edits() async throws {
        let model = PagedList(source: list.source, configuration: try .testing())
        _ = try await model.loadNext().value
        model.update(TestItem(id: 3, version: 9))
        #expect(model.items[3].version == 9)
        #expect(model.lastChange == ListChange(updated: [3..<4]))
        model.remove(id: 3)
        #expect(model.items.count == 9)
        #expect(model.insert(TestItem(id: 3), at: .after(2)))
        #expect(model.items.ids == Array(0..<10))
    }

    @Test("a batch of edits shows at once as one change")
    func batchEdits() async throws {
        let model = PagedList(source: list.source, configuration: try .testing())
        _ = try await model.loadNext().value
        let version = model.version

        let outcomes = model.apply([
            .update(TestItem(id: 3, version: 9)), .remove(id: 5), .insert(TestItem(id: 50), at: .first),
        ])

        #expect(outcomes == [.applied, .applied, .applied])
        #expect(model.version == version + 1)
        #expect(model.items.ids == [50, 0, 1, 2, 3, 4, 6, 7, 8, 9])
        #expect(model.items[4].version == 9)
        #expect(model.lastChange == ListChange(removed: [5..<6], inserted: [0..<1], updated: [4..<5]))
    }

    @Test("snapshots applied in one update reach the view as one merged change")
    func mergedInOneUpdate() async throws {
        let model = PagedList(source: list.source, configuration: try .testing())
        _ = try await model.loadNext().value
        var rows = Array(model.items)
        // Edits through the pager, not the model: three snapshots that the
        // model applies together at its next update, in this same turn.
        model.pager.update(TestItem(id: 3, version: 9))
        model.pager.remove(id: 5)
        model.pager.insert(TestItem(id: 50), at: .first)
        model.itemAppeared(at: -1)  // any call of the model catches up
        #expect(model.items.ids == [50, 0, 1, 2, 3, 4, 6, 7, 8, 9])
        model.lastChange.apply(to: &rows, from: model.items)
        #expect(rows == Array(model.items))
        #expect(model.lastChange == ListChange(removed: [5..<6], inserted: [0..<1], updated: [4..<5]))
    }

    @Test("change(since:) gives a view that drew an older version everything since, as one batch")
    func changeSinceVersion() async throws {
        let model = PagedList(source: list.source, configuration: try .testing())
        _ = try await model.loadNext().value
        let drawn = model.version
        var rows = Array(model.items)
        #expect(model.change(since: drawn) == ListChange())

        model.update(TestItem(id: 1, version: 2))
        _ = try await model.loadNext().value
        model.remove(id: 0)
        model.pager.insert(TestItem(id: 70), at: .after(12))
        _ = try await model.refresh().value
        model.update(TestItem(id: 4, version: 3))
        await model.waitUntilCaughtUp()

        let change = try #require(model.change(since: drawn))
        change.apply(to: &rows, from: model.items)
        #expect(rows == Array(model.items))
        #expect(model.change(since: -7) == nil, "a version the list never showed")
        #expect(model.change(since: model.version + 1) == nil)
    }

    // Issue 38: lastChange held only the turn's last update, so a view that drew once for an
    // update and a remove in one turn applied the remove alone to rows without the update.
    @Test("an update and a remove in one turn are both in lastChange, from the rows at the turn's start")
    func lastChangeMergesTheTurn() async throws {
        let model = PagedList(source: list.source, configuration: try .testing())
        _ = try await model.loadNext().value
        var rows = Array(model.items)
        model.update(TestItem(id: 3, version: 9))
        model.remove(id: 5)
        #expect(model.lastChange == ListChange(removed: [5..<6], updated: [3..<4]))
        model.lastChange.apply(to: &rows, from: model.items)
        #expect(rows == Array(model.items))
        // The next turn's update starts a change of its own.
        await Task.yield()
        model.update(TestItem(id: 4, version: 7))
        #expect(model.lastChange == ListChange(updated: [4..<5]))
    }

    @Test("takeChange gives everything since the previous call, across turns, then nothing")
    func takeChange() async throws {
        let model = PagedList(source: list.source, configuration: try .testing())
        var rows: [TestItem] = []
        _ = try await model.loadNext().value
        try #require(model.takeChange()).apply(to: &rows, from: model.items)
        #expect(rows == Array(model.items))
        model.update(TestItem(id: 3, version: 9))
        await Task.yield()
        _ = try await model.loadNext().value
        model.remove(id: 0)
        let change = try #require(model.takeChange())
        #expect(change == ListChange(removed: [0..<1], inserted: [9..<19], updated: [2..<3]))
        try change.checkedApply(to: &rows, from: model.items)
        #expect(rows == Array(model.items))
        #expect(model.takeChange() == ListChange())
    }

    @Test("an item appearing by value prefetches the next page")
    func appeared() async throws {
        let model = PagedList(source: list.source, configuration: try .testing(prefetchDistance: 1))
        _ = try await model.loadNext().value
        await model.waitUntilCaughtUp()
        model.itemAppeared(model.items[8])
        #expect(model.isLoadingNext || model.items.count == 20)
    }

    @Test("the model lets go of the pager's stream when it goes away")
    func releases() async throws {
        weak var weakModel: PagedList<Int, TestItem>?
        let pager = Pager(source: list.source, configuration: try .testing())
        do {
            let model = PagedList(pager: pager)
            weakModel = model
            _ = try await model.loadNext().value
        }
        #expect(weakModel == nil)
    }
}
