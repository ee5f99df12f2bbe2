import Paging
import PagingTesting
import Testing

/// A page that arrives and sets off the next load at once (the reader is within the prefetch
/// distance of the end) publishes one snapshot: its change must carry the page.
@Suite("Pager, a change and the load it sets off in one snapshot")
struct PagerChainedChangeTests {
    @Test("a page applied, then the prefetch it sets off: the snapshot's change still inserts the page")
    func prefetchAfterAPage() async throws {
        let source = ScriptedSource<Int, TestItem>()
        let pager = Pager(source: source, configuration: try .testing(pageSize: 5, prefetchDistance: 5))
        let recorder = SnapshotRecorder(pager)
        let first = pager.loadNext()
        (await source.nextCall()).succeed(
            with: Page(items: (0..<5).map { TestItem(id: $0) }, nextKey: 5))
        _ = try await first.value
        // The reader sees the last item: the next page loads, and its arrival is within the
        // distance again, so the load after it starts in the same event.
        pager.itemAppeared(at: 4)
        (await source.nextCall()).succeed(
            with: Page(items: (5..<10).map { TestItem(id: $0) }, nextKey: 10))
        let third = await source.nextCall()
        var rows = Array(try #require(recorder.recorded.first).items)
        for snapshot in recorder.recorded.dropFirst() {
            try snapshot.change.checkedApply(to: &rows, from: snapshot.items)
        }
        #expect(rows.map(\.id) == Array(0..<10))
        #expect(pager.isLoadingNext)
        third.succeed(with: Page(items: [], nextKey: nil))
    }
}
