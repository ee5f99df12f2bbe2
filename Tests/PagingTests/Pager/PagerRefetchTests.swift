import Paging
import PagingLock
import Testing

/// `refresh()` under ``PagingConfiguration/RefreshPolicy/refetchLoadedPages``:
/// every held page comes back, fresh, in the directions the list was paged.
@Suite("Pager, refetching the loaded pages")
struct PagerRefetchTests {
    /// A Relay backend over `0..<count` whose items can be given a new version.
    private static func backend(_ count: Int) -> RelayConnectionBackend<TestItem> {
        RelayConnectionBackend((0..<count).map { TestItem(id: $0) }, cursor: { "c\($0.id)" })
    }

    /// Gives every item of the backend a new version, refreshes, and checks
    /// that the list shows the same items, all fresh.
    private static func expectRefetchKeepsTheList(
        _ pager: Pager<String, TestItem>, over backend: RelayConnectionBackend<TestItem>, count: Int
    ) async throws {
        let before = pager.items.ids
        for id in 0..<count { backend.replace(TestItem(id: id, version: 1)) }
        _ = try await pager.refresh().value
        #expect(pager.items.ids == before)
        #expect(pager.items.allSatisfy { $0.version == 1 }, "\(pager.items)")
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

        try await Self.expectRefetchKeepsTheList(pager, over: backend, count: 50)
        #expect(!pager.hasNext)
        #expect(pager.hasPrevious)
        // It pages on backward from the fresh keys.
        _ = try await pager.loadPrevious().value
        #expect(pager.items.ids == Array(10..<50))
    }

    @Test("a list paged backward by offset (reverse) keeps its length and its newest page")
    func reverseOffsets() async throws {
        let version = VersionBox()
        // Without the drift check, whose overlap makes each page after the first one item
        // shorter than the refetch that asks it again.
        let source = OffsetSource<TestItem>(.reverse, checksDrift: false) { offset, limit in
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

        try await Self.expectRefetchKeepsTheList(pager, over: backend, count: 60)
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

        try await Self.expectRefetchKeepsTheList(pager, over: backend, count: 100)
        // The dropped pages before it come back when the reader scrolls up.
        _ = try await pager.loadPrevious().value
        #expect(pager.items.ids.first == 10)
    }
}

/// A version the test changes and a source reads.
final class VersionBox: Sendable {
    private let state = Lock(0)

    var value: Int {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
