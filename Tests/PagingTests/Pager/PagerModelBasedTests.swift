import Foundation
import PagingTestSupport
import PagingTesting
import Testing

@testable import Paging

/// Thousands of random interleavings of every pager operation, with random
/// failures and random completion order, against a scripted source over a
/// known list; the pager's state is checked after every step.
///
/// The list is `0..<total`, paged by offset in both directions, forward only
/// or backward only (a chat), opened at the start, at the very end, or in the
/// middle. In some runs its keys come round again past a point (a cycle).
/// Each reset and refresh "changes the data on the server": the source
/// answers with the version current when the request was made, so a page
/// from before a reset or refresh can be recognised. The source ignores
/// cancellation in half of the runs, so late answers really reach the pager.
///
/// In half of the runs without a cycle, the pages count the items around them, and the pager
/// presents the whole list with placeholders (sometimes with a jump threshold, so that a far
/// placeholder shown jumps); in a third of the runs, the test jumps to random positions
/// (`jump(to:)`), which a bidirectional list does with one request and a one-way list refuses.
/// After every step the presented list is checked: every held item at the position of its
/// offset, placeholders exactly where nothing is loaded, and every presented change applied to
/// the rows before it gives the rows after it. Every snapshot also goes through a separator rule
/// (``HeadRefreshModelTests/separatorRule``): its rows must hold every separator exactly where the
/// rule puts one and nowhere else, and each row change must turn the rows before into those after.
///
/// Replay a failing run with `PAGING_SEED=<seed> swift test --filter PagerModelBased`;
/// add `PAGING_TRACE=<run>` to print that run step by step.
@Suite("Pager, model-based")
struct PagerModelBasedTests {
    @Test("random operations keep the list whole, unique, fresh and its load states consistent")
    func randomInterleavings() async throws {
        let seed = SeededGenerator.testSeed()
        print("Pager model-based test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var steps = 0
        var jumpsLanded = 0
        let (minimumSteps, minimumJumps) = (RandomRuns.count(10_000), RandomRuns.count(20))
        let runs = try await RandomRuns.play(
            250, until: { steps >= minimumSteps && jumpsLanded >= minimumJumps }
        ) {
            run in
            let played = try await playRun(seed: random.next(), label: "seed \(seed), run \(run)")
            steps += played.steps
            jumpsLanded += played.jumpsLanded
        }
        print("Pager model-based: \(runs) runs, \(steps) steps, \(jumpsLanded) jumps landed")
        #expect(steps >= minimumSteps)
        // Jumps, explicit and past the threshold, landed and were checked in many runs.
        #expect(jumpsLanded >= minimumJumps, "only \(jumpsLanded) jumps landed in \(runs) runs")
    }

    /// Found under AddressSanitizer (2026-11-25): a refetch that failed, then loads that moved
    /// the window, then `retry()`. The refetch finished with its plan's pages but the dropped
    /// pages of the moved window, so paging on put a page after the one it precedes.
    @Test(
        "a refetch retried after loads moved the window keeps its order (seed 7732112939956888689, run 236)")
    func retriedRefetchAfterTheWindowMoved() async throws {
        var random = SeededGenerator(seed: 7_732_112_939_956_888_689)
        var runSeed: UInt64 = 0
        for _ in 0...236 { runSeed = random.next() }
        _ = try await playRun(seed: runSeed, label: "seed 7732112939956888689, run 236")
    }

    /// One run: a random list, configuration and script. Returns its steps.
    private func playRun(seed: UInt64, label: String) async throws -> (steps: Int, jumpsLanded: Int) {
        var random = SeededGenerator(seed: seed)
        let total = Int.random(in: 0...60, using: &random)
        let pageSize = Int.random(in: 1...7, using: &random)
        let prefetch = Int.random(in: 0...3, using: &random)
        let window = pageSize + 2 * prefetch
        let limit: PagingConfiguration.HeldLimit? =
            switch Int.random(in: 0..<3, using: &random) {
            case 0: nil
            case 1: .pages(max(2, (window + pageSize - 1) / pageSize) + Int.random(in: 0...2, using: &random))
            default: .items(window + Int.random(in: 0...10, using: &random))
            }
        let initialLoadSize = Int.random(in: 1...9, using: &random)
        let refreshPolicy: PagingConfiguration.RefreshPolicy =
            Bool.random(using: &random) ? .restart : .refetchLoadedPages
        let initialKey: Int? =
            switch Int.random(in: 0..<4, using: &random) {
            case 0: nil
            case 1: 0
            case 2: total  // the very end
            default: Int.random(in: 0...total, using: &random)
            }
        let shape = ShapedList.Shape.allCases.randomElement(using: &random) ?? .bidirectional
        let cycleAt: Int? =
            total >= 2 && Int.random(in: 0..<4, using: &random) == 0
            ? Int.random(in: 1...total, using: &random) : nil
        // Drawn after the older draws, so that a seed replays the runs it gave before.
        let placeholders = cycleAt == nil && Bool.random(using: &random)
        let jumpThreshold =
            placeholders && Bool.random(using: &random)
            ? prefetch + Int.random(in: 1...8, using: &random) : nil
        let jumps = cycleAt == nil && Int.random(in: 0..<3, using: &random) == 0
        let configuration = try PagingConfiguration(
            pageSize: pageSize, initialLoadSize: initialLoadSize, prefetchDistance: prefetch,
            maximumHeld: limit,
            refreshPolicy: refreshPolicy, placeholders: placeholders, jumpThreshold: jumpThreshold)
        let source = ScriptedSource<Int, TestItem>(ignoresCancellation: Bool.random(using: &random))
        let pager = Pager(
            source: JumpableScripted(base: source, canJump: shape == .bidirectional), initialKey: initialKey,
            configuration: configuration)
        let recorder = SnapshotRecorder(pager)
        let context =
            "\(label): total \(total), \(shape), cycle at \(cycleAt.map(String.init) ?? "none"), \(configuration), "
            + "initial key \(String(describing: initialKey))"

        var world = World(
            list: ShapedList(
                total: total, shape: shape, cycleAt: cycleAt, initialKey: initialKey,
                counted: placeholders || jumps),
            jumps: jumps)
        let trace =
            ProcessInfo.processInfo.environment["PAGING_TRACE"].map { label.hasSuffix("run \($0)") } ?? false
        for step in 0..<Int.random(in: 20...80, using: &random) {
            let action = world.chooseAction(
                using: &random, itemCount: placeholders ? pager.snapshot.presented.count : pager.items.count)
            if trace, case .succeed(let index) = action {
                print("  answer \(world.open[index].call.request)")
            }
            let started = pager.requestsStarted
            let versionBefore = pager.snapshot.version
            let load = world.perform(action, on: pager)
            await world.settle(pager, source)
            if case .jump = action, let load {
                if pager.canJump, pager.snapshot.isRefreshing {
                    // One request at most (none when it joined the jump in flight). A position held
                    // already loads nothing but what showing it prefetches.
                    #expect(
                        pager.requestsStarted - started <= 1, "a jump started more than one load — \(context)"
                    )
                } else if !pager.canJump {
                    // Refused at once: no request, nothing changed.
                    let refused = await #expect(throws: PagingError.self) { try await load.value }
                    #expect(refused?.code == .unsupportedOperation, "\(context), step \(step)")
                    #expect(pager.requestsStarted == started && pager.snapshot.version == versionBefore)
                }
            }
            if let target = world.jumpAnswered {
                // The jump's page is in, with the position jumped to; at most one prefetch follows,
                // or one at each end when an items window made the page smaller than a page and the
                // prefetch distance on both sides (`jumpLoadSize`).
                world.jumpAnswered = nil
                world.jumpsLanded += 1
                let prefetches =
                    configuration.jumpLoadSize >= configuration.pageSize + 2 * configuration.prefetchDistance
                        + 2
                    ? 1 : 2
                #expect(
                    pager.requestsStarted - started <= prefetches,
                    "a jump's page set off more than \(prefetches) load(s) — \(context)")
                if total > 0, pager.items.isEmpty {
                    // Past the end of a list whose length was not known: the page before loads.
                    #expect(
                        pager.snapshot.isLoadingPrevious, "a jump past the end loads nothing — \(context)")
                } else if total > 0 {
                    let position = min(target, total - 1)
                    let held =
                        placeholders
                        ? pager.snapshot.presented[position]?.id : pager.items.first { $0.id == position }?.id
                    #expect(held == position, "jumped to \(target), not held — \(context), step \(step)")
                }
            }
            if trace {
                print(
                    "step \(step) \(action): \(pager.items.ids) \(pager.loadStates) open \(world.open.map { "\($0.call.request)\($0.stale ? " stale" : "")" })"
                )
            }
            world.check(
                pager, configuration: configuration, context: "\(context), step \(step), after \(action)")
            try world.checkPresented(
                recorder, placeholders: placeholders, context: "\(context), step \(step), after \(action)")
        }
        // Drain: answer everything.
        while !world.open.isEmpty {
            if trace { print("  drain, answer \(world.open[0].call.request)") }
            world.perform(.succeed(0), on: pager)
            await world.settle(pager, source)
            world.check(pager, configuration: configuration, context: "\(context), draining")
            try world.checkPresented(recorder, placeholders: placeholders, context: "\(context), draining")
        }
        // Then page to both ends, answering every call: each end is reached,
        // or, past a cycle, stopped with repeatedKey; never followed forever.
        for direction in [LoadDirection.next, .previous] {
            var loads = 0
            while true {
                let state = direction == .next ? pager.loadStates.next : pager.loadStates.previous
                if state == .endReached || state.error?.code == .repeatedKey { break }
                loads += 1
                guard loads <= 2 * total + 10 else {
                    Issue.record("paging \(direction) did not end after \(loads) loads — \(context)")
                    break
                }
                world.perform(direction == .next ? .loadNext(nil) : .loadPrevious(nil), on: pager)
                await world.settle(pager, source)
                while !world.open.isEmpty {
                    if trace { print("  to the end, answer \(world.open[0].call.request)") }
                    world.perform(.succeed(0), on: pager)
                    await world.settle(pager, source)
                }
                if trace { print("to the end, \(direction): \(pager.items.ids) \(pager.loadStates)") }
                world.check(pager, configuration: configuration, context: "\(context), paging to the end")
            }
            let state = direction == .next ? pager.loadStates.next : pager.loadStates.previous
            if state.error != nil {
                #expect(
                    world.list.cycleAt != nil && state.error?.code == .repeatedKey,
                    "paging \(direction) failed with \(String(describing: state.error)) — \(context)")
            }
        }
        return (world.steps, world.jumpsLanded)
    }
}

