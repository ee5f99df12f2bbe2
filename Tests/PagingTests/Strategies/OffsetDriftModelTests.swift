import PagingLock
import PagingTestSupport
import PagingTesting
import Testing

@testable import Paging

/// Random reads of an offset list whose server adds and removes items above the reading position
/// between every two requests, seeded: read forward, among the items read; read backward (a
/// reverse source), among those not read yet. Either way the held items' offsets move.
///
/// At the end of each read, every item that was on the server throughout it is held exactly once,
/// in the server's order, and a drift was reported for each load whose key no longer stood for
/// the place where the held items end on the server (start, backward) when it answered the
/// load's last request (whose answer the page is made of: the list may move back between two). The same reads without the check (`checksDrift:
/// false`) give today's figure: the items missed.
///
/// Replay with `PAGING_SEED=<seed> swift test --filter OffsetDriftModel`.
@Suite("OffsetSource drift, model-based", .timeLimit(.minutes(HangLimit.minutes(5))))
struct OffsetDriftModelTests {
    /// A list of items that changes between requests above the reading position.
    final class DriftingServer: Sendable {
        private struct State {
            var items: [TestItem]
            var nextID: Int
            var random: SeededGenerator
            /// Where the reader is: the end of what was sent, forward; its start, backward.
            var reading: Int
            /// The direction of the load under way.
            var forward: Bool
            var requests = 0
            /// The ids removed during the read.
            var removed: Set<Int> = []
            /// The key of the load under way and the ids held, set by the reader before it.
            var expected: (key: Int, held: Set<Int>)?
            /// Whether the list had drifted there when the load's last request was answered:
            /// the page comes from that answer.
            var driftedAtLastRequest = false
            var drifted = 0
            var log: [String] = []
        }
        private let state: Lock<State>
        let forward: Bool
        let sendsTotal: Bool
        /// Whether the list changes before every request (or only when told, ``change()``).
        let changesOnRequest: Bool

        init(count: Int, forward: Bool, sendsTotal: Bool, seed: UInt64, changesOnRequest: Bool = true) {
            self.forward = forward
            self.sendsTotal = sendsTotal
            self.changesOnRequest = changesOnRequest
            state = Lock(
                State(
                    items: (0..<count).map { TestItem(id: $0) }, nextID: count,
                    random: SeededGenerator(seed: seed),
                    reading: forward ? 0 : count, forward: forward))
        }

        /// The items, in list order.
        var items: [TestItem] { state.withLock { $0.items } }
        /// The ids removed during the read.
        var removed: Set<Int> { state.withLock { $0.removed } }
        /// The requests answered, for the message of a failed run.
        var log: [String] { state.withLock { $0.log } }
        /// The load under way ended: counts it if the list had drifted at its last request.
        func loadEnded() {
            state.withLock { state in
                if state.expected != nil, state.driftedAtLastRequest { state.drifted += 1 }
                state.expected = nil
                state.driftedAtLastRequest = false
            }
        }

        /// The loads whose overlapping item had moved when the server answered.
        var drifted: Int { state.withLock { $0.drifted } }

        /// Says the key of the next load and the ids held: the page should start (forward) or
        /// end (backward) at the key, where the held items end (start) on the server.
        func expect(key: Int, held: Set<Int>) {
            state.withLock { $0.expected = (key, held) }
        }

        /// Says which end the next load is at, for a list read both ways: the reader is where
        /// the held items end (forward) or start (backward) on the server now.
        func reading(forward: Bool, held: Set<Int>) {
            state.withLock { state in
                state.forward = forward
                let place =
                    forward
                    ? state.items.lastIndex { held.contains($0.id) }.map { $0 + 1 }
                    : state.items.firstIndex { held.contains($0.id) }
                if let place { state.reading = place }
            }
        }

        func fetch(_ offset: Int, _ limit: Int) -> OffsetPage<TestItem> {
            state.withLock { state in
                if state.requests > 0, changesOnRequest { Self.change(&state) }
                let forward = state.forward
                state.requests += 1
                if let expected = state.expected {
                    // Drifted: the held items end (start, backward) elsewhere than the key says.
                    let boundary =
                        forward
                        ? (state.items.lastIndex { expected.held.contains($0.id) }).map { $0 + 1 }
                        : state.items.firstIndex { expected.held.contains($0.id) }
                    state.driftedAtLastRequest = boundary != expected.key
                }
                let start = min(offset, state.items.count)
                let end = min(state.items.count, offset + limit)
                if forward {
                    state.reading = max(state.reading, end)
                } else {
                    state.reading = min(state.reading, start)
                }
                state.log.append(
                    "\(offset)+\(limit) -> \(state.items[start..<end].map(\.id)) of \(state.items.map(\.id))")
                return OffsetPage(
                    items: Array(state.items[start..<end]), totalCount: sendsTotal ? state.items.count : nil)
            }
        }

