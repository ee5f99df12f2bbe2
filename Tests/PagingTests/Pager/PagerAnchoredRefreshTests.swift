import Paging
import PagingLock
import PagingTestSupport
import PagingTesting
import Testing

/// `refresh(around:)` and `PagedList.refreshAroundAnchor()`: the page around the item the user
/// looks at loaded again, the near side kept, the far side dropped.
@Suite("Pager, anchored refresh", .timeLimit(.minutes(HangLimit.minutes(1))))
struct PagerAnchoredRefreshTests {
    /// A Relay backend over the ids given, in order.
    private static func backend(_ ids: some Sequence<Int>) -> RelayConnectionBackend<TestItem> {
        RelayConnectionBackend(ids.map { TestItem(id: $0) }, cursor: { "c\($0.id)" })
    }

    /// A pager over a backend paged forward.
    private static func forwardPager(
        _ backend: RelayConnectionBackend<TestItem>, _ configuration: PagingConfiguration
    ) -> Pager<String, TestItem> {
        Pager(
            source: RelayCursorSource<TestItem>(.forward) { try backend.connection($0) },
            configuration: configuration)
    }

    /// Every recorded change, replayed checked on the rows of the first snapshot, gives the list.
    private static func expectChangesReplay(_ recorder: SnapshotRecorder<String, TestItem>) throws {
        #expect(try recorder.replayedRows() == Array(try #require(recorder.last).items))
    }

    @Test(
        "a list paged forward: the anchor's page and the next load again, the pages above stay, the anchor keeps its index"
    )
    func forward() async throws {
        let backend = Self.backend((0..<100).reversed())
        let pager = Self.forwardPager(backend, try .testing(pageSize: 10))
        for _ in 0..<5 { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array((50..<100).reversed()))
        let anchorIndex = try #require(pager.index(of: 72))
        let recorder = SnapshotRecorder(pager)
        let requests = backend.received.count

        backend.edit { nodes in
            // In the anchor's page: one gone, one new above the anchor, one changed below it.
            nodes.removeAll { $0.id == 78 }
            if let index = nodes.firstIndex(where: { $0.id == 76 }) {
                nodes.insert(TestItem(id: 200), at: index + 1)
            }
            if let index = nodes.firstIndex(where: { $0.id == 71 }) { nodes[index].version = 1 }
            // Above it: not refreshed.
            nodes.insert(TestItem(id: 300), at: 0)
            nodes.removeAll { $0.id == 95 }
        }
        #expect(try await pager.refresh(around: 72).value == .loaded)
        #expect(backend.received.count == requests + 2)
        #expect(backend.received.suffix(2).first == RelayArguments(first: 10, after: "c80"))
        let expected =
            Array((80..<100).reversed()) + [79, 77, 76, 200, 75, 74, 73, 72, 71, 70]
            + Array((60..<70).reversed())
        #expect(pager.items.ids == expected)
        #expect(pager.index(of: 72) == anchorIndex)
        #expect(pager.items.first { $0.id == 71 }?.version == 1)
        try Self.expectChangesReplay(recorder)
        // The pages beyond were dropped; they come back from the fresh keys.
        #expect(pager.hasNext)
        _ = try await pager.loadNext().value
        #expect(Array(pager.items.ids.suffix(10)) == Array((50..<60).reversed()))
    }