/// What the test knows: the calls it has not answered yet, and which of them
/// were made stale by a reset, refresh or cancel.
private struct World {
    enum Action: CustomStringConvertible {
        case loadNext(Int?), loadPrevious(Int?), refresh, reset, cancel, retry, appeared(Int), jump(Int)
        case succeed(Int), fail(Int)

        var description: String {
            switch self {
            case .loadNext(let count): "loadNext(\(count.map(String.init) ?? "nil"))"
            case .loadPrevious(let count): "loadPrevious(\(count.map(String.init) ?? "nil"))"
            case .refresh: "refresh"
            case .reset: "reset"
            case .cancel: "cancel"
            case .retry: "retry"
            case .appeared(let index): "itemAppeared(at: \(index))"
            case .jump(let index): "jump(to: \(index))"
            case .succeed(let index): "answer call #\(index)"
            case .fail(let index): "fail call #\(index)"
            }
        }
    }

    struct OpenCall {
        let call: ScriptedSource<Int, TestItem>.Call
        let version: Int
        var stale = false
        /// The position a jump asked for, when the call is a jump's.
        var jumpTarget: Int?
    }

    let list: ShapedList
    /// Whether the test jumps (`jump(to:)`) among its actions.
    let jumps: Bool
    /// The position of the jump whose page was just answered, to check it is held.
    var jumpAnswered: Int?
    /// How many jumps' pages were answered and checked.
    var jumpsLanded = 0
    /// The position of the jump just asked for, given to the call it starts.
    private var jumpAsked: Int?
    /// The presented rows a screen would show, following every snapshot's presented change, and
    /// how many snapshots they followed.
    private var presentedRows: [TestItem?] = []
    private var presentedFollowed = 0
    /// The rows with separators a list would show, kept by each snapshot's row change.
    private var separators = SeparatorTransform(HeadRefreshModelTests.separatorRule)
    private var separatedRows: [PagedRow<TestItem, String>] = []
    var total: Int { list.total }
    var version = 0
    var open: [OpenCall] = []
    var steps = 0
    /// The version of the data the list shows, once a first page arrived.
    var shownVersion: Int?

