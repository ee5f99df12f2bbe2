import Foundation
import Paging
import PagingGraphQLClient
import PagingHTTPClient

extension BrowseCommand {
    /// `browse --live`: the connection through a store, kept live by the subscription of
    /// `--subscription` (``LiveList``) over `--websocket`; in the terminal, or printed.
    func runLive(
        document: ConnectionDocument, endpoint: URL, headers: HeaderScope, timeout: Duration,
        format: RowFormat<JSONNode>, io: CommandIO, terminal: RawTerminal, interactive: Bool
    ) async throws {
        let subscription = try Self.subscriptionOperation(
            try ConnectionOptions.readQuery(subscription ?? ""), option: "--subscription")
        let socketURL =
            try webSocketURL.map { text throws(CLIError) in try Self.webSocketURL(text) }
            ?? Self.webSocketURL(for: endpoint)
        // The --header fields stay with the endpoint's origin: the WebSocket gets none.
        let webSocket = GraphQLWebSocketClient(url: socketURL, transport: NIOWebSocketTransport())
        let client = GraphQLClient(
            endpoint: endpoint, headers: headers.fields, timeout: timeout,
            transport: try headers.makeTransport(idleTimeout: timeout), store: GraphQLStore(),
            webSocket: webSocket)
        let pager = try makePager(document: document, client: client)
        try await LiveRunner.run(
            pager: pager, client: client, webSocket: webSocket, subscription: subscription, count: liveCount,
            io: io, terminal: terminal, interactive: interactive, noun: "nodes",
            row: { format.line(format.cells($0), width: 120).trimmingCharacters(in: .whitespaces) }
        ) { note in
            ListSession(
                screen: ListScreen(title: document.connectionFieldName, noun: "nodes", canBook: false),
                pager: pager, format: format, actions: .none, note: note)
        }
    }

    /// The subscription of `--subscription`, checked: a document whose operation is a
    /// subscription.
    /// - Throws: ``CLIError`` (usage) naming what is wrong.
    static func subscriptionOperation(_ text: String, option: String) throws(CLIError) -> UntypedOperation {
        let operation = UntypedOperation(document: text)
        let parsed: StoreOperation
        do {
            parsed = try StoreOperation(operation)
        } catch {
            throw .usage("\(option) is not a GraphQL document the client can send: \(error.description)")
        }
        guard parsed.rootKey == .subscriptionRoot else {
            throw .usage(
                "\(option) must be a subscription (`subscription { … }`), such as one whose field has @prependEdge(connections:) naming the query's @connection key."
            )
        }
        return operation
    }

    /// The WebSocket URL for an endpoint: its scheme `ws` for `http`, `wss` for `https`.
    static func webSocketURL(for endpoint: URL) -> URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        components?.scheme = endpoint.scheme?.lowercased() == "https" ? "wss" : "ws"
        return components?.url ?? endpoint
    }

    /// `--websocket`'s URL, checked: a `ws` or `wss` URL with a host.
    static func webSocketURL(_ text: String) throws(CLIError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "ws" || scheme == "wss",
            url.host != nil
        else {
            throw .usage(
                "--websocket '\(text)' is not a ws or wss URL; give one such as ws://127.0.0.1:8080/graphql.")
        }
        return url
    }
}
