import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import PagingTesting
import Testing
import ToolsLock

/// Lists that move, against the server on loopback: launches added and deleted while a list is
/// held, and a list of the launches a search finds.
@Suite("Lists that move, end to end", .timeLimit(.minutes(30)))
struct ListsThatMoveEndToEndTests {
    /// `launchConnection` paged forward, with an optional search.
    static let searchable = """
        query Launches($first: Int, $after: String, $search: String) {
          launchConnection(first: $first, after: $after, search: $search) @connection(key: "Launches") {
            edges { node { \(Launch.selection) } }
          }
        }
        """

    /// A pager of the launches, or of those a search finds.
    static func list(_ client: GraphQLClient, pageSize: Int, search: String? = nil) throws -> Pager<
        String, Launch
    > {
        ConnectionSource(
            client: client, document: try ConnectionDocument(searchable),
            variables: search.map { ["search": .string($0)] } ?? [:], as: Launch.self
        ).makePager(configuration: try PagingConfiguration(pageSize: pageSize))
    }

    /// Every launch the server has now, in list order, read with a pager of its own.
    static func current(_ client: GraphQLClient, search: String? = nil) async throws -> [String] {
        let pager = try list(client, pageSize: 50, search: search)
        try await Drive.toEnd(pager)
        return pager.items.ids
    }

    @Test(
        "A feed held over three pages refreshes its head: launches added and one deleted at the top, in one request; the pages below kept"
    )
    func headRefresh() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let client = server.client
            let list = try Self.list(client, pageSize: 10)
            for _ in 0..<3 { #expect(try await list.loadNext().value == .loaded) }
            #expect(list.items.ids == Array(expected.prefix(30)))
            let recorder = SnapshotRecorder(list)

            var added: [String] = []
            for number in 0..<3 { added.append(try await client.addLaunch("New \(number)").id) }
            try await client.deleteLaunch(id: expected[2])
            #expect(try await list.refreshHead().value == .loaded)
            var held = Array(expected.prefix(30))
            held.remove(at: 2)
            #expect(list.items.ids == added.reversed() + held)
            let change = list.snapshot.change
            #expect(change.inserted == [0..<3])
            #expect(change.removed == [2..<3])
            // Every change on the way fits the rows it was made from.
            #expect(try recorder.replayedRows().map(\.id) == list.items.ids)

            // The list goes on where it went on: to the end, every launch the server has, once.
            try await Drive.toEnd(list)
            #expect(list.items.ids == (try await Self.current(client)))
        }
    }

    @Test("A search pages the launches whose mission name contains the text, with keyset cursors, to its end")
    func search() async throws {
        try await withLaunchServer { server in
            let client = server.client
            let all = try Self.list(client, pageSize: 50)
            try await Drive.toEnd(all)
            let crs = all.items.filter { ($0.mission?.name ?? "").lowercased().contains("crs") }.map(\.id)
            #expect(crs.count == 20)
            let found = try Self.list(client, pageSize: 6, search: "Crs")
            try await Drive.toEnd(found)
            #expect(found.items.ids == crs)
        }
    }
}

extension ListsThatMoveEndToEndTests {
    @Test(
        "A list held over five pages refreshes around the item in view: the rows above stay, its page and the next are fresh"
    )
    func anchoredRefresh() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let client = server.client
            let list = try Self.list(client, pageSize: 10)
            for _ in 0..<5 { #expect(try await list.loadNext().value == .loaded) }
            #expect(list.items.ids == Array(expected.prefix(50)))
            let anchor = expected[25]
            #expect(list.index(of: anchor) == 25)
            let recorder = SnapshotRecorder(list)

            // Above the anchor's page: a new launch, not refreshed. In its page, one gone above
            // it; in the next, one gone.
            _ = try await client.addLaunch("Above")
            try await client.deleteLaunch(id: expected[22])
            try await client.deleteLaunch(id: expected[33])
            #expect(try await list.refresh(around: anchor).value == .loaded)
            let fresh = expected[20...].filter { $0 != expected[22] && $0 != expected[33] }
            #expect(list.items.ids == Array(expected.prefix(20)) + Array(fresh.prefix(20)))
            #expect(
                list.index(of: anchor) == 24,
                "the anchor moved up by the one launch gone above it in its page")
            #expect(try recorder.replayedRows().map(\.id) == list.items.ids)
            // The pages beyond load again from the fresh cursors, to the end.
            try await Drive.toEnd(list)
            #expect(list.items.ids == Array(expected.prefix(20)) + fresh)
        }
    }
}

extension ListsThatMoveEndToEndTests {
    @Test(
        "A search box over the server: a switch superseded before its answer never shows, only the last search's launches do; going back shows the kept list at once, then its new top for one request"
    )
    @MainActor
    func searchBox() async throws {
        let requests = Locked(0)
        let counting: (inout LaunchServerConfiguration) -> Void = { configuration in
            configuration.latency = .fixed(.nanoseconds(1))
            configuration.sleep = { _ in requests.withLock { $0 += 1 } }
        }
        try await withLaunchServer(counting) { server in
            let client = server.client
            let all = try await Self.current(client)
            let crs = try await Self.current(client, search: "crs")
            let document = try ConnectionDocument(Self.searchable)
            let search = QueryList(
                query: "", capacity: 3, whileLoading: .keepPrevious, onReturn: .refreshHead,
                configuration: try PagingConfiguration(pageSize: 10)
            ) { text in
                ConnectionSource(
                    client: client, document: document,
                    variables: text.isEmpty ? [:] : ["search": .string(text)], as: Launch.self)
            }
            #expect(try await search.list.loadNext().value == .loaded)
            #expect(search.list.items.ids == Array(all.prefix(10)))

            // "sat", then "crs" before the first answer comes: the whole list shows until the
            // last search's first page does.
            search.switchTo("sat")
            let typed = search.switchTo("crs")
            #expect(search.list.items.ids == Array(all.prefix(10)))
            #expect(search.isSwitching)
            _ = try await typed.value
            #expect(search.query == "crs" && !search.isSwitching)
            #expect(search.list.items.ids == Array(crs.prefix(10)))
            #expect(search.keptQueries == ["", "crs"], "the superseded search is not kept")

            // A launch scheduled while the search shows; then back to the whole list: shown at
            // once, as it was kept, then its new top spliced in with one request.
            let added = try await client.addLaunch("CRS-99 Fresh")
            let before = requests.withLock { $0 }
            let back = search.switchTo("")
            #expect(search.query == "")
            #expect(search.list.items.ids == Array(all.prefix(10)))
            #expect(try await back.value == .loaded)
            #expect(requests.withLock { $0 } == before + 1)
            #expect(search.list.items.ids == [added.id] + Array(all.prefix(10)))

            // And back to the search, the same: it matches the new launch too.
            let again = search.switchTo("crs")
            #expect(search.list.items.ids == Array(crs.prefix(10)))
            #expect(try await again.value == .loaded)
            #expect(search.list.items.ids == [added.id] + Array(crs.prefix(10)))
        }
    }
}