    init(list: ShapedList, jumps: Bool) {
        self.list = list
        self.jumps = jumps
    }

    /// The ids of the list when the last refresh that refetches began, to
    /// check that it keeps the list's length.
    var refetchBaseline: [Int]?

    func chooseAction(using random: inout SeededGenerator, itemCount: Int) -> Action {
        let count: Int? = Bool.random(using: &random) ? nil : Int.random(in: 1...5, using: &random)
        let roll = Int.random(in: 0..<100, using: &random)
        if !open.isEmpty, roll < 45 {
            let index = Int.random(in: 0..<open.count, using: &random)
            return roll < 35 ? .succeed(index) : .fail(index)
        }
        switch roll % 11 {
        case 0, 1: return .loadNext(count)
        case 2, 3: return .loadPrevious(count)
        case 4: return .refresh
        case 5: return .reset
        case 6: return .cancel
        case 7: return .retry
        case 9 where jumps, 10 where jumps: return .jump(Int.random(in: 0...(total + 1), using: &random))
        default: return .appeared(Int.random(in: -1...(itemCount + 1), using: &random))
        }
    }

    @discardableResult
    mutating func perform(_ action: Action, on pager: Pager<Int, TestItem>) -> PageLoad? {
        steps += 1
        switch action {
        case .loadNext(let count): pager.loadNext(count: count)
        case .loadPrevious(let count): pager.loadPrevious(count: count)
        case .refresh:
            version += 1
            markAllStale()
            // A refresh refetches the pages held now (the items shown, even
            // while another refresh is in flight); a retried one, those held
            // when it started.
            refetchBaseline =
                pager.configuration.refreshPolicy == .refetchLoadedPages && !pager.items.isEmpty
                ? pager.items.ids : nil
            pager.refresh()
        case .reset:
            version += 1
            markAllStale()
            refetchBaseline = nil
            pager.reset()
        case .cancel:
            markAllStale()
            // A cancelled refresh is over; a failed one waits for retry(),
            // which repeats the same refetch.
            if pager.snapshot.isRefreshing { refetchBaseline = nil }
            pager.cancel()
        case .retry: pager.retry()
        case .appeared(let index):
            let refreshing = pager.snapshot.isRefreshing
            pager.itemAppeared(at: index)
            if !refreshing, pager.snapshot.isRefreshing {
                // A placeholder past the jump threshold: jumped to. A failed refetch is not owed.
                refetchBaseline = nil
                jumpAsked = index
            }
        case .jump(let index):
            // Unless the position is held already (then nothing loads), the jump takes the place of
            // a refresh in flight: no refetch is owed any more.
            let snapshot = pager.snapshot
            let position = min(index, max(0, total - 1))
            let held =
                pager.configuration.placeholders
                ? snapshot.presented[position] != nil && snapshot.presented.indices.contains(position)
                : snapshot.items.contains { $0.id == position }
            if !held || snapshot.isRefreshing { refetchBaseline = nil }
            jumpAsked = index
            return pager.jump(to: index)
        case .succeed(let index), .fail(let index):
            let answered = open.remove(at: index)
            let before = pager.snapshot
            if case .succeed = action {
                answered.call.succeed(with: list.page(for: answered.call.request, version: answered.version))
            } else {
                answered.call.fail(with: SourceFailure())
            }
            if answered.stale {
                // No response started before a reset, refresh or cancel is applied.
                lateAnswer = (before, answered)
            } else if case .succeed = action, before.isRefreshing {
                refreshAnswer = answered
                jumpAnswered = answered.jumpTarget
            }
        }
        return nil
    }

