import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import PagingTesting
import Testing
import ToolsLock

@testable import PagingCLI

/// Counts the launch server's requests (through its injectable latency), and holds them at a gate
/// while asked to.
private final class ServerRequests: Sendable {
    let gate = FetchGate<Void>()
    private let holding = Locked(false)
    private let counted = Locked(0)

    /// The requests the server has had.
    var count: Int { counted.withLock { $0 } }

    /// Holds each later request at ``gate`` (`true`), or lets them through (`false`).
    func hold(_ on: Bool) {
        holding.withLock { $0 = on }
    }

    /// Makes the server count its requests, and wait at ``gate`` while holding.
    func configure(_ configuration: inout LaunchServerConfiguration) {
        configuration.latency = .fixed(.nanoseconds(1))
        configuration.sleep = { [self] _ in
            counted.withLock { $0 += 1 }
            if holding.withLock({ $0 }) { try await gate.pass(()) }
        }
    }
}

@Suite("the demo's search as you type, driven through its model and renderer")
struct DemoSearchTests {
    @MainActor
    private func searchSession(_ server: LaunchServer) throws -> ListSession<String, TutorialLaunch> {
        let api = TutorialAPI(client: GraphQLClient(endpoint: server.graphQLURL))
        // Each test searches with Enter. Typing alone switches the list once the text has stayed
        // for the interval, by the real clock: the demo's quarter of a second passed between two
        // keys sent here on a busy machine, and a search for the first letter went to the server
        // (held at the gate in place of the one the test waits for). So typing never switches here;
        // the debounce has tests of its own, on a manual clock (QueryListTests).
        let search = DemoCommand.makeSearch(
            api: api, configuration: try DemoCommand.configuration(pageSize: 20, prefetchDistance: 5),
            interval: .seconds(3_600))
        return DemoCommand.makeSession(
            api: api, pager: search.readShown().pager, search: search,
            // Tall enough that the footer shows below a page of matches and their years' headers.
            size: ScreenSize(rows: 48, columns: 100))
    }

    /// A search session over the server, started, its first page shown.
    private func startedSession(_ server: LaunchServer) async throws -> ListSession<String, TutorialLaunch> {
        let session = try await searchSession(server)
        await session.start()
        await session.settle()
        return session
    }

    /// The ids of the launches whose mission name contains `text` (ignoring case), newest first:
    /// the whole list read with the tutorial's own query, and filtered here.
    private func matching(_ text: String, on server: LaunchServer) async throws -> [String] {
        let api = TutorialAPI(client: GraphQLClient(endpoint: server.graphQLURL))
        var launches: [TutorialLaunch] = []
        var cursor: String?
        while true {
            let page = try await api.launches(pageSize: 100, after: cursor)
            launches += page.items
            cursor = page.cursor
            if !page.hasMore { break }
        }
        return launches.filter { $0.mission?.name?.lowercased().contains(text.lowercased()) == true }.map(
            \.id)
    }

    private func type(_ text: String) -> [ScreenKey] {
        text.map { ScreenKey.character($0) }
    }

    @Test(
        "/, a text and Enter show the launches whose mission matches, with their count, in the server's order"
    )
    func searchShowsTheMatches() async throws {
        try await withLaunchServer { server in
            let expected = try await matching("sat", on: server)
            #expect(expected.count > 20, "the test needs a search of more than one page")
            let session = try await startedSession(server)
            #expect(await session.text().last?.contains("/ search") == true, "the key help does not name /")

            await session.send(.character("/"))
            await session.send(type("SaT"))
            var lines = await session.text()
            #expect(lines.last?.hasPrefix(" /SaT▏") == true, "the status line is not the search field")
            #expect(lines[0].contains("Launches · 20 loaded · searching “SaT”…"))

            await session.send(.enter)
            await session.settle()
            lines = await session.text()
            #expect(lines[0].contains("Launches matching “SaT” · 20 loaded"), "\(lines[0])")
            #expect(lines.contains("  Load more · 20 of \(expected.count) launches matching “SaT”"))
            #expect(await session.screen.selection == 0)

            await session.send(.end)
            await session.settle()
            lines = await session.text()
            #expect(lines.contains { $0.hasSuffix(" All \(expected.count) launches matching “SaT” loaded") })
            #expect(await session.screen.items.map(\.id) == expected)
        }
    }

