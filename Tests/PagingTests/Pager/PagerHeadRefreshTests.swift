import Paging
import PagingTesting
import Testing

/// `refreshHead(maximumPages:)` and ``PagingConfiguration/RefreshPolicy/reattachHead(maximumPages:)``:
/// the first page spliced in place of what it covers, the rest kept with no request.
@Suite("Pager, refreshing the head")
struct PagerHeadRefreshTests {
    /// A Relay backend over the ids given, in order.
    private static func backend(_ ids: some Sequence<Int>) -> RelayConnectionBackend<TestItem> {
        RelayConnectionBackend(ids.map { TestItem(id: $0) }, cursor: { "c\($0.id)" })
    }

    private static func pager(
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

    @Test("new items at the top, an edit and a delete in the first page: one request, the pages below kept")
    func feed() async throws {
        let backend = Self.backend((0..<100).reversed())
        let pager = Self.pager(backend, try .testing(pageSize: 10))
        for _ in 0..<3 { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array((70..<100).reversed()))
        let recorder = SnapshotRecorder(pager)
        let requestsBefore = backend.received.count

        backend.edit { nodes in
            nodes.insert(contentsOf: [TestItem(id: 102), TestItem(id: 101), TestItem(id: 100)], at: 0)
            nodes.removeAll { $0.id == 97 }
            if let index = nodes.firstIndex(where: { $0.id == 95 }) { nodes[index].version = 1 }
        }
        #expect(try await pager.refreshHead().value == .loaded)
        #expect(backend.received.count == requestsBefore + 1, "one request")
        let expected = [102, 101, 100, 99, 98, 96, 95, 94] + Array((70..<94).reversed())
        #expect(pager.items.ids == expected)
        #expect(pager.items.first { $0.id == 95 }?.version == 1)
        let change = pager.snapshot.change
        #expect(change.inserted == [0..<3])
        #expect(change.removed == [2..<3])
        #expect(change.updated == [6..<7])
        try Self.expectChangesReplay(recorder)
        // The list goes on where it went on before.
        _ = try await pager.loadNext().value
        #expect(pager.items.ids.suffix(10) == Array((60..<70).reversed()))
    }

    @Test("an item moved to the top from far below is shown once, at the top; no other row moves")
    func movedUp() async throws {
        let backend = Self.backend((0..<100).reversed())
        let pager = Self.pager(backend, try .testing(pageSize: 10, maximumHeld: .pages(3)))
        for _ in 0..<3 { _ = try await pager.loadNext().value }
        let recorder = SnapshotRecorder(pager)
        backend.edit { nodes in
            if let index = nodes.firstIndex(where: { $0.id == 75 }) {
                nodes.insert(nodes.remove(at: index), at: 0)
            }
            nodes.insert(TestItem(id: 100), at: 0)
        }
        _ = try await pager.refreshHead().value
        // The head page and what is left of the tail fill more than 3 pages: the back is dropped.
        let ids = pager.items.ids
        #expect(Array(ids.prefix(12)) == [100, 75] + Array((89..<100).reversed()).prefix(10))
        #expect(Set(ids).count == ids.count, "each item once")
        #expect(!ids.dropFirst(2).contains(75))
        #expect(pager.snapshot.change.inserted == [0..<2])
        try Self.expectChangesReplay(recorder)
    }

    @Test(
        "a held post moved to the top among new ones: the head loads on until the rows that did not move, none is dropped",
        arguments: [false, true])
    func movedToTheTopAmongNewOnes(throughThePolicy: Bool) async throws {
        let backend = Self.backend(0..<60)
        let pager = Self.pager(
            backend,
            try .testing(
                pageSize: 20, refreshPolicy: throughThePolicy ? .reattachHead(maximumPages: 3) : .restart))
        for _ in 0..<2 { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array(0..<40))
        let recorder = SnapshotRecorder(pager)
        backend.edit { nodes in
            // Post 22's sort key changed: it is at the top now, with 19 new posts above it.
            if let index = nodes.firstIndex(where: { $0.id == 22 }) {
                nodes.insert(nodes.remove(at: index), at: 0)
            }
            nodes.insert(contentsOf: (100..<119).map { TestItem(id: $0) }, at: 0)
        }
        let requestsBefore = backend.received.count
        let outcome = try await (throughThePolicy ? pager.refresh() : pager.refreshHead(maximumPages: 3))
            .value
        #expect(outcome == .loaded)
        // The first page (the new posts and 22) is not a sure alignment; the second brings 0…19.
        #expect(backend.received.count == requestsBefore + 2)
        let expected = Array(100..<119) + [22] + Array(0..<22) + Array(23..<40)
        #expect(pager.items.ids == expected)
        try Self.expectChangesReplay(recorder)
        // The list goes on where it went on before.
        _ = try await pager.loadNext().value
        #expect(pager.items.ids == expected + Array(40..<60))
    }

    @Test("the same with a limit of one page: the list restarts with the head, and paging on loses nothing")
    func movedToTheTopWithinOnePage() async throws {
        let backend = Self.backend(0..<60)
        let pager = Self.pager(backend, try .testing(pageSize: 20))
        for _ in 0..<2 { _ = try await pager.loadNext().value }
        backend.edit { nodes in
            if let index = nodes.firstIndex(where: { $0.id == 22 }) {
                nodes.insert(nodes.remove(at: index), at: 0)
            }
            nodes.insert(contentsOf: (100..<119).map { TestItem(id: $0) }, at: 0)
        }
        _ = try await pager.refreshHead(maximumPages: 1).value
        #expect(pager.items.ids == Array(100..<119) + [22])
        while pager.hasNext { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array(100..<119) + [22] + Array(0..<22) + Array(23..<60))
    }

    @Test("more new items than a page: the pages after the first load until one reaches the list")
    func severalPages() async throws {
        let backend = Self.backend((0..<50).reversed())
        let pager = Self.pager(backend, try .testing(pageSize: 10))
        _ = try await pager.loadNext().value
        _ = try await pager.loadNext().value
        backend.edit { $0.insert(contentsOf: (50..<65).reversed().map { TestItem(id: $0) }, at: 0) }
        let requestsBefore = backend.received.count
        _ = try await pager.refreshHead(maximumPages: 3).value
        #expect(backend.received.count == requestsBefore + 2)
        #expect(pager.items.ids == Array((30..<65).reversed()))
        #expect(pager.snapshot.change == ListChange(inserted: [0..<15]))
    }

    @Test("no page within the limit reaches the list: it restarts with the pages loaded")
    func restartsPastTheLimit() async throws {
        let backend = Self.backend((0..<50).reversed())
        let pager = Self.pager(backend, try .testing(pageSize: 10))
        _ = try await pager.loadNext().value
        backend.edit { $0.insert(contentsOf: (50..<80).reversed().map { TestItem(id: $0) }, at: 0) }
        _ = try await pager.refreshHead(maximumPages: 2).value
        #expect(pager.items.ids == Array((60..<80).reversed()))
        #expect(pager.hasNext)
        _ = try await pager.loadNext().value
        #expect(pager.items.ids == Array((50..<80).reversed()))
    }

    @Test("in a window, the splice drops pages at the back past the limit, in the same change")
    func windowed() async throws {
        let backend = Self.backend((0..<100).reversed())
        let pager = Self.pager(backend, try .testing(pageSize: 10, maximumHeld: .pages(3)))
        for _ in 0..<3 { _ = try await pager.loadNext().value }
        let recorder = SnapshotRecorder(pager)
        backend.edit { $0.insert(contentsOf: (100..<105).reversed().map { TestItem(id: $0) }, at: 0) }
        _ = try await pager.refreshHead().value
        // The head page (10) and the tail (25) are over 3 pages: the last page is dropped.
        #expect(pager.items.ids == Array((80..<105).reversed()))
        try Self.expectChangesReplay(recorder)
        #expect(pager.hasNext)
        _ = try await pager.loadNext().value
        #expect(pager.items.ids.suffix(10) == Array((70..<80).reversed()))
    }

    @Test("a list whose front the window dropped reattaches when the head reaches it; else it restarts")
    func droppedFront() async throws {
        let backend = Self.backend((0..<100).reversed())
        let pager = Self.pager(backend, try .testing(pageSize: 10, maximumHeld: .pages(2)))
        for _ in 0..<3 { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array((70..<90).reversed()))
        #expect(pager.hasPrevious)
        // The head page (99…90) does not reach it, the next (89…80) does.
        _ = try await pager.refreshHead(maximumPages: 2).value
        #expect(Array(pager.items.ids.prefix(10)) == Array((90..<100).reversed()))
        #expect(!pager.hasPrevious)
    }

    @Test("the policy makes refresh() reattach; a limit below 1 is refused; nothing held is a first load")
    func policyAndArguments() async throws {
        let backend = Self.backend((0..<40).reversed())
        let pager = Self.pager(
            backend, try .testing(pageSize: 10, refreshPolicy: .reattachHead(maximumPages: 2)))
        #expect(try await pager.refreshHead().value == .loaded)
        #expect(pager.items.ids == Array((30..<40).reversed()))
        _ = try await pager.loadNext().value
        backend.edit { $0.insert(TestItem(id: 40), at: 0) }
        _ = try await pager.refresh().value
        #expect(pager.items.ids == Array((20..<41).reversed()))
        #expect(pager.snapshot.change == ListChange(inserted: [0..<1]))
        await #expect(throws: PagingError.self) { try await pager.refreshHead(maximumPages: 0).value }
        #expect(throws: PagingError.self) {
            try PagingConfiguration(refreshPolicy: .reattachHead(maximumPages: 0))
        }
    }
}