    /// A stale call just answered, and the snapshot before the answer.
    var lateAnswer: (PagingSnapshot<TestItem>, OpenCall)?
    /// A live call answered while a refresh (or first load) was in flight.
    var refreshAnswer: OpenCall?

    private mutating func markAllStale() {
        for index in open.indices { open[index].stale = true }
    }

    /// Waits until every answer given has been taken in by the pager and
    /// every load it started has reached the source, then records the new
    /// calls with the data version they will see.
    mutating func settle(_ pager: Pager<Int, TestItem>, _ source: ScriptedSource<Int, TestItem>) async {
        while true {
            let started = pager.startedRequestCount
            await source.waitUntilSettled(calls: started)
            // Every started load is answered exactly once: by the test, or by
            // the source's cancellation. Those still waiting are not yet.
            await pager.waitUntilDelivered(started - source.pendingCount)
            // Taking in an answer may start a load (a refresh going on).
            if pager.startedRequestCount == started { break }
        }
        for call in source.takeUnclaimed() {
            // A jump starts one call, a first one: the one it asked for.
            var target: Int?
            if case .initial = call.request.position { target = jumpAsked }
            open.append(OpenCall(call: call, version: version, jumpTarget: target))
        }
        jumpAsked = nil
        // The pager may cancel a load on its own (the window dropped the page
        // it continued, a retried refresh outranks it): such a call is stale too.
        let cancelled = Set(source.cancelledCalls)
        for index in open.indices where cancelled.contains(open[index].call.number) {
            open[index].stale = true
        }
        // And every call a reset, refresh or cancel made stale was cancelled.
        for call in open where call.stale {
            #expect(cancelled.contains(call.call.number), "stale call \(call.call.request) was not cancelled")
        }
    }

