import PagingTesting
import Testing

@testable import Paging

/// The batch edit: updates, inserts and removals under one hold of the lock,
/// each only while its condition holds, published as one snapshot.
@Suite("Pager batch edits")
struct PagerBatchEditTests {
    typealias Machine = PagerStateMachine<Int, TestItem>
    typealias Edit = PagerEdit<TestItem>
    let list = NumberList(total: 50)

    /// A machine holding `pages` pages of ten: `0..<10 * pages`.
    func loadedMachine(pages: Int = 2, refreshPolicy: PagingConfiguration.RefreshPolicy = .restart) throws
        -> Machine
    {
        var machine = Machine(configuration: try .testing(refreshPolicy: refreshPolicy), initialKey: nil)
        for _ in 0..<pages { try answer(machine.load(.next, count: nil).1, in: &machine) }
        return machine
    }

    /// Answers the single command of some effects with a list's page.
    @discardableResult
    func answer(_ effects: Machine.Effects, in machine: inout Machine, list: NumberList? = nil) throws
        -> Machine.Effects
    {
        let command = try #require(effects.start.first)
        return machine.pageArrived(for: command, page: (list ?? self.list).page(for: command.request))
    }

    // MARK: One change

    @Test("a batch of updates, inserts and removals applies in order and publishes one merged change")
    func mixedBatchIsOneChange() throws {
        var machine = try loadedMachine()
        let before = machine.snapshot

        let (outcomes, removed, effects) = machine.apply([
            .update(TestItem(id: 3, version: 1)),
            .insert(TestItem(id: 100), at: .after(5)),
            .remove(id: 10),
            .update(TestItem(id: 100, version: 2)),
        ])

        #expect(outcomes == [.applied, .applied, .applied, .applied])
        #expect(removed.map { $0?.id } == [nil, nil, 10, nil])
        #expect(effects.changed)
        let after = machine.snapshot
        #expect(after.version == before.version + 1, "one snapshot for the batch")
        #expect(after.items.ids == Array(0...5) + [100] + Array(6..<10) + Array(11..<20))
        #expect(after.items[3].version == 1 && after.items[6].version == 2)
        #expect(
            after.change == ListChange(removed: [10..<11], inserted: [6..<7], updated: [3..<4]),
            "the inserted item updated later is reported inserted only")
        var rows = Array(before.items)
        after.change.apply(to: &rows, from: after.items)
        #expect(rows == Array(after.items))
    }

    @Test("a batch of updates reports its indices sorted and joined, each once")
    func updatesAreSortedAndJoined() throws {
        var machine = try loadedMachine()
        let edits = [5, 3, 4, 9, 4].map { Edit.update(TestItem(id: $0, version: 1)) }

        let (outcomes, _, _) = machine.apply(edits)

        #expect(outcomes.allSatisfy { $0.isApplied })
        #expect(machine.snapshot.change == ListChange(updated: [3..<6, 9..<10]))
    }

    @Test("a batch that changes nothing publishes nothing, and its outcomes say why")
    func outcomesOfEditsThatDoNotApply() throws {
        var empty = Machine(configuration: try .testing(), initialKey: nil)
        #expect(empty.apply([.insert(TestItem(id: 1), at: .first)]).outcomes == [.notHeld])

        var machine = try loadedMachine()
        let version = machine.version
        let (outcomes, removed, effects) = machine.apply([
            .update(TestItem(id: 99)),
            .remove(id: 99),
            .insert(TestItem(id: 5), at: .last),
            .insert(TestItem(id: 100), at: .before(99)),
            .update(TestItem(id: 4, version: 1), if: .matching { $0.version == 7 }),
        ])

        #expect(outcomes == [.notHeld, .notHeld, .alreadyHeld, .notHeld, .conditionFailed])
        #expect(removed.allSatisfy { $0 == nil })
        #expect(!effects.changed)
        #expect(machine.version == version)
        #expect(machine.items.ids == Array(0..<20))
    }

    // MARK: Conditions

    @Test("an edit whose item changed since the version read is skipped; the others apply")
    func unchangedSinceFailsAfterAnotherEdit() throws {
        var machine = try loadedMachine()
        let read = machine.version
        // Someone else edits item 2 (page 0) after the read.
        _ = machine.apply([.update(TestItem(id: 2, version: 5))])

        let (outcomes, _, _) = machine.apply([
            .update(TestItem(id: 2, version: 1), if: .unchanged(since: read)),
            .update(TestItem(id: 3, version: 1), if: .unchanged(since: read)),
            .update(TestItem(id: 12, version: 1), if: .unchanged(since: read)),
            .remove(id: 13, if: .unchanged(since: read)),
        ])

        #expect(
            outcomes == [.conditionFailed, .conditionFailed, .applied, .applied],
            "items 2 and 3 share the page edited since; items 12 and 13 are on the other page")
        #expect(machine.items[2].version == 5, "the other edit is kept")
        #expect(machine.items[12].version == 1)
    }

    @Test("edits earlier in the same batch do not fail a later edit's condition")
    func ownEditsDoNotCount() throws {
        var machine = try loadedMachine()
        let read = machine.version

        let (outcomes, _, _) = machine.apply([
            .update(TestItem(id: 2, version: 1), if: .unchanged(since: read)),
            .update(TestItem(id: 3, version: 1), if: .unchanged(since: read)),
            .insert(TestItem(id: 100), at: .after(3), if: .unchanged(since: read)),
            .update(TestItem(id: 4, version: 1), if: .version(read)),
        ])

        #expect(outcomes.allSatisfy { $0.isApplied })
        // The next batch read before this one fails on the page it edited.
        #expect(
            machine.apply([.update(TestItem(id: 5, version: 1), if: .unchanged(since: read))]).outcomes == [
                .conditionFailed
            ])
    }

    @Test("a page arriving at the other end keeps unchanged(since:) but fails version(_:)")
    func pageArrivalAndConditions() throws {
        var machine = try loadedMachine(pages: 1)
        let read = machine.version
        try answer(machine.load(.next, count: nil).1, in: &machine)
        #expect(machine.items.ids == Array(0..<20))

        let (outcomes, _, _) = machine.apply([
            .update(TestItem(id: 3, version: 1), if: .unchanged(since: read)),
            .update(TestItem(id: 4, version: 1), if: .version(read)),
            .update(TestItem(id: 15, version: 1), if: .unchanged(since: read)),
        ])

        #expect(
            outcomes == [.applied, .conditionFailed, .conditionFailed],
            "item 15 arrived after the read: it was not what was read")
    }

    @Test("matching and holding compare the held item", arguments: [true, false])
    func predicates(matches: Bool) throws {
        var machine = try loadedMachine()
        let held = TestItem(id: 7, version: matches ? 0 : 3)

        let (outcomes, _, _) = machine.apply([
            .update(TestItem(id: 7, version: 9), if: .holding(held)),
            .remove(id: 8, if: .matching { $0.version == held.version }),
        ])

        #expect(outcomes == (matches ? [.applied, .applied] : [.conditionFailed, .conditionFailed]))
    }

    // MARK: With loads in flight

    @Test("a refresh that swapped in fails an edit read before it; read again, the edit applies")
    func refreshSwapFailsStaleEdits() throws {
        var machine = try loadedMachine(refreshPolicy: .refetchLoadedPages)
        let read = machine.version
        let (_, refresh) = machine.refresh()
        var fresh = list
        fresh.version = 1
        var effects = try answer(refresh, in: &machine, list: fresh)
        effects = try answer(effects, in: &machine, list: fresh)
        #expect(machine.loadStates.refresh == .notLoading)
        #expect(machine.items.ids == Array(0..<20))

        let stale = machine.apply([.update(TestItem(id: 3, version: 7), if: .unchanged(since: read))])
        #expect(stale.outcomes == [.conditionFailed])
        #expect(machine.items[3].version == 1, "the refreshed item is kept")

        let again = machine.version
        let retried = machine.apply([.update(TestItem(id: 3, version: 7), if: .unchanged(since: again))])
        #expect(retried.outcomes == [.applied])
        #expect(machine.items[3].version == 7)
    }

    @Test("edits while a refresh is in flight change the rows on screen; the refresh still swaps in")
    func editsDuringRefresh() throws {
        var machine = try loadedMachine()
        let (_, refresh) = machine.refresh()
        let read = machine.version
        #expect(machine.loadStates.refresh == .loading)

        let (outcomes, _, effects) = machine.apply([
            .update(TestItem(id: 3, version: 4), if: .unchanged(since: read)),
            .remove(id: 4),
        ])

        #expect(outcomes == [.applied, .applied])
        #expect(effects.start.isEmpty && effects.cancel.isEmpty, "the batch leaves the refresh alone")
        #expect(machine.loadStates.refresh == .loading)
        #expect(machine.items.ids == [0, 1, 2, 3] + Array(5..<20))
        var fresh = list
        fresh.version = 1
        try answer(refresh, in: &machine, list: fresh)
        #expect(machine.items.ids == Array(0..<10))
        #expect(machine.items.allSatisfy { $0.version == 1 })
    }

    @Test("a batch applied while a page loads at the end keeps its place when the page lands")
    func batchDuringLoad() async throws {
        let source = ScriptedSource<Int, TestItem>()
        let pager = Pager(source: source, configuration: try .testing())
        let first = pager.loadNext()
        let call = await source.nextCall()
        call.succeed(with: list.page(for: call.request))
        #expect(try await first.value == .loaded)

        let next = pager.loadNext()
        let nextCall = await source.nextCall()
        let outcomes = pager.apply([
            .remove(id: 0), .insert(TestItem(id: 100), at: .last), .update(TestItem(id: 9, version: 1)),
        ])
        #expect(outcomes == [.applied, .applied, .applied])
        #expect(pager.isLoadingNext)
        nextCall.succeed(with: list.page(for: nextCall.request))
        #expect(try await next.value == .loaded)

        #expect(pager.items.ids == Array(1..<10) + [100] + Array(10..<20))
        #expect(pager.items[8].version == 1)
    }

    // MARK: The pager

    @Test("the pager publishes one snapshot per batch, with the batch's change")
    func pagerPublishesOnce() async throws {
        let pager = Pager(source: list.source, configuration: try .testing())
        #expect(try await pager.loadNext().value == .loaded)
        var snapshots = pager.snapshots.makeAsyncIterator()
        let current = await snapshots.next()

        pager.apply([.remove(id: 1), .remove(id: 2), .update(TestItem(id: 5, version: 1))])
        pager.apply([])

        let published = await snapshots.next()
        #expect(published?.version == (current?.version ?? 0) + 1)
        #expect(published?.change == ListChange(removed: [1..<3], updated: [3..<4]))
        #expect(pager.snapshot.version == published?.version, "an empty batch publishes nothing")
    }

    @Test("items(withIDs:) reads the held items and the version they belong to at once")
    func itemsWithIDs() async throws {
        let pager = Pager(source: list.source, configuration: try .testing())
        #expect(try await pager.loadNext().value == .loaded)
        pager.update(TestItem(id: 4, version: 2))

        let (version, items) = pager.items(withIDs: [4, 7, 4, 99])

        #expect(version == pager.snapshot.version)
        #expect(items == [4: TestItem(id: 4, version: 2), 7: TestItem(id: 7)])
    }

    @Test("a change handler runs after the lock is released, before the load's caller resumes")
    func changeHandlerEditsWhatArrived() async throws {
        let pager = Pager(source: list.source, configuration: try .testing())
        #expect(try await pager.loadNext().value == .loaded)
        let seen = Recorder<Int>()
        let handler = pager.addChangeHandler { [weak pager] snapshot in
            seen.record(snapshot.version)
            // It may call the pager: the item that just arrived is edited.
            guard let pager, snapshot.items.count == 20, snapshot.items[12].version == 0 else { return }
            pager.update(TestItem(id: 12, version: 3))
        }

        #expect(try await pager.loadNext().value == .loaded)

        #expect(pager.items[12].version == 3, "edited before loadNext's value came back")
        #expect(seen.count == 3, "the load starting, the page, the handler's own edit")
        pager.removeChangeHandler(handler)
        pager.update(TestItem(id: 12, version: 4))
        #expect(seen.count == 3)
    }

    @Test("a response counts as delivered once its change handlers have run, not when it is taken in")
    func deliveredAfterHandlers() async throws {
        let pager = Pager(source: list.source, configuration: try .testing())
        // What the handler of the page taken in (not of the load starting) sees of the count.
        let seenInHandler = Recorder<Int>()
        _ = pager.addChangeHandler { [weak pager] snapshot in
            guard let pager, !snapshot.items.isEmpty else { return }
            seenInHandler.record(pager.deliveredCount)
        }

        #expect(try await pager.loadNext().value == .loaded)
        await pager.waitUntilDelivered(1)

        #expect(seenInHandler.recorded == [0], "the page's handler ran before its response counted")
        #expect(pager.deliveredCount == 1)
    }

    // MARK: Randomized

    @Test(
        "randomized: a batch does what the edits do one by one, and its change takes the old items to the new"
    )
    func randomizedBatches() throws {
        let seed = SeededGenerator.testSeed()
        print("PagerBatchEditTests.randomizedBatches seed \(seed) (PAGING_SEED=\(seed) replays it)")
        var random = SeededGenerator(seed: seed)
        for round in 0..<200 {
            var machine = try loadedMachine(pages: Int.random(in: 1...4, using: &random))
            var model = Array(machine.items)
            var expected: [Edit.Outcome] = []
            var edits: [Edit] = []
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let id = Int.random(in: 0..<60, using: &random)
                let anchor = Int.random(in: 0..<60, using: &random)
                let index = model.firstIndex { $0.id == id }
                switch Int.random(in: 0..<5, using: &random) {
                case 0, 1:
                    let item = TestItem(id: id, version: round + 1)
                    edits.append(.update(item))
                    if let index { model[index] = item }
                    expected.append(index == nil ? .notHeld : .applied)
                case 2:
                    edits.append(.remove(id: id))
                    if let index { model.remove(at: index) }
                    expected.append(index == nil ? .notHeld : .applied)
                default:
                    let positions: [InsertPosition<Int>] = [.first, .last, .before(anchor), .after(anchor)]
                    let position = positions[Int.random(in: 0..<4, using: &random)]
                    edits.append(.insert(TestItem(id: id), at: position))
                    let anchorIndex = model.firstIndex { $0.id == anchor }
                    let target: Int? =
                        switch position {
                        case .first: 0
                        case .last: model.count
                        case .before: anchorIndex
                        case .after: anchorIndex.map { $0 + 1 }
                        }
                    if index != nil {
                        expected.append(.alreadyHeld)
                    } else if let target {
                        model.insert(TestItem(id: id), at: target)
                        expected.append(.applied)
                    } else {
                        expected.append(.notHeld)
                    }
                }
            }
            let before = machine.snapshot
            let (outcomes, _, _) = machine.apply(edits)
            let after = machine.snapshot
            var rows = Array(before.items)
            if after.version != before.version { after.change.apply(to: &rows, from: after.items) }
            let context = "seed \(seed), round \(round), edits \(edits.map(\.id))"
            #expect(outcomes == expected, "\(context)")
            #expect(Array(after.items) == model, "\(context)")
            #expect(rows == model, "\(context): the change is \(after.change)")
            #expect(after.version == before.version + (expected.contains(.applied) ? 1 : 0), "\(context)")
            if outcomes != expected || rows != model { break }
        }
    }
}
