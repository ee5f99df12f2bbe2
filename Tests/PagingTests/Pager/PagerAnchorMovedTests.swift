import Paging
import PagingTestSupport
import PagingTesting
import Testing

/// `refresh(around:)` when the anchor's own sort key moved it: the refresh reads the near side
/// again until it finds the anchor, so that a moved anchor is never lost from the list; the reader
/// follows it to its new place.
@Suite("Pager, anchored refresh of an anchor that moved", .timeLimit(.minutes(HangLimit.minutes(1))))
struct PagerAnchorMovedTests {
    /// A Relay backend over the ids given, in order.
    private static func backend(_ ids: some Sequence<Int>) -> RelayConnectionBackend<TestItem> {
        RelayConnectionBackend(ids.map { TestItem(id: $0) }, cursor: { "c\($0.id)" })
    }

    /// A list of 99…50, newest first, in five pages of 10, paged forward.
    private static func forwardList() async throws -> (
        RelayConnectionBackend<TestItem>, Pager<String, TestItem>
    ) {
        let backend = backend((0..<100).reversed())
        let pager = Pager(
            source: RelayCursorSource<TestItem>(.forward) { try backend.connection($0) },
            configuration: try .testing(pageSize: 10))
        for _ in 0..<5 { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array((50..<100).reversed()))
        return (backend, pager)
    }

    /// Moves an item to just before another one on the backend.
    private static func move(_ id: Int, before other: Int, in backend: RelayConnectionBackend<TestItem>) {
        backend.edit { nodes in
            guard let from = nodes.firstIndex(where: { $0.id == id }) else { return }
            let item = nodes.remove(at: from)
            nodes.insert(item, at: nodes.firstIndex { $0.id == other } ?? nodes.endIndex)
        }
    }

    @Test(
        "moved up into the page above: that page is read again with it, the anchor is at its new place, the pages above stay"
    )
    func movedIntoThePageAbove() async throws {
        let (backend, pager) = try await Self.forwardList()
        let recorder = SnapshotRecorder(pager)
        let requests = backend.received.count
        Self.move(72, before: 84, in: backend)
        #expect(try await pager.refresh(around: 72).value == .loaded)
        // Two pages after 80 (no 72), then three from after 90: 89…81 with 72, and on.
        let asked = backend.received.dropFirst(requests).map(\.after)
        #expect(asked.count == 5)
        #expect(asked.first == "c80")
        #expect(asked.dropFirst(2).first == "c90")
        #expect(pager.items.ids == Array(backend.nodes.map(\.id).prefix(40)))
        #expect(pager.index(of: 72) == 15)
        #expect(try recorder.replayedRows() == Array(try #require(recorder.last).items))
        // The first page was not read again: its rows are the same values, unchanged.
        #expect(
            recorder.recorded.dropFirst().allSatisfy { $0.change.removed.allSatisfy { $0.lowerBound >= 10 } })
    }

    @Test("moved to the top: the second wider attempt reads the whole near side, from the first page")
    func movedToTheTop() async throws {
        let (backend, pager) = try await Self.forwardList()
        let requests = backend.received.count
        Self.move(72, before: 99, in: backend)
        #expect(try await pager.refresh(around: 72).value == .loaded)
        // The anchor's page (79…70, the third) and the next, then three from the page above
        // (after 90), then four from the top.
        let asked = backend.received.dropFirst(requests).map(\.after)
        #expect(asked.count == 9, "\(asked)")
        #expect(asked.dropFirst(5).first == .some(nil))
        #expect(pager.items.ids == Array(backend.nodes.map(\.id).prefix(40)))
        #expect(pager.index(of: 72) == 0)
    }

    @MainActor
    @Test("the list's anchor follows it to its new place; paging on brings no row twice")
    func listFollows() async throws {
        let backend = Self.backend((0..<100).reversed())
        let list = PagedList(
            source: RelayCursorSource<TestItem>(.forward) { try backend.connection($0) },
            configuration: try .testing(pageSize: 10))
        for _ in 0..<3 { _ = try await list.loadNext().value }
        list.itemAppeared(at: try #require(list.items.ids.firstIndex(of: 75)))
        #expect(list.anchor == 75)
        Self.move(75, before: 88, in: backend)
        _ = try await list.refreshAroundAnchor().value
        #expect(list.anchor == 75)
        #expect(list.items.ids.firstIndex(of: 75) == 11)
        while list.hasNext { _ = try await list.loadNext().value }
        #expect(list.items.ids == backend.nodes.map(\.id))
    }

    @Test("moved down past the fresh pages: not on them, and paging on brings it, once")
    func movedDown() async throws {
        let (backend, pager) = try await Self.forwardList()
        Self.move(72, before: 44, in: backend)
        #expect(try await pager.refresh(around: 72).value == .loaded)
        #expect(pager.index(of: 72) == nil)
        #expect(pager.items.ids == Array(backend.nodes.map(\.id).prefix(pager.items.count)))
        while pager.hasNext { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == backend.nodes.map(\.id))
    }

    @Test("gone: every near page is read once more, and the item that took its place is where it was")
    func gone() async throws {
        let (backend, pager) = try await Self.forwardList()
        let requests = backend.received.count
        backend.edit { $0.removeAll { $0.id == 72 } }
        #expect(try await pager.refresh(around: 72).value == .loaded)
        #expect(backend.received.count - requests == 2 + 3 + 4)
        #expect(pager.items.ids == Array(backend.nodes.map(\.id).prefix(pager.items.count)))
        #expect(pager.index(of: 71) == 27)
    }

    @Test("a chat paged backward, the anchor moved down among the newer messages: found there")
    func chatMovedDown() async throws {
        let backend = Self.backend(0..<60)
        let pager = Pager(
            source: RelayCursorSource<TestItem>(.reverse) { try backend.connection($0) },
            configuration: try .testing(pageSize: 10))
        for _ in 0..<4 { _ = try await pager.loadPrevious().value }
        #expect(pager.items.ids == Array(20..<60))
        Self.move(35, before: 53, in: backend)
        let recorder = SnapshotRecorder(pager)
        #expect(try await pager.refresh(around: 35).value == .loaded)
        #expect(pager.items.ids == Array(backend.nodes.map(\.id).suffix(pager.items.count)))
        #expect(pager.items.ids.suffix(8).first == 35)
        #expect(try recorder.replayedRows() == Array(try #require(recorder.last).items))
    }
}