    /// Follows the snapshots recorded since the last call with their presented changes, and checks
    /// the presented list: the rows followed equal the rows presented; with placeholders, every
    /// item held is at the position of its offset (counted from where the list can start) and
    /// placeholders stand exactly for the items not held; a change between lists of one length
    /// only updates rows (nothing the screen shows moves).
    mutating func checkPresented(
        _ recorder: SnapshotRecorder<Int, TestItem>, placeholders: Bool, context: String
    ) throws {
        let recorded = recorder.recorded
        if presentedFollowed == 0, let first = recorded.first {
            presentedRows = Array(first.presented)
            separatedRows = Array(separators.apply(first).rows)
            presentedFollowed = 1
        }
        for snapshot in recorded.dropFirst(presentedFollowed) {
            let separated = separators.apply(snapshot)
            let rows = Array(separated.rows)
            try separated.change.checkedApply(to: &separatedRows, from: rows)
            #expect(sameRows(separatedRows, rows), "a row changed and was not reported — \(context)")
            #expect(
                sameRows(rows, expectedRows(snapshot, rule: HeadRefreshModelTests.separatorRule)),
                "separators \(rows.map(\.id)) are not where the rule puts them — \(context)")
            let countBefore = presentedRows.count
            try snapshot.presentedChange.checkedApply(to: &presentedRows, from: snapshot.presented)
            if countBefore == snapshot.presented.count, placeholders {
                #expect(
                    snapshot.presentedChange.inserted.isEmpty && snapshot.presentedChange.removed.isEmpty,
                    "rows inserted or removed by \(snapshot.presentedChange) — \(context)")
            }
        }
        presentedFollowed = recorded.count
        guard let snapshot = recorded.last else { return }
        #expect(presentedRows == Array(snapshot.presented), "presented rows differ — \(context)")
        guard placeholders, let first = snapshot.items.first,
            let last = snapshot.items.last
        else { return }
        #expect(
            snapshot.placeholdersBefore == (snapshot.hasPrevious ? first.id : 0),
            "\(snapshot.placeholdersBefore) placeholders before \(first.id) — \(context)")
        #expect(
            snapshot.placeholdersAfter == (snapshot.hasNext ? total - 1 - last.id : 0),
            "\(snapshot.placeholdersAfter) placeholders after \(last.id) of \(total) — \(context)")
    }

    mutating func check(_ pager: Pager<Int, TestItem>, configuration: PagingConfiguration, context: String) {
        let snapshot = pager.snapshot
        let violations = pager.invariantViolations
        #expect(violations.isEmpty, "the pager's invariants broke: \(violations) — \(context)")
        let ids = snapshot.items.ids

        // No item twice, none skipped between the first and the last. (Past a
        // cycle, the keys lead back to items held already: only no item twice.)
        if list.cycleAt == nil, let first = ids.first {
            #expect(
                ids == Array(first..<first + ids.count), "items not one unbroken run: \(ids) — \(context)")
        }
        #expect(Set(ids).count == ids.count, "an item twice: \(ids) — \(context)")
        // A refresh that completed shows only the data of its own version. (After
        // a refresh that failed or was cancelled, the old items stay, and pages
        // loaded later come from the newer data: versions may then mix.)
        let versions = Set(snapshot.items.map(\.version))
        if let answered = refreshAnswer, !snapshot.isRefreshing, snapshot.loadStates.refresh.error == nil {
            #expect(
                versions.isSubset(of: [answered.version]), "refresh left versions \(versions) — \(context)")
            // A refetch of the loaded pages keeps the list as it was, page for page.
            if let baseline = refetchBaseline, list.cycleAt == nil {
                #expect(ids == baseline, "refetch turned \(baseline) into \(ids) — \(context)")
            }
            refetchBaseline = nil
        }
        refreshAnswer = nil
        // A late answer to a stale call changes nothing.
        if let (before, answered) = lateAnswer {
            #expect(
                snapshot.version == before.version && snapshot.items == before.items,
                "stale answer to \(answered.call.request) was applied — \(context)")
            lateAnswer = nil
        }
        // The oldest data shown never gets older: that would be a stale page.
        if let oldest = versions.min() {
            #expect(oldest >= (shownVersion ?? 0), "data of version \(oldest) shown again — \(context)")
        }

        // Load states agree with the calls in flight: one live call per loading slot.
        let loading = [snapshot.loadStates.refresh, snapshot.loadStates.next, snapshot.loadStates.previous]
            .filter(\.isLoading).count
        let live = open.filter { !$0.stale }.count
        #expect(loading == live, "\(loading) slots loading but \(live) live calls — \(context)")
        if snapshot.isRefreshing {
            #expect(
                !snapshot.isLoadingNext && !snapshot.isLoadingPrevious, "loads beside a refresh — \(context)")
        }
        // An end reported reached is the real end of what the source can
        // reach (past a cycle, the pager may stop at the cycle instead).
        let reachable = list.reachable
        if list.cycleAt == nil, !ids.isEmpty {
            if !snapshot.hasNext {
                #expect(
                    ids.last == reachable.upperBound - 1,
                    "end reported early at \(ids.last ?? -1) — \(context)")
            }
            if !snapshot.hasPrevious {
                #expect(
                    ids.first == reachable.lowerBound,
                    "start reported early at \(ids.first ?? -1) — \(context)")
            }
        }
        if ids.isEmpty, !snapshot.hasNext, !snapshot.hasPrevious {
            #expect(reachable.isEmpty, "an empty list with both ends reached — \(context)")
        }
        #expect(
            (snapshot.loadStates.next == .endReached) == !snapshot.hasNext,
            "next state vs hasNext — \(context)")
        #expect(
            (snapshot.loadStates.previous == .endReached) == !snapshot.hasPrevious,
            "previous state vs hasPrevious — \(context)")
        // The window holds.
        switch configuration.maximumHeld {
        case .pages(let limit):
            #expect(snapshot.items.pageCount <= limit, "\(snapshot.items.pageCount) pages held — \(context)")
        case .items(let limit):
            #expect(
                snapshot.items.count <= limit || snapshot.items.pageCount == 1,
                "\(snapshot.items.count) items held — \(context)")
        case nil:
            break
        }
        if let oldest = versions.min() { shownVersion = oldest }
    }
}