        /// Changes the list now, as between two requests.
        func change() {
            state.withLock { Self.change(&$0) }
        }

        /// The page numbered `number` (from 1) of `size` items, as a numbered-page API answers.
        func page(_ number: Int, size: Int) -> NumberedPage<TestItem> {
            let response = fetch((number - 1) * size, size)
            return NumberedPage(
                items: response.items, lastPage: response.totalCount.map { max(1, ($0 + size - 1) / size) })
        }

        /// Up to three additions or removals above the reading position.
        private static func change(_ state: inout State) {
            for _ in 0..<Int.random(in: 0...3, using: &state.random) {
                let range = 0..<state.reading
                guard !range.isEmpty else { return }
                if Bool.random(using: &state.random) {
                    let index = Int.random(in: range.lowerBound...range.upperBound, using: &state.random)
                    state.items.insert(TestItem(id: state.nextID), at: index)
                    state.nextID += 1
                    state.reading += 1
                } else {
                    let index = Int.random(in: range, using: &state.random)
                    state.removed.insert(state.items.remove(at: index).id)
                    state.reading -= 1
                }
            }
        }
    }

    @Test(
        "a read while the list moves above it holds every item that stayed, once, in order, and reports each drift"
    )
    func randomReads() async throws {
        let seed = SeededGenerator.testSeed()
        print("Offset drift model-based test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var missedWithout = 0
        var missedWith = 0
        var drifts = 0
        let minimumDrifts = RandomRuns.count(1_000) + 1
        try await RandomRuns.play(1_000, until: { drifts >= minimumDrifts && missedWithout > 0 }) { run in
            let runSeed = random.next()
            let label = "seed \(seed), run \(run)"
            let checked = try await read(seed: runSeed, checksDrift: true, label: label)
            missedWith += checked.missed
            drifts += checked.drifts
            missedWithout += try await read(seed: runSeed, checksDrift: false, label: label).missed
        }
        print(
            "Offset drift: \(drifts) drifts; items missed without the check \(missedWithout), with it \(missedWith)"
        )
        #expect(missedWith == 0)
        #expect(drifts >= minimumDrifts, "the reads drifted too rarely to test the check")
        #expect(missedWithout > 0, "without the check, the same reads should miss items")
    }

    @Test(
        "a list read both ways from any offset, in any order of loads at its two ends, holds every item that stayed, once, in order"
    )
    func bothWays() async throws {
        let seed = SeededGenerator.testSeed()
        print("Offset drift both ways model-based test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var drifts = 0
        var carried = 0
        let minimumDrifts = RandomRuns.count(500) + 1
        try await RandomRuns.play(600, until: { drifts >= minimumDrifts }) { run in
            let result = try await readBothWays(seed: random.next(), label: "seed \(seed), run \(run)")
            drifts += result.drifts
            carried += result.carried
        }
        print(
            "Offset drift both ways: \(drifts) drifts, \(carried) loads after the last item found theirs carried"
        )
        #expect(drifts >= minimumDrifts, "the reads drifted too rarely to test the check")
    }

    /// One read of a bidirectional list opened at a random offset, loading at a random end each
    /// time until both are reached (the issue's case among them: back to the top, then forward to
    /// the end), the list changing above the end being read before every request; returns the
    /// drifts reported, and how many forward loads were asked with a known shift.
    private func readBothWays(seed: UInt64, label: String) async throws -> (drifts: Int, carried: Int) {
        var random = SeededGenerator(seed: seed)
        // Half the runs are the issue's case: opened at 150 of a long list, with the default
        // window (half a page each side), read back to the top, then forward to the end. The
        // others load at either end in any order, any page size from 1, with a window of 50 (pages
        // of 1 would otherwise look one item around).
        let issueCase = Bool.random(using: &random)
        let count =
            issueCase ? Int.random(in: 151...300, using: &random) : Int.random(in: 1...300, using: &random)
        let server = DriftingServer(
            count: count, forward: true, sendsTotal: Bool.random(using: &random), seed: random.next())
        let pageSize =
            issueCase ? Int.random(in: 10...20, using: &random) : Int.random(in: 1...20, using: &random)
        let backFirst = issueCase || Bool.random(using: &random)
        let source = OffsetSource<TestItem>(.bidirectional, driftWindow: issueCase ? nil : 50) {
            server.fetch($0, $1)
        }
        let requests = Lock<[PageRequest<Int>]>([])
        let recording = RecordingSource(base: source, requests: requests)
        // Opened on an item (a page opened at the end holds none to check the next loads with).
        let pager = Pager(
            source: recording, initialKey: issueCase ? 150 : Int.random(in: 0..<count, using: &random),
            configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0))
        let initial = server.items
        _ = try await pager.loadNext().value
        var loads = 0
        while pager.hasNext || pager.hasPrevious, !Task.isCancelled {
            loads += 1
            guard loads < 2_000 else {
                Issue.record("\(label): the read does not end")
                break
            }
            let forward = !pager.hasPrevious || (pager.hasNext && !backFirst && Bool.random(using: &random))
            let held = Set(pager.items.ids)
            server.reading(forward: forward, held: held)
            if let key = forward ? pager.nextKey : pager.previousKey { server.expect(key: key, held: held) }
            do {
                _ = try await (forward ? pager.loadNext() : pager.loadPrevious()).value
            } catch {
                Issue.record(
                    "\(label): \(error); held \(pager.items.ids), page size \(pageSize), requests:\n\(server.log.suffix(12).joined(separator: "\n"))"
                )
                throw error
            }
            server.loadEnded()
        }
        Self.expectRead(pager, of: initial, server: server, label: "\(label), page size \(pageSize)")
        let carried = requests.withLock { $0.filter { $0.knownShift != 0 }.count }
        return (pager.snapshot.driftCount, carried)
    }

    /// The items that stayed on the server throughout a read and are not held at its end.
    static func missed(_ pager: Pager<Int, TestItem>, of initial: [TestItem], server: DriftingServer) -> [Int]
    {
        let removed = server.removed
        let held = Set(pager.items.ids)
        return initial.map(\.id).filter { !removed.contains($0) && !held.contains($0) }
    }

    /// Checks a read's end: every item that stayed on the server throughout it held once, in the
    /// server's order, and a drift reported for each load whose key had drifted.
    static func expectRead(
        _ pager: Pager<Int, TestItem>, of initial: [TestItem], server: DriftingServer, label: String
    ) {
        let removed = server.removed
        let stayed = initial.filter { !removed.contains($0.id) }.map(\.id)
        let held = pager.items.ids
        #expect(Set(held).count == held.count, "\(label): an item twice in \(held)")
        let missed = Self.missed(pager, of: initial, server: server)
        #expect(
            missed.isEmpty,
            "\(label): missed \(missed); held \(held), requests:\n\(server.log.joined(separator: "\n"))")
        #expect(
            held.filter(Set(stayed).contains) == stayed, "\(label): the items that stayed are out of order")
        let violations = pager.invariantViolations
        #expect(violations.isEmpty, "\(label): the pager's invariants broke: \(violations)")
        let snapshot = pager.snapshot
        #expect(
            snapshot.driftCount == server.drifted,
            "\(label): \(server.drifted) loads drifted, \(snapshot.driftCount) reported")
    }

    /// A source that records the requests it passes on.
    struct RecordingSource: PageSource {
        let base: OffsetSource<TestItem>
        let requests: Lock<[PageRequest<Int>]>
        var checksHeldItems: Bool { base.checksHeldItems }
        func load(_ request: PageRequest<Int>) async throws -> Page<Int, TestItem> {
            requests.withLock { $0.append(request) }
            return try await base.load(request)
        }
    }

    @Test(
        "page numbers checked with the page before: a read while the list moves above it between pages holds every item that stayed, once, in order"
    )
    func pageNumbers() async throws {
        let seed = SeededGenerator.testSeed()
        print("Page-number drift model-based test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var missed = [PageNumberDriftCheck.none: 0, .repeats: 0, .previousPage: 0]
        var drifts = 0
        let minimumDrifts = RandomRuns.count(300) + 1
        try await RandomRuns.play(500, until: { drifts >= minimumDrifts && (missed[.none] ?? 0) > 0 }) {
            run in
            let runSeed = random.next()
            for check in [PageNumberDriftCheck.none, .repeats, .previousPage] {
                let result = try await readPages(
                    seed: runSeed, check: check, label: "seed \(seed), run \(run), \(check)")
                missed[check, default: 0] += result.missed
                if check == .previousPage { drifts += result.drifts }
            }
        }
        print(
            "Page-number drift: \(drifts) drifts; items missed without a check \(missed[.none] ?? 0), checking repeats \(missed[.repeats] ?? 0), with the page before \(missed[.previousPage] ?? 0)"
        )
        #expect(missed[.previousPage] == 0)
        #expect(drifts >= minimumDrifts, "the reads drifted too rarely to test the check")
        #expect((missed[.none] ?? 0) > 0, "without the check, the same reads should miss items")
    }

    /// One read of numbered pages to the end, the list changing before each page; returns the
    /// items that stayed and are not held, and the drifts reported.
    private func readPages(seed: UInt64, check: PageNumberDriftCheck, label: String) async throws -> (
        missed: Int, drifts: Int
    ) {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 0...150, using: &random)
        let server = DriftingServer(
            count: count, forward: true, sendsTotal: Bool.random(using: &random), seed: random.next(),
            changesOnRequest: false)
        let size = Int.random(in: 4...20, using: &random)
        let source = try PageNumberSource<TestItem>(pageSize: size, driftCheck: check) { number, perPage in
            server.page(number, size: perPage)
        }
        let pager = Pager(
            source: source, configuration: try PagingConfiguration(pageSize: size, prefetchDistance: 0))
        let initial = server.items
        _ = try await pager.loadNext().value
        var loads = 0
        while pager.hasNext, !Task.isCancelled {
            loads += 1
            guard loads < 1_000 else {
                Issue.record("\(label): the read does not end")
                break
            }
            server.change()
            _ = try await pager.loadNext().value
        }
        let removed = server.removed
        let stayed = initial.filter { !removed.contains($0.id) }.map(\.id)
        let held = pager.items.ids
        #expect(Set(held).count == held.count, "\(label): an item twice in \(held)")
        let heldSet = Set(held)
        let missed = stayed.filter { !heldSet.contains($0) }
        if check == .previousPage {
            #expect(missed.isEmpty, "\(label): missed \(missed); held \(held)")
            #expect(
                held.filter(Set(stayed).contains) == stayed,
                "\(label): the items that stayed are out of order")
        }
        return (missed.count, pager.snapshot.driftCount)
    }

    /// One read to the end (the start, backward); returns the items that stayed on the server
    /// throughout and are not held, and the drifts reported.
    private func read(seed: UInt64, checksDrift: Bool, label: String) async throws -> (
        missed: Int, drifts: Int
    ) {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 0...150, using: &random)
        let forward = Int.random(in: 0..<10, using: &random) < 7
        let server = DriftingServer(
            count: count, forward: forward, sendsTotal: Bool.random(using: &random) || !forward,
            seed: random.next())
        let pageSize = Int.random(in: 1...20, using: &random)
        let source = OffsetSource<TestItem>(
            forward ? .forward : .reverse, checksDrift: checksDrift, driftWindow: 50
        ) {
            server.fetch($0, $1)
        }
        let pager = Pager(
            source: source, configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0))
        let initial = server.items
        var loads = 0
        _ = try await (forward ? pager.loadNext() : pager.loadPrevious()).value
        while forward ? pager.hasNext : pager.hasPrevious, !Task.isCancelled {
            loads += 1
            guard loads < 1_000 else {
                Issue.record("\(label): the read does not end")
                break
            }
            if let key = forward ? pager.nextKey : pager.previousKey {
                server.expect(key: key, held: Set(pager.items.ids))
            }
            _ = try await (forward ? pager.loadNext() : pager.loadPrevious()).value
            server.loadEnded()
        }
        let missed = Self.missed(pager, of: initial, server: server).count
        guard checksDrift else { return (missed, 0) }
        Self.expectRead(
            pager, of: initial, server: server, label: "\(label), page size \(pageSize), forward \(forward)")
        return (missed, pager.snapshot.driftCount)
    }
}
