import Paging
import PagingTesting
import Testing

/// The doubles an app tests its paging code with, tested through the
/// engine as an app would use them.
@Suite("the testing doubles")
struct PagingTestingTests {
    struct Row: Identifiable, Sendable, Equatable {
        let id: Int
    }

    @Test("a scripted source holds each load until the test answers, in any order, and records the requests")
    func scriptedSource() async throws {
        let source = ScriptedSource<Int, Row>()
        let pager = Pager(source: source)
        let first = pager.loadNext()
        let call = await source.nextCall()
        #expect(call.number == 1)
        #expect(pager.loadStates.refresh == .loading)  // the first load opens the list
        call.succeed(with: Page(items: [Row(id: 1), Row(id: 2)], nextKey: 2))
        _ = try await first.value
        #expect(pager.items.map(\.id) == [1, 2])

        let second = pager.loadNext()
        let failing = await source.nextCall()
        #expect(pager.isLoadingNext)
        failing.fail(with: Refused())
        await #expect(throws: PagingError.self) { try await second.value }
        #expect(pager.items.map(\.id) == [1, 2])
        #expect(source.requests.count == 2)
        #expect(source.pendingCount == 0)
    }

    @Test("a cancelled load throws at once, and the gate lists it as cancelled")
    func cancellation() async throws {
        let gate = FetchGate<Int>()
        let task = Task { try await gate.pass(7) }
        let arrival = await gate.nextArrival()
        #expect(arrival.arguments == 7)
        #expect(gate.waitingCount == 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(gate.cancelledCalls == [1])
        #expect(gate.waitingCount == 0)
        arrival.open()  // too late: nothing waits any more, and nothing breaks
    }

    @Test("waitUntilSettled returns once the calls have all arrived")
    func settled() async throws {
        let gate = CallGate<String, Int>()
        let one = Task { try await gate.wait("a") }
        let two = Task { try await gate.wait("b") }
        await gate.waitUntilSettled(calls: 2)
        let calls = gate.takeUnclaimed()
        #expect(Set(calls.map(\.arguments)) == ["a", "b"])
        for call in calls { call.answer(call.arguments == "a" ? 1 : 2) }
        #expect(try await one.value == 1)
        #expect(try await two.value == 2)
        #expect(Set(gate.allArguments) == ["a", "b"])
    }

    @Test("the snapshot recorder sees every snapshot in order, the current one first")
    func snapshots() async throws {
        let source = ScriptedSource<Int, Row>()
        let pager = Pager(source: source)
        let snapshots = SnapshotRecorder(pager)
        let load = pager.loadNext()
        await source.nextCall().succeed(with: Page(items: [Row(id: 1)]))
        _ = try await load.value
        let versions = snapshots.recorded.map(\.version)
        #expect(versions == versions.sorted())
        #expect(Set(versions).count == versions.count)
        #expect(snapshots.recorded.first?.items.isEmpty == true)
        #expect(snapshots.last?.items.map(\.id) == [1])
        #expect(snapshots.recorded.contains { $0.loadStates.refresh == .loading })
    }

    @Test("a list waits until it shows its pager's snapshot, and a pager counts its responses")
    @MainActor
    func catchingUp() async throws {
        let source = ScriptedSource<Int, Row>()
        let list = PagedList(source: source)
        let load = list.pager.loadNext()
        await source.nextCall().succeed(with: Page(items: [Row(id: 1), Row(id: 2)]))
        _ = try await load.value
        await list.pager.waitUntilResponsesTaken(1)
        #expect(list.pager.requestsStarted == 1)
        await list.waitUntilCaughtUp()
        #expect(list.items.map(\.id) == [1, 2])
    }

    @Test("equal seeds give equal sequences; the first values of seed 0 are SplitMix64's")
    func seededGenerator() {
        var a = SeededGenerator(seed: 2026)
        var b = SeededGenerator(seed: 2026)
        #expect((0..<100).map { _ in a.next() } == (0..<100).map { _ in b.next() })
        // The published SplitMix64 reference outputs for seed 0.
        var zero = SeededGenerator(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
        #expect(zero.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("a sleep recorder records the waits asked for and returns at once")
    func sleeps() async throws {
        let sleeps = Recorder<Duration>()
        try await sleeps.sleep(.seconds(2))
        try await sleeps.sleep(.milliseconds(5))
        #expect(sleeps.recorded == [.seconds(2), .milliseconds(5)])
        #expect(sleeps.count == 2)
        let counter = Counter()
        counter.increment()
        counter.increment(by: 2)
        #expect(counter.count == 3)
    }

    struct Refused: Error {}
}
