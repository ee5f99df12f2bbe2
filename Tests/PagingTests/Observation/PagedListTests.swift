import Observation
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
        await model.catchUp()
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
        await model.catchUp()
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

    @Test("an item appearing by value prefetches the next page")
    func appeared() async throws {
        let model = PagedList(source: list.source, configuration: try .testing(prefetchDistance: 1))
        _ = try await model.loadNext().value
        await model.catchUp()
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
