import Paging
import Synchronization
import Testing

/// `refresh()` under ``PagingConfiguration/RefreshPolicy/refetchLoadedPages``:
/// every held page comes back, fresh, in the directions the list was paged.
@Suite("Pager, refetching the loaded pages")
struct PagerRefetchTests {
    /// A Relay backend over `0..<count` whose items can be given a new version.
    private static func backend(_ count: Int) -> RelayConnectionBackend<TestItem> {
        RelayConnectionBackend((0..<count).map { TestItem(id: $0) }, cursor: { "c\($0.id)" })
    }

    private static func bumpVersion(of backend: RelayConnectionBackend<TestItem>, ids: Range<Int>) {
        for id in ids { backend.replace(TestItem(id: id, version: 1)) }
    }

    @Test("a chat paged backward only (Relay, reverse) refetches every page backward and keeps its newest")
    func reverseRelay() async throws {
        let backend = Self.backend(50)
        let pager = Pager(
            source: RelayCursorSource<TestItem>(.reverse) { try backend.connection($0) },
            configuration: try .testing(pageSize: 10, refreshPolicy: .refetchLoadedPages))
        _ = try await pager.loadPrevious().value
        _ = try await pager.loadPrevious().value
        _ = try await pager.loadPrevious().value
        #expect(pager.items.ids == Array(20..<50))

        Self.bumpVersion(of: backend, ids: 0..<50)
        _ = try await pager.refresh().value
        #expect(pager.items.ids == Array(20..<50))
        #expect(pager.items.allSatisfy { $0.version == 1 }, "\(pager.items)")
        #expect(!pager.hasNext)
        #expect(pager.hasPrevious)
        // It pages on backward from the fresh keys.
        _ = try await pager.loadPrevious().value
        #expect(pager.items.ids == Array(10..<50))
    }

    @Test("a list paged backward by offset (reverse) keeps its length and its newest page")
    func reverseOffsets() async throws {
        let version = VersionBox()
        let source = OffsetSource<TestItem>(.reverse) { offset, limit in
            let end = min(40, offset + limit)
            return OffsetPage(
                items: (offset..<end).map { TestItem(id: $0, version: version.value) }, totalCount: 40)
        }
        let pager = Pager(
            source: source, configuration: try .testing(pageSize: 8, refreshPolicy: .refetchLoadedPages))
        _ = try await pager.loadPrevious().value
        _ = try await pager.loadPrevious().value
        #expect(pager.items.ids == Array(24..<40))

        version.value = 2
        _ = try await pager.refresh().value
        #expect(pager.items.ids == Array(24..<40))
        #expect(pager.items.allSatisfy { $0.version == 2 })
        #expect(!pager.hasNext && pager.hasPrevious)
    }

    @Test("a list opened in the middle and paged both ways refetches both ways around where it opened")
    func bidirectional() async throws {
        let backend = Self.backend(60)
        let pager = Pager(
            source: RelayCursorSource<TestItem>(.bidirectional) { try backend.connection($0) },
            initialKey: "c29",
            configuration: try .testing(pageSize: 10, refreshPolicy: .refetchLoadedPages))
        _ = try await pager.loadNext().value
        _ = try await pager.loadNext().value
        _ = try await pager.loadPrevious().value
        _ = try await pager.loadPrevious().value
        #expect(pager.items.ids == Array(10..<50))

        Self.bumpVersion(of: backend, ids: 0..<60)
        _ = try await pager.refresh().value
        #expect(pager.items.ids == Array(10..<50))
        #expect(pager.items.allSatisfy { $0.version == 1 })
        // The first request of the refetch is the one the list opened with.
        let refetch = backend.received.suffix(4)
        #expect(refetch.first == RelayArguments(first: 10, after: "c29"))
        #expect(pager.hasNext && pager.hasPrevious)
    }

    @Test("a forward list whose first pages the window dropped refetches from its first held page")
    func forwardWindowed() async throws {
        let backend = Self.backend(100)
        let pager = Pager(
            source: RelayCursorSource<TestItem>(.forward) { try backend.connection($0) },
            configuration: try .testing(
                pageSize: 10, maximumHeld: .pages(3), refreshPolicy: .refetchLoadedPages))
        for _ in 0..<5 { _ = try await pager.loadNext().value }
        #expect(pager.items.ids == Array(20..<50))

        Self.bumpVersion(of: backend, ids: 0..<100)
        _ = try await pager.refresh().value
        #expect(pager.items.ids == Array(20..<50))
        #expect(pager.items.allSatisfy { $0.version == 1 })
        // The dropped pages before it come back when the reader scrolls up.
        _ = try await pager.loadPrevious().value
        #expect(pager.items.ids.first == 10)
    }
}

/// A version the test changes and a source reads.
final class VersionBox: Sendable {
    private let state = Mutex(0)

    var value: Int {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
