import Foundation
import LaunchServer
import PagingGraphQLClient
import PagingHTTPClient
import PagingSQLite
import Testing

@testable import PagingCLI

/// `paging demo --database FILE --offline`, driven through its model and renderer: the title line
/// says offline while the network switch is off, from the first frame; the key help names `o`;
/// and the details of a launch the store never held say why they cannot be shown.
@Suite("the demo with --database and the network switch")
struct DemoOfflineTests {
    /// The demo's transport, waiting ``patience`` for a byte where the demo waits 15 s.
    private static let transport = HTTPClientTransport(
        idleTimeout: patience, userAgent: HTTPClientTransport.commandLineUserAgent)

    /// The demo's session over the list kept in `path`, its requests through `network`, wired as
    /// `paging demo --database` wires it.
    private func databaseSession(
        _ server: LaunchServer, path: String, network: NetworkSwitch, columns: Int = 100
    ) throws -> ListSession<LocalPosition, TutorialLaunch> {
        let api = TutorialAPI(
            client: GraphQLClient(
                endpoint: server.graphQLURL, timeout: patience, transport: network, store: GraphQLStore())
        )
        let source = try DemoCommand.offlineFirstSource(api: api, path: path, network: network)
        let pager = try DemoCommand.makePager(source: source, pageSize: 20, prefetchDistance: 0)
        return DemoCommand.makeSession(
            api: api, pager: pager, size: ScreenSize(rows: 24, columns: columns),
            note: { DemoCommand.offlineNote(source, network: network) }, network: network)
    }

    /// Stores the first page of the launch list in the file at `path`, online.
    private func storeFirstPage(_ server: LaunchServer, path: String) async throws {
        let online = try databaseSession(
            server, path: path, network: NetworkSwitch(over: Self.transport, on: true))
        await online.start()
        await online.settle()
        let title = await online.text()[0]
        #expect(title.contains("Launches · 20 loaded"))
        #expect(!title.contains("offline"), "online: \(title)")
    }

    /// Whether `title` ends with the offline note and a time of day, as "offline, last refreshed
    /// 14:02" (the file was refreshed just now, today).
    private func saysOfflineWithTime(_ title: String) -> Bool {
        title.contains(#/ · offline, last refreshed \d\d:\d\d$/#)
    }

    @Test(
        "with the network off, the first frame's title line says offline and when the file was last refreshed, and the key help names o"
    )
    func offlineFromTheFirstFrame() async throws {
        try await withLaunchServer { server in
            try await withScratchFolder("paging-demo-offline") { folder in
                let path = folder.appendingPathComponent("demo.sqlite").path
                try await storeFirstPage(server, path: path)

                let session = try databaseSession(
                    server, path: path, network: NetworkSwitch(over: Self.transport, on: false))
                await session.start()
                // The first frame, drawn before the stored page is read.
                let first = await session.text()
                #expect(first[0].hasPrefix(" Launches · 0 loaded"))
                #expect(saysOfflineWithTime(first[0]), "first frame's title: \(first[0])")
                #expect(first.last?.contains("r retry  o network  q quit") == true, "\(first.last ?? "")")
                // The file covers the list: no request fails, and it still says so.
                await session.settle()
                let title = await session.text()[0]
                #expect(title.hasPrefix(" Launches · 20 loaded"))
                #expect(saysOfflineWithTime(title), "title: \(title)")

                // In 80 columns, the key help in short still names every key, o too.
                let narrow = try databaseSession(
                    server, path: path, network: NetworkSwitch(over: Self.transport, on: false), columns: 80)
                await narrow.start()
                let lines = await narrow.text()
                #expect(saysOfflineWithTime(lines[0]), "80 columns: \(lines[0])")
                #expect(lines.last?.hasSuffix("r retry  o network  q quit") == true, "\(lines.last ?? "")")
                await narrow.settle()
            }
        }
    }

    @Test("o turning the network on stops the offline note, o again brings it back, and a failed request too")
    func networkSwitchAndNote() async throws {
        // The server is stopped within (stopping it again at the end does nothing more).
        try await withLaunchServer { server in
            try await withScratchFolder("paging-demo-offline") { folder in
                let path = folder.appendingPathComponent("demo.sqlite").path
                try await storeFirstPage(server, path: path)

                let session = try databaseSession(
                    server, path: path, network: NetworkSwitch(over: Self.transport, on: false))
                await session.start()
                await session.settle()
                // Past the file's end the network is needed, and off: the page fails.
                await session.send(.end)
                await session.settle()
                var lines = await session.text()
                #expect(lines.contains { $0.contains("r to retry") })
                #expect(saysOfflineWithTime(lines[0]))

                await session.send(.character("o"))
                lines = await session.text()
                #expect(lines.last?.contains("Network on") == true)
                #expect(lines[0] == " Launches · 20 loaded", "the network is on, nothing failed since")
                await session.send(.character("o"))
                #expect(saysOfflineWithTime(await session.text()[0]), "the network is off again")
                await session.send(.character("o"))
                await session.send(.character("r"))
                await session.settle()
                #expect(await session.text()[0] == " Launches · 40 loaded")

                // The network on and the server gone: a request for the list fails, and it says so.
                await server.stop()
                await session.send(.end)
                await session.settle()
                lines = await session.text()
                #expect(lines.contains { $0.contains("r to retry") })
                #expect(saysOfflineWithTime(lines[0]), "title after a failed request: \(lines[0])")
            }
        }
    }

    @Test(
        "offline, the details of a launch never stored say they are not available offline and that o turns the network on"
    )
    func unstoredDetailsOffline() async throws {
        try await withLaunchServer { server in
            try await withScratchFolder("paging-demo-offline") { folder in
                let path = folder.appendingPathComponent("demo.sqlite").path
                try await storeFirstPage(server, path: path)

                let session = try databaseSession(
                    server, path: path, network: NetworkSwitch(over: Self.transport, on: false))
                await session.start()
                await session.settle()
                await session.send(.enter)
                await session.settle()
                let lines = await session.text()
                #expect(lines[0].contains("Starlink-10"))
                #expect(
                    lines.contains("  These details are not available offline: they were never stored."),
                    "\(lines)")
                #expect(lines.contains("  o turns the network on (in the list)."))
                #expect(!lines.contains { $0.contains("Network error") })
                // Back in the list, o turns the network on, and Enter brings the details.
                await session.send(.escape)
                await session.send(.character("o"))
                await session.send(.enter)
                await session.settle()
                #expect(await session.text().contains { $0.contains("Rocket    Falcon 9") })
            }
        }
    }

    @Test("without a network switch (no --database), the key help does not name o")
    func noSwitchNoKey() async throws {
        try await withLaunchServer { server in
            let api = TutorialAPI(client: GraphQLClient(endpoint: server.graphQLURL))
            let pager = try DemoCommand.makePager(source: api.source(), pageSize: 20, prefetchDistance: 0)
            let session = DemoCommand.makeSession(
                api: api, pager: pager, size: ScreenSize(rows: 24, columns: 100))
            await session.start()
            await session.settle()
            let lines = await session.text()
            #expect(lines.last?.contains("r retry  q quit") == true, "\(lines.last ?? "")")
            #expect(!lines[0].contains("offline"))
        }
    }
}