/// The list `0..<total` keyed by offset, paged as a backend of one shape
/// pages it.
struct ShapedList: Sendable {
    enum Shape: CaseIterable, Sendable {
        /// Both ways, from an offset.
        case bidirectional
        /// Forward only: no page has a previous key.
        case forward
        /// Backward only (a chat): the first page ends at the initial key (at
        /// the end without one), and no page has a next key.
        case reverse
    }

    let total: Int
    let shape: Shape
    /// Past this offset, a page's next key leads back to the start: the
    /// keys come round again.
    let cycleAt: Int?
    let initialKey: Int?
    /// Whether its pages count the items before and after them.
    var counted = false

    /// The items the source can reach from where it opens.
    var reachable: Range<Int> {
        switch shape {
        case .bidirectional: 0..<total
        case .forward: min(max(0, initialKey ?? 0), total)..<total
        case .reverse: 0..<min(max(0, initialKey ?? total), total)
        }
    }

    /// The page a request asks for, as the data of a version has it.
    func page(for request: PageRequest<Int>, version: Int) -> Page<Int, TestItem> {
        let range: Range<Int>
        if shape == .reverse, case .initial(let key) = request.position {
            // The first page of a chat ends at its key, or at the end.
            let end = min(max(0, key ?? total), total)
            range = max(0, end - request.count)..<end
        } else {
            range = NumberList.range(for: request, total: total)
        }
        var nextKey = shape != .reverse && range.upperBound < total ? range.upperBound : nil
        if let cycleAt, shape != .reverse, range.upperBound >= cycleAt {
            // Round again, to the page after the first item.
            nextKey = 1
        }
        var page = Page(
            items: range.map { TestItem(id: $0, version: version) },
            previousKey: shape != .forward && range.lowerBound > 0 ? range.lowerBound : nil,
            nextKey: nextKey)
        if counted {
            page.itemsBefore = range.lowerBound
            page.itemsAfter = total - range.upperBound
        }
        return page
    }
}
