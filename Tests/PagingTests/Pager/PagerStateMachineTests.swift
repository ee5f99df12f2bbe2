import Testing

@testable import Paging

/// The state machine on its own: events in, effects out. No task, no clock.
@Suite("PagerStateMachine")
struct PagerStateMachineTests {
    typealias Machine = PagerStateMachine<Int, TestItem>
    let list = NumberList(total: 50)

    func makeMachine(_ configuration: PagingConfiguration? = nil, initialKey: Int? = nil) throws -> Machine {
        Machine(configuration: try configuration ?? .testing(), initialKey: initialKey)
    }

    /// Answers the single command of some effects with the list's page.
    @discardableResult
    func answer(_ effects: Machine.Effects, in machine: inout Machine, list: NumberList? = nil) throws
        -> Machine.Effects
    {
        let command = try #require(effects.start.first)
        return machine.pageArrived(for: command, page: (list ?? self.list).page(for: command.request))
    }

    @Test("the first load asks for the initial key with the initial load size")
    func firstLoad() throws {
        var machine = try makeMachine(.testing(initialLoadSize: 25), initialKey: 5)
        let (admission, effects) = machine.load(.next, count: nil)
        guard case .wait(let operation) = admission else { Issue.record("expected to wait"); return }
        #expect(effects.start.map(\.request) == [PageRequest(.initial(5), count: 25)])
        #expect(effects.changed)
        #expect(machine.loadStates.refresh == .loading)
        let arrived = try answer(effects, in: &machine)
        #expect(arrived.finished.map(\.operation) == [operation])
        #expect(machine.items.ids == Array(5..<30))
        #expect(machine.snapshot.change == ListChange(inserted: [0..<25]))
    }

    @Test("a load at an end already loading is joined: no new command")
    func join() throws {
        var machine = try makeMachine()
        try answer(machine.load(.next, count: nil).1, in: &machine)
        let (first, effects) = machine.load(.next, count: nil)
        let (second, joined) = machine.load(.next, count: 3)
        #expect(first == second)
        #expect(effects.start.count == 1)
        #expect(joined.start.isEmpty && !joined.changed)
    }

    @Test("a response to a request from an older generation is ignored")
    func staleGeneration() throws {
        var machine = try makeMachine()
        try answer(machine.load(.next, count: nil).1, in: &machine)
        let (_, effects) = machine.load(.next, count: nil)
        let stale = try #require(effects.start.first)
        let reset = machine.reset()
        #expect(reset.cancel == [stale.id])
        #expect(reset.finished.map { $0.result } == [.success(.cancelled)])
        let ignored = machine.pageArrived(for: stale, page: list.page(for: stale.request))
        #expect(!ignored.changed && ignored.finished.isEmpty)
        #expect(machine.items.isEmpty)
        // The same request id in the current generation is not mistaken for it either.
        let (_, fresh) = machine.load(.next, count: nil)
        let current = try #require(fresh.start.first)
        #expect(current.generation == stale.generation + 1)
        let forged = Machine.Command(id: current.id, generation: stale.generation, request: current.request)
        #expect(!machine.pageArrived(for: forged, page: list.page(for: current.request)).changed)
    }

    @Test("a failure keeps the items and records the request that retry repeats")
    func failureAndRetry() throws {
        var machine = try makeMachine()
        try answer(machine.load(.next, count: nil).1, in: &machine)
        let (_, effects) = machine.load(.next, count: 7)
        let command = try #require(effects.start.first)
        let failed = machine.loadFailed(for: command, error: SourceFailure())
        #expect(failed.finished.count == 1)
        #expect(machine.items.ids == Array(0..<10))
        #expect(machine.loadStates.next.error?.code == .loadFailed)
        let (admissions, retry) = machine.retry()
        #expect(admissions.count == 1)
        #expect(retry.start.map(\.request) == [command.request])
        #expect(machine.loadStates.next == .loading)
    }

