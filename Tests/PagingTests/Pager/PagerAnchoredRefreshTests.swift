import Paging
import PagingTesting
import Testing

/// `refresh(around:)` and `PagedList.refreshAroundAnchor()`: the page around the item the user
/// looks at loaded again, the near side kept, the far side dropped.
@Suite("Pager, anchored refresh")
struct PagerAnchoredRefreshTests {
    /// A Relay backend over the ids given, in order.
    private static func backend(_ ids: some Sequence<Int>) -> RelayConnectionBackend<TestItem> {
        RelayConnectionBackend(ids.map { TestItem(id: $0) }, cursor: { "c\($0.id)" })
    }

    /// Replays every recorded change on the rows of the first snapshot, checked.
    private static func expectChangesReplay(_ recorder: SnapshotRecorder<String, TestItem>) throws {
        let snapshots = recorder.recorded
        var rows = Array(try #require(snapshots.first).items)
        for snapshot in snapshots.dropFirst() {
            try snapshot.change.checkedApply(to: &rows, from: snapshot.items)
            #expect(rows == Array(snapshot.items))
        }
    }

    @Test(
        "a list paged forward: the anchor's page and the next load again, the pages above stay, the anchor keeps its index"
    )
    func forward() async throws {
        let backend = Self.backend((0..<100).reversed())
        let pager = Pager(
            source: RelayCursorSource<TestItem>(.forward) { try backend.connection($0) },
            configuration: try .testing(pageSize: 10))
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
        _ = try await pager.refresh(around: 35).value
        // The anchor's page and the one before it again (18 and 19 come in: 33 and 21 are gone); 40…59 kept.
        let ids = pager.items.ids
        #expect(Array(ids.suffix(20)) == Array(40..<60))
        #expect(!ids.contains(33) && !ids.contains(21))
        #expect(pager.items.count - 1 - (try #require(pager.index(of: 35))) == fromEnd)
        #expect(pager.hasPrevious)
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
}