    @Test("while a search's first page loads, the launches shown stay; then the matches replace them")
    func keepsTheListWhileTheSearchLoads() async throws {
        let requests = ServerRequests()
        try await withLaunchServer(requests.configure) { server in
            let expected = try await matching("fal", on: server)
            let session = try await startedSession(server)
            let whole = await session.screen.items.map(\.id)

            requests.hold(true)
            await session.send([.character("/")] + type("fal") + [.enter])
            let held = await requests.gate.nextArrival()
            await session.searchSettled()
            let lines = await session.text()
            #expect(await session.screen.items.map(\.id) == whole)
            #expect(lines[0].contains("Launches · 20 loaded · searching “fal”…"))

            requests.hold(false)
            held.open()
            await session.settle()
            #expect(await session.screen.items.map(\.id) == expected)
            #expect(
                await session.text().contains {
                    $0.hasSuffix(" All \(expected.count) launches matching “fal” loaded")
                })
        }
    }

    @Test("Esc shows the whole list again at once, its top refreshed with one request; a kept search too")
    func goingBackShowsTheKeptList() async throws {
        let requests = ServerRequests()
        try await withLaunchServer(requests.configure) { server in
            let session = try await startedSession(server)
            let whole = await session.screen.items.map(\.id)
            await session.send([.character("/")] + type("fal") + [.enter])
            await session.settle()
            let fal = await session.screen.items.map(\.id)
            #expect(fal != whole)

            // Back to the whole list: shown before any answer (the server holds the one request, the
            // head refresh).
            requests.hold(true)
            var before = requests.count
            await session.send(.escape)
            await session.searchSettled()
            #expect(await session.screen.items.map(\.id) == whole)
            #expect(await session.text()[0].hasPrefix(" Launches · 20 loaded"))
            var refresh = await requests.gate.nextArrival()
            refresh.open()
            await session.settle()
            #expect(requests.count == before + 1)
            #expect(await session.screen.items.map(\.id) == whole)

            // Back to a kept search, the same.
            before = requests.count
            await session.send([.character("/")] + type("fal") + [.enter])
            await session.searchSettled()
            #expect(await session.screen.items.map(\.id) == fal)
            refresh = await requests.gate.nextArrival()
            refresh.open()
            await session.settle()
            #expect(requests.count == before + 1)
            #expect(await session.screen.items.map(\.id) == fal)
        }
    }

    @Test("a search superseded before its first page came gives way to the last one, whose matches show")
    func onlyTheLastSearchShows() async throws {
        let requests = ServerRequests()
        try await withLaunchServer(requests.configure) { server in
            let expected = try await matching("fal", on: server)
            let session = try await startedSession(server)
            requests.hold(true)
            await session.send([.character("/")] + type("s") + [.enter])
            let first = await requests.gate.nextArrival()
            // The search field keeps the text: Backspace, then the new one.
            await session.send([.character("/"), .backspace] + type("fal") + [.enter])
            let second = await requests.gate.nextArrival()
            requests.hold(false)
            first.open()
            second.open()
            await session.settle()
            #expect(await session.screen.query == "fal")
            #expect(await session.screen.items.map(\.id) == expected)
        }
    }

    @Test("a search with no match says so; Backspace edits the text; q types, Ctrl-C quits")
    func noMatchAndEditing() async throws {
        try await withLaunchServer { server in
            let session = try await startedSession(server)
            await session.send([.character("/")] + type("qzx"))
            #expect(await session.screen.searchText == "qzx", "q quit instead of typing")
            await session.send([.backspace, .enter])
            await session.settle()
            let lines = await session.text()
            #expect(await session.screen.items.isEmpty)
            #expect(lines.contains("> No launches match “qz”"))
            await session.send(.character("/"))
            #expect(await session.send(.interrupt) == false)
        }
    }

    @Test("the demo with --database has no search, and / says so")
    func noSearchWithoutTheSearchList() async throws {
        try await withLaunchServer { server in
            let api = TutorialAPI(client: GraphQLClient(endpoint: server.graphQLURL))
            let pager = try DemoCommand.makePager(source: api.source(), pageSize: 20, prefetchDistance: 5)
            let session = DemoCommand.makeSession(
                api: api, pager: pager, size: ScreenSize(rows: 24, columns: 100))
            await session.start()
            await session.settle()
            #expect(await session.text().last?.contains("/ search") == false)
            await session.send(.character("/"))
            #expect(await session.screen.isEditingSearch == false)
            #expect(await session.text().last?.contains("without --database") == true)
        }
    }
}