    @Test("prefetch loads within the distance of an end, and not after a failure there")
    func prefetch() throws {
        var machine = try makeMachine(.testing(prefetchDistance: 3), initialKey: 20)
        try answer(machine.load(.next, count: nil).1, in: &machine)
        #expect(machine.itemAppeared(at: 5).start.isEmpty)
        let near = machine.itemAppeared(at: 6)
        #expect(near.start.map(\.request.position) == [.next(after: 30)])
        let start = machine.itemAppeared(at: 3)
        #expect(start.start.map(\.request.position) == [.previous(before: 20)])
        _ = machine.loadFailed(for: try #require(near.start.first), error: SourceFailure())
        #expect(machine.itemAppeared(at: 9).start.isEmpty)
        #expect(machine.itemAppeared(at: 99).start.isEmpty)
    }

    @Test("past the page limit, far pages drop with their requests kept, and come back on scrolling back")
    func windowDropsAndReloads() throws {
        var machine = try makeMachine(.testing(maximumHeld: .pages(2)))
        try answer(machine.load(.next, count: nil).1, in: &machine)
        try answer(machine.load(.next, count: nil).1, in: &machine)
        let third = try answer(machine.load(.next, count: nil).1, in: &machine)
        #expect(machine.items.ids == Array(10..<30))
        #expect(third.changed)
        #expect(machine.snapshot.change == ListChange(removed: [0..<10], inserted: [10..<20]))
        #expect(machine.hasPrevious)
        #expect(machine.droppedPageCounts.front == 1)
        let (_, back) = machine.load(.previous, count: nil)
        #expect(back.start.map(\.request) == [PageRequest(.initial(nil), count: 10)])
        try answer(back, in: &machine)
        #expect(machine.items.ids == Array(0..<20))
        #expect(machine.snapshot.change == ListChange(removed: [10..<20], inserted: [0..<10]))
        #expect(!machine.hasPrevious)
        #expect(machine.hasNext)
        let (_, forward) = machine.load(.next, count: nil)
        #expect(forward.start.map(\.request) == [PageRequest(.next(after: 20), count: 10)])
    }

    @Test("duplicates across pages are dropped and counted")
    func deduplication() throws {
        var machine = try makeMachine()
        try answer(machine.load(.next, count: nil).1, in: &machine)
        let (_, effects) = machine.load(.next, count: nil)
        let command = try #require(effects.start.first)
        let page = Page<Int, TestItem>(items: [8, 9, 10, 10, 11].map { TestItem(id: $0) }, nextKey: 12)
        _ = machine.pageArrived(for: command, page: page)
        #expect(machine.items.ids == Array(0..<12))
        #expect(machine.snapshot.duplicatesDropped == 3)
        #expect(machine.snapshot.change == ListChange(inserted: [10..<12]))
    }

    @Test("cancel ends every load, keeps the items, and ignores the late answers")
    func cancel() throws {
        var machine = try makeMachine(initialKey: 20)
        try answer(machine.load(.next, count: nil).1, in: &machine)
        let next = try #require(machine.load(.next, count: nil).1.start.first)
        let previous = try #require(machine.load(.previous, count: nil).1.start.first)
        let cancel = machine.cancel()
        #expect(Set(cancel.cancel) == [next.id, previous.id])
        #expect(cancel.finished.count == 2)
        #expect(machine.loadStates == LoadStates())
        #expect(!machine.pageArrived(for: next, page: list.page(for: next.request)).changed)
        #expect(machine.items.ids == Array(20..<30))
    }

    @Test("the same next key twice is an error, and the page is not applied")
    func repeatedKey() throws {
        var machine = try makeMachine()
        try answer(machine.load(.next, count: nil).1, in: &machine)
        let command = try #require(machine.load(.next, count: nil).1.start.first)
        let effects = machine.pageArrived(
            for: command, page: Page(items: [TestItem(id: 99)], nextKey: 10))
        #expect(effects.finished.first?.result.failureCode == .repeatedKey)
        #expect(machine.items.ids == Array(0..<10))
    }
}

extension Result where Failure == PagingError {
    var failureCode: PagingError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
