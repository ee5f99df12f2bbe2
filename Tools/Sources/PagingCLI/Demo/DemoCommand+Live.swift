import Foundation
import LaunchServer
import Paging
import PagingGraphQLClient

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
        try await LiveRunner.run(
            pager: pager, client: client, webSocket: webSocket, subscription: TutorialAPI.launchAdded,
            count: liveCount, io: io, terminal: terminal, interactive: interactive, noun: "launches",
            row: { Self.plainRow($0) }
        ) { note in
            Self.makeSession(api: TutorialAPI(client: client), pager: pager, note: note, network: network)
        }
    }
}