    @Test(
        "a chat paged backward: the anchor's page and the one before load again, the newer pages below stay")
    func backward() async throws {
        let backend = Self.backend(0..<60)
        let pager = Pager(
            source: RelayCursorSource<TestItem>(.reverse) { try backend.connection($0) },
            configuration: try .testing(pageSize: 10))
        for _ in 0..<4 { _ = try await pager.loadPrevious().value }
        #expect(pager.items.ids == Array(20..<60))
        let fromEnd = pager.items.count - 1 - (try #require(pager.index(of: 35)))
        backend.edit { nodes in
            nodes.removeAll { $0.id == 33 }
            nodes.removeAll { $0.id == 21 }
        }
        let recorder = SnapshotRecorder(pager)
        #expect(try await pager.refresh(around: 35).value == .loaded)
        // The anchor's page and the one before it again (18 and 19 come in: 33 and 21 are gone); 40…59 kept.
        let ids = pager.items.ids
        #expect(ids == [18, 19, 20] + Array(22..<33) + Array(34..<60))
        try Self.expectChangesReplay(recorder)
        #expect(pager.items.count - 1 - (try #require(pager.index(of: 35))) == fromEnd)
        #expect(pager.hasPrevious)
    }

    @Test(
        "a chat's newest page (its first, the last n) reloads backward: messages new at its end come, none above is lost"
    )
    func chatNewest() async throws {
        let backend = Self.backend(0..<60)
        let pager = Pager(
            source: RelayCursorSource<TestItem>(.reverse) { try backend.connection($0) },
            configuration: try .testing(pageSize: 10))
        for _ in 0..<4 { _ = try await pager.loadPrevious().value }
        #expect(pager.items.ids == Array(20..<60))
        backend.edit { $0.append(contentsOf: (60..<63).map { TestItem(id: $0) }) }
        let recorder = SnapshotRecorder(pager)
        #expect(try await pager.refresh(around: 55).value == .loaded)
        // The last 10 again (53…62), then the 10 before them (43…52); the older pages beyond go.
        #expect(pager.items.ids == Array(43..<63))
        try Self.expectChangesReplay(recorder)
        #expect(pager.hasPrevious)
        _ = try await pager.loadPrevious().value
        #expect(Array(pager.items.ids.prefix(10)) == Array(33..<43))
    }

    @Test("a failed anchored refresh retried after loads dropped the anchor's page refreshes by the policy")
    func retryAfterTheWindowMoved() async throws {
        let backend = Self.backend((0..<100).reversed())
        let failing = FailingOnce()
        let pager = Pager(
            source: FlakySource(backend: backend, failing: failing),
            configuration: try .testing(pageSize: 10, maximumHeld: .pages(3)))
        for _ in 0..<3 { _ = try await pager.loadNext().value }
        failing.arm()
        await #expect(throws: PagingError.self) { try await pager.refresh(around: 85).value }
        // The window moves on: the anchor's page (89…80) is dropped.
        _ = try await pager.loadNext().value
        _ = try await pager.loadNext().value
        #expect(pager.index(of: 85) == nil)
        #expect(try await pager.retry().value == .loaded)
        // A restart (the default policy), not the two pages put where nothing leads to them.
        #expect(pager.items.ids == Array((90..<100).reversed()))
    }

    @Test(
        "the same retry under the head-reattaching policy refreshes the head: the first pages, not the pages held refetched"
    )
    func retryAfterTheWindowMovedReattachingTheHead() async throws {
        let backend = Self.backend((0..<100).reversed())
        let failing = FailingOnce()
        let pager = Pager(
            source: FlakySource(backend: backend, failing: failing),
            configuration: try .testing(
                pageSize: 10, maximumHeld: .pages(3), refreshPolicy: .reattachHead(maximumPages: 2)))
        for _ in 0..<3 { _ = try await pager.loadNext().value }
        failing.arm()
        await #expect(throws: PagingError.self) { try await pager.refresh(around: 85).value }
        _ = try await pager.loadNext().value
        _ = try await pager.loadNext().value
        #expect(pager.items.ids == Array((50..<80).reversed()))
        let requests = backend.received.count
        #expect(try await pager.retry().value == .loaded)
        // Two pages from the top reach none of 79…50: the list is those two pages.
        #expect(pager.items.ids == Array((80..<100).reversed()))
        #expect(backend.received.suffix(backend.received.count - requests).map(\.after) == [nil, "c90"])
    }

    @Test("its requests are not reloads: a source that keeps pages must not answer them from what it kept")
    func notAReload() async throws {
        let backend = Self.backend((0..<40).reversed())
        let reloads = Lock<[Bool]>([])
        let source = RelayCursorSource<TestItem>(.forward) { try backend.connection($0) }
        let pager = Pager(
            source: ReloadRecording(base: source, reloads: reloads), configuration: try .testing(pageSize: 10)
        )
        for _ in 0..<3 { _ = try await pager.loadNext().value }
        #expect(try await pager.refresh(around: 25).value == .loaded)
        #expect(reloads.withLock { $0 } == [false, false, false, false, false])
    }

    @Test(
        "a source whose keys may be single-use refuses it, and nothing is asked; an item not held is refused")
    func refusals() async throws {
        let calls = Counter()
        let source = NextTokenSource<Int, TestItem> { token, count in
            calls.increment()
            let start = token ?? 0
            return TokenPage(
                items: (start..<start + count).map { TestItem(id: $0) }, nextToken: start + count)
        }
        let pager = Pager(source: source, configuration: try .testing(pageSize: 10))
        _ = try await pager.loadNext().value
        await #expect {
            try await pager.refresh(around: 3).value
        } throws: { error in
            (error as? PagingError)?.code == .unsupportedOperation
        }
        #expect(calls.count == 1)
        #expect(pager.items.ids == Array(0..<10))

        let backend = Self.backend(0..<30)
        let relay = Pager(
            source: RelayCursorSource<TestItem>(.forward) { try backend.connection($0) }.map { $0 },
            configuration: try .testing(pageSize: 10))
        _ = try await relay.loadNext().value
        await #expect {
            try await relay.refresh(around: 25).value
        } throws: { error in
            (error as? PagingError)?.code == .invalidArgument
        }
        // Through map, the source is still reloadable.
        #expect(try await relay.refresh(around: 5).value == .loaded)
    }

    @MainActor
    @Test(
        "the list's anchor is the last item shown, followed through changes; gone, its neighbour takes its place"
    )
    func listAnchor() async throws {
        let backend = Self.backend((0..<50).reversed())
        let list = PagedList(
            source: RelayCursorSource<TestItem>(.forward) { try backend.connection($0) },
            configuration: try .testing(pageSize: 10))
        _ = try await list.loadNext().value
        _ = try await list.loadNext().value
        #expect(list.anchor == nil)
        list.itemAppeared(at: 13)
        #expect(list.anchor == 36)
        // An item removed above it moves it up; the anchor stays the same item.
        list.remove(id: 45)
        #expect(list.anchor == 36)
        // Gone from the server: after the refresh, the item that took its place is the anchor.
        backend.edit { $0.removeAll { $0.id == 36 } }
        _ = try await list.refreshAroundAnchor().value
        #expect(list.anchor == 35)
        #expect(!list.items.ids.contains(36))
        // Removed locally: the next item takes its place.
        list.remove(id: 35)
        #expect(list.anchor == 34)
    }

    @MainActor
    @Test("an item reported shown by value is the anchor too")
    func listAnchorByItem() async throws {
        let backend = Self.backend((0..<30).reversed())
        let list = PagedList(
            source: RelayCursorSource<TestItem>(.forward) { try backend.connection($0) },
            configuration: try .testing(pageSize: 10))
        _ = try await list.loadNext().value
        list.itemAppeared(list.items[4])
        #expect(list.anchor == 25)
        list.remove(id: 29)
        list.remove(id: 25)
        #expect(list.anchor == 24)
    }
}

