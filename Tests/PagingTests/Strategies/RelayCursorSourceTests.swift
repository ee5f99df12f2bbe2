import Paging
import PagingTesting
import Testing

@Suite("RelayCursorSource")
struct RelayCursorSourceTests {
    typealias Source = RelayCursorSource<TestItem>

    static func cursor(_ item: TestItem) -> String { "cursor:\(item.id)" }

    /// A source whose fetch records its arguments and answers with `answer`.
    func recording(
        _ direction: PagingDirection, answer: RelayPage<TestItem> = RelayPage(items: [], pageInfo: .empty)
    ) -> (Source, Recorder<RelayArguments>) {
        let recorder = Recorder<RelayArguments>()
        let source = Source(direction) { arguments in
            recorder.record(arguments)
            return answer
        }
        return (source, recorder)
    }

    // MARK: Arguments

    @Test(
        "a forward source asks for first/after: from the start, from an initial cursor, and after the end cursor"
    )
    func forwardArguments() async throws {
        let (source, recorder) = recording(.forward)
        _ = try await source.load(PageRequest(.initial(nil), count: 10))
        _ = try await source.load(PageRequest(.initial("c7"), count: 12))
        _ = try await source.load(PageRequest(.next(after: "c19"), count: 5))
        #expect(
            recorder.recorded == [
                RelayArguments(first: 10, after: nil),
                RelayArguments(first: 12, after: "c7"),
                RelayArguments(first: 5, after: "c19"),
            ])
    }

    @Test("a reverse source opens with last/before: at the end without a cursor, before a cursor with one")
    func reverseArguments() async throws {
        let (source, recorder) = recording(.reverse)
        _ = try await source.load(PageRequest(.initial(nil), count: 10))
        _ = try await source.load(PageRequest(.initial("c40"), count: 10))
        _ = try await source.load(PageRequest(.previous(before: "c30"), count: 4))
        #expect(
            recorder.recorded == [
                RelayArguments(last: 10, before: nil),
                RelayArguments(last: 10, before: "c40"),
                RelayArguments(last: 4, before: "c30"),
            ])
    }

    @Test("a bidirectional source asks first/after forward and last/before backward")
    func bidirectionalArguments() async throws {
        // A page that has more after it (an empty one at a cursor would be the end: see below).
        let (source, recorder) = recording(
            .bidirectional,
            answer: RelayPage(
                items: [TestItem(id: 50)], pageInfo: info(next: true, previous: true, "c50", "c50")))
        _ = try await source.load(PageRequest(.initial("c49"), count: 10))
        _ = try await source.load(PageRequest(.next(after: "c59"), count: 10))
        _ = try await source.load(PageRequest(.previous(before: "c50"), count: 10))
        #expect(
            recorder.recorded == [
                RelayArguments(first: 10, after: "c49"),
                RelayArguments(first: 10, after: "c59"),
                RelayArguments(last: 10, before: "c50"),
            ])
        #expect(source.arguments(for: PageRequest(.initial(nil), count: 3)) == RelayArguments(first: 3))
    }

    // MARK: Keys

    @Test("forward: the next key is endCursor while hasNextPage, and there is never a previous key")
    func forwardKeys() throws {
        let (source, _) = recording(.forward)
        let request = PageRequest<String>(.next(after: "c9"), count: 2)
        let items = [TestItem(id: 10), TestItem(id: 11)]
        let more = source.page(
            from: RelayPage(items: items, pageInfo: info(next: true, previous: true, "c10", "c11")),
            for: request)
        #expect(more.nextKey == "c11")
        #expect(more.previousKey == nil)
        #expect(more.items == items)
        let last = source.page(
            from: RelayPage(items: items, pageInfo: info(next: false, previous: true, "c10", "c11")),
            for: request)
        #expect(last.nextKey == nil)
        #expect(last.previousKey == nil)
    }

    @Test("reverse: the previous key is startCursor while hasPreviousPage, and there is never a next key")
    func reverseKeys() throws {
        let (source, _) = recording(.reverse)
        let request = PageRequest<String>(.previous(before: "c12"), count: 2)
        let page = RelayPage(
            items: [TestItem(id: 10), TestItem(id: 11)],
            pageInfo: info(next: true, previous: true, "c10", "c11"))
        #expect(source.page(from: page, for: request).previousKey == "c10")
        #expect(source.page(from: page, for: request).nextKey == nil)
        var first = page
        first.pageInfo.hasPreviousPage = false
        #expect(source.page(from: first, for: request).previousKey == nil)
    }

    @Test(
        "bidirectional opened at a cursor has a previous page even when the server says hasPreviousPage false"
    )
    func bidirectionalDeepLinkKeys() throws {
        let (source, _) = recording(.bidirectional)
        // The specification allows hasPreviousPage: false for a forward query.
        let page = RelayPage(
            items: [TestItem(id: 50)], pageInfo: info(next: true, previous: false, "c50", "c50"))
        let atCursor = source.page(from: page, for: PageRequest(.initial("c49"), count: 1))
        #expect(atCursor.previousKey == "c50")
        #expect(atCursor.nextKey == "c50")
        // Opened at the start, the list has nothing before it.
        let atStart = source.page(from: page, for: PageRequest(.initial(nil), count: 1))
        #expect(atStart.previousKey == nil)
    }

    @Test(
        "bidirectional: a page loaded backward keeps its endCursor as its next key, and the end is startCursor's hasPreviousPage"
    )
    func bidirectionalBackwardKeys() throws {
        let (source, _) = recording(.bidirectional)
        let request = PageRequest<String>(.previous(before: "c50"), count: 2)
        let page = RelayPage(
            items: [TestItem(id: 48), TestItem(id: 49)],
            pageInfo: info(next: false, previous: true, "c48", "c49"))
        let keyed = source.page(from: page, for: request)
        #expect(keyed.nextKey == "c49")
        #expect(keyed.previousKey == "c48")
        var first = page
        first.pageInfo.hasPreviousPage = false
        #expect(source.page(from: first, for: request).previousKey == nil)
    }

    @Test("a forward source gives the pager no previous key, so loadPrevious ends at once without a request")
    func forwardHasNoPreviousDirection() async throws {
        let backend = RelayConnectionBackend(
            (0..<25).map { TestItem(id: $0) }, reportsOppositeEnd: true, cursor: Self.cursor)
        let source = Source(.forward) { try backend.connection($0) }
        let pager = Pager(source: source, initialKey: "cursor:9", configuration: try .testing())
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.ids == Array(10..<20))
        // The server truthfully says items precede the page, but the source pages forward only.
        #expect(try await pager.loadPrevious().value == .endReached)
        #expect(backend.received.count == 1)
        #expect(pager.loadStates.previous == .endReached)
    }

    // MARK: Through a pager

    @Test(
        "forward over a Relay connection: every node once, in order, then the end", arguments: [false, true])
    func forwardThroughPager(reportsOppositeEnd: Bool) async throws {
        let nodes = (0..<47).map { TestItem(id: $0) }
        let backend = RelayConnectionBackend(
            nodes, reportsOppositeEnd: reportsOppositeEnd, cursor: Self.cursor)
        let pager = Pager(
            source: Source(.forward) { try backend.connection($0) }, configuration: try .testing())
        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.ids == nodes.map(\.id))
        #expect(!pager.hasNext && !pager.hasPrevious)
        // first/after follows the end cursor of each page.
        #expect(backend.received.map(\.after) == [nil, "cursor:9", "cursor:19", "cursor:29", "cursor:39"])
        #expect(backend.received.allSatisfy { $0.first == 10 && $0.last == nil && $0.before == nil })
    }

    @Test(
        "reverse over a Relay connection: opens on the last nodes and pages back to the first",
        arguments: [false, true])
    func reverseThroughPager(reportsOppositeEnd: Bool) async throws {
        let nodes = (0..<47).map { TestItem(id: $0) }
        let backend = RelayConnectionBackend(
            nodes, reportsOppositeEnd: reportsOppositeEnd, cursor: Self.cursor)
        let pager = Pager(
            source: Source(.reverse) { try backend.connection($0) }, configuration: try .testing())
        #expect(try await pager.loadPrevious().value == .loaded)
        #expect(pager.items.ids == Array(37..<47))
        #expect(!pager.hasNext)
        #expect(try await pager.loadNext().value == .endReached)
        var loads = 1
        while try await pager.loadPrevious().value == .loaded { loads += 1 }
        #expect(loads == 5)
        #expect(pager.items.ids == nodes.map(\.id))
        #expect(backend.received.map(\.before) == [nil, "cursor:37", "cursor:27", "cursor:17", "cursor:7"])
        #expect(backend.received.allSatisfy { $0.last == 10 && $0.first == nil && $0.after == nil })
    }

    @Test(
        "bidirectional opened at a cursor in the middle reaches both ends with every node once, in order",
        arguments: [false, true])
    func bidirectionalThroughPager(reportsOppositeEnd: Bool) async throws {
        let nodes = (0..<53).map { TestItem(id: $0) }
        let backend = RelayConnectionBackend(
            nodes, reportsOppositeEnd: reportsOppositeEnd, cursor: Self.cursor)
        let pager = Pager(
            source: Source(.bidirectional) { try backend.connection($0) }, initialKey: "cursor:24",
            configuration: try .testing())
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.ids == Array(25..<35))
        #expect(pager.hasPrevious && pager.hasNext)
        // Alternate ends, as a reader scrolling both ways would.
        var nextDone = false
        var previousDone = false
        while !(nextDone && previousDone) {
            if !nextDone { nextDone = try await pager.loadNext().value == .endReached }
            if !previousDone { previousDone = try await pager.loadPrevious().value == .endReached }
        }
        #expect(pager.items.ids == nodes.map(\.id))
        #expect(pager.loadStates.next == .endReached && pager.loadStates.previous == .endReached)
    }

    @Test(
        "bidirectional opened at the last node's cursor opens on the last nodes and pages back to the first",
        arguments: [false, true])
    func bidirectionalOpenedAtTheEnd(reportsOppositeEnd: Bool) async throws {
        let nodes = (0..<23).map { TestItem(id: $0) }
        let backend = RelayConnectionBackend(
            nodes, reportsOppositeEnd: reportsOppositeEnd, cursor: Self.cursor)
        let pager = Pager(
            source: Source(.bidirectional) { try backend.connection($0) }, initialKey: "cursor:22",
            configuration: try .testing())
        #expect(try await pager.loadNext().value == .loaded)
        // The deep-linked node itself is shown, with the ones before it.
        #expect(pager.items.ids == Array(13..<23))
        #expect(pager.hasPrevious && !pager.hasNext)
        while try await pager.loadPrevious().value == .loaded {}
        #expect(pager.items.ids == nodes.map(\.id))
        #expect(
            backend.received.prefix(2) == [
                RelayArguments(first: 10, after: "cursor:22"), RelayArguments(last: 10),
            ])
    }

    @Test(
        "bidirectional opened at any cursor, or none, shows every node once, in order, the cursor's included",
        arguments: [false, true])
    func bidirectionalOpenedAnywhere(reportsOppositeEnd: Bool) async throws {
        let nodes = (0..<17).map { TestItem(id: $0) }
        for opened in [nil] + nodes.map(Self.cursor) {
            let backend = RelayConnectionBackend(
                nodes, reportsOppositeEnd: reportsOppositeEnd, cursor: Self.cursor)
            let pager = Pager(
                source: Source(.bidirectional) { try backend.connection($0) }, initialKey: opened,
                configuration: try .testing(pageSize: 4))
            var ends = (next: false, previous: false)
            while !(ends.next && ends.previous) {
                if !ends.next { ends.next = try await pager.loadNext().value == .endReached }
                if !ends.previous { ends.previous = try await pager.loadPrevious().value == .endReached }
            }
            #expect(pager.items.ids == nodes.map(\.id), "opened at \(opened ?? "the start")")
        }
    }

    private func info(next: Bool, previous: Bool, _ start: String?, _ end: String?) -> PageInfo {
        PageInfo(hasNextPage: next, hasPreviousPage: previous, startCursor: start, endCursor: end)
    }
}

extension PageInfo {
    /// The page info of an empty connection.
    static var empty: PageInfo {
        PageInfo(hasNextPage: false, hasPreviousPage: false, startCursor: nil, endCursor: nil)
    }
}
