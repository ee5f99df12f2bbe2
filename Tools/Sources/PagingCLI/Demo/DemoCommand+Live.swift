import Foundation
import LaunchServer
import Paging
import PagingGraphQLClient
import ToolsLock

extension DemoCommand {
    /// `demo --live`: the launch list over `launchConnection`, through a store, kept live by the
    /// `launchAdded` subscription (``LiveList``); in the terminal, with the connection's state on
    /// the title line, or printed: the first page, then each launch as it arrives.
    func runLive(
        server: LaunchServer, network: NetworkSwitch, io: CommandIO, terminal: RawTerminal, interactive: Bool
    ) async throws {
        let webSocket = GraphQLWebSocketClient(url: server.webSocketURL, transport: network)
        let client = GraphQLClient(
            endpoint: server.graphQLURL, timeout: .seconds(15), transport: network, store: GraphQLStore(),
            webSocket: webSocket)
        let document: ConnectionDocument
        do {
            document = try ConnectionDocument(TutorialAPI.liveListDocument)
        } catch {
            throw CLIError.failed("the live list's document is not valid: \(error)")
        }
        let pager = ConnectionSource(client: client, document: document, as: TutorialLaunch.self)
            .makePager(
                configuration: try Self.configuration(pageSize: pageSize, prefetchDistance: prefetchDistance))
        let live = LiveList(pager: pager, client: client, subscription: TutorialAPI.launchAdded)
        let ended = Locked<(any Error)?>(nil)
        let running = Task {
            do { try await live.run() } catch { ended.withLock { $0 = error } }
        }
        defer { running.cancel() }
        guard interactive else {
            try await Self.printLive(pager: pager, count: liveCount, io: io)
            return
        }
        let session = Self.makeSession(
            api: TutorialAPI(client: client), pager: pager,
            note: { Self.liveNote(webSocket.status, pager: pager, ended: ended.withLock { $0 }) },
            network: network)
        // The title line follows the connection: each change of its state redraws it.
        let watching = Task {
            for await _ in webSocket.statusUpdates { await session.noteChanged() }
        }
        defer { watching.cancel() }
        try await TerminalRunner.run(session, terminal: terminal)
    }

    /// What the title line says of a live list: `live`, `live, catching up` (a head refresh after
    /// a reconnection), `connecting`, `reconnecting (attempt 2)`, or why it is not live.
    static func liveNote(
        _ status: GraphQLSubscriptionStatus, pager: Pager<String, TutorialLaunch>, ended: (any Error)?
    )
        -> String
    {
        if let ended { return "not live: \(ErrorText.short(ended))" }
        switch status {
        case .connected:
            return pager.loadStates.refresh.isLoading ? "live, catching up" : "live"
        case .connecting(let attempt) where attempt == 0:
            return "connecting"
        case .connecting(let attempt), .reconnecting(let attempt, _, _):
            return "reconnecting (attempt \(attempt))"
        case .failed(let error):
            return "not live: \(error.code)"
        case .idle:
            return "not live"
        }
    }

    /// Prints the list's first page once it is live, then each launch that comes to the top, until
    /// `count` have come.
    static func printLive(pager: Pager<String, TutorialLaunch>, count: Int, io: CommandIO) async throws {
        var shown: Set<String> = []
        var arrived = 0
        for await snapshot in pager.snapshots where snapshot.loadStates.refresh == .notLoading {
            guard !snapshot.items.isEmpty else { continue }
            if shown.isEmpty {
                io.standardOutput.line("Live: launches 1–\(snapshot.items.count), newest first")
                for launch in snapshot.items {
                    io.standardOutput.line("  " + plainRow(launch))
                    shown.insert(launch.id)
                }
                if count == 0 { return }
                continue
            }
            // What came at the top since: new launches, oldest first.
            let new = snapshot.items.prefix { !shown.contains($0.id) }
            for launch in new.reversed() {
                io.standardOutput.line("New: " + plainRow(launch))
                shown.insert(launch.id)
                arrived += 1
                if arrived >= count { return }
            }
        }
    }
}