/// A switch a test arms to make the next load fail.
final class FailingOnce: Sendable {
    private let armed = Lock(false)
    func arm() { armed.withLock { $0 = true } }
    /// Whether this load fails (and disarms).
    func take() -> Bool {
        armed.withLock { armed in
            defer { armed = false }; return armed
        }
    }
}

/// A Relay source over a backend whose next load fails when armed; reloadable, as cursors are.
struct FlakySource: ReloadablePageSource {
    struct Failure: Error {}
    let backend: RelayConnectionBackend<TestItem>
    let failing: FailingOnce
    private var relay: RelayCursorSource<TestItem> {
        RelayCursorSource(.forward) { [backend] in try backend.connection($0) }
    }

    init(backend: RelayConnectionBackend<TestItem>, failing: FailingOnce) {
        self.backend = backend
        self.failing = failing
    }

    func load(_ request: PageRequest<String>) async throws -> Page<String, TestItem> {
        if failing.take() { throw Failure() }
        return try await relay.load(request)
    }
}

/// A reloadable source that records whether each request was marked a reload.
private struct ReloadRecording<Base: ReloadablePageSource>: ReloadablePageSource {
    let base: Base
    let reloads: Lock<[Bool]>
    func load(_ request: PageRequest<Base.Key>) async throws -> Page<Base.Key, Base.Item> {
        reloads.withLock { $0.append(request.isReload) }
        return try await base.load(request)
    }
}
