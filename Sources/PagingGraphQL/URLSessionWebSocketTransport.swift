public import Foundation
public import PagingGraphQLClient
import PagingLock

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A `WebSocketTransport` over Foundation's `URLSessionWebSocketTask`: GraphQL subscriptions on
/// Apple platforms without another dependency.
///
/// ```swift
/// let webSocket = GraphQLWebSocketClient(
///     url: URL(string: "wss://example.com/graphql")!,
///     transport: URLSessionWebSocketTransport())
/// let client = GraphQLClient(endpoint: endpoint, transport: URLSessionTransport(), webSocket: webSocket)
/// ```
///
/// ``connect(to:subprotocol:headers:)`` returns once the server accepted the opening handshake,
/// so that a refused one (an HTTP status instead of the upgrade) throws there.
///
/// On Linux, `URLSessionWebSocketTask` (FoundationNetworking) works only over a libcurl built
/// with WebSocket support, which the distributions' packages are not (Debian 12's 7.88.1 and
/// Ubuntu 24.04's 8.5, for two): there every connection fails with the `URLError`
/// `unsupportedURL`, "WebSockets not supported by libcurl". Use `NIOWebSocketTransport` from
/// `PagingHTTPClient` there. See <doc:SubscribingOverURLSession> for the details: the close
/// codes URLSession can send, timeouts, and what the transport keeps of a connection.
public struct URLSessionWebSocketTransport: WebSocketTransport {
    /// The largest message received, in bytes: a larger one from the server fails the
    /// connection (URLSession's `maximumMessageSize`). 1 MiB by default.
    public var maximumMessageSize: Int

    /// How long the opening handshake may take before ``connect(to:subprotocol:headers:)``
    /// gives up with `URLError.timedOut`: a server that takes the TCP connection and never
    /// answers the upgrade.
    public var connectTimeout: Duration

    /// The session the connections run in, with its delegate.
    let sessions: WebSocketSession

    /// Creates a transport.
    ///
    /// The connections run in a URL session of the transport's own, with the configuration
    /// given (cookies, credentials, proxies, additional header fields), whose delegate tells the
    /// transport when a handshake completed; the session ends when the transport's last copy
    /// and its last connection are gone.
    /// - Parameters:
    ///   - configuration: the configuration of the transport's session; `.default` unless given.
    ///   - maximumMessageSize: the largest message to receive, in bytes; 1 MiB unless given.
    ///   - connectTimeout: how long an opening handshake may take; 30 seconds unless given.
    public init(
        configuration: URLSessionConfiguration = .default, maximumMessageSize: Int = 1 << 20,
        connectTimeout: Duration = .seconds(30)
    ) {
        self.maximumMessageSize = maximumMessageSize
        self.connectTimeout = connectTimeout
        sessions = WebSocketSession(configuration: configuration)
    }

    /// Opens a connection, and returns once the server accepted the upgrade.
    ///
    /// The handshake asks for `subprotocol` in `Sec-WebSocket-Protocol`, and carries `headers`.
    /// Cancelling the calling task cancels the handshake.
    /// - Parameters:
    ///   - url: the endpoint (`ws:` or `wss:`).
    ///   - subprotocol: the subprotocol to ask for.
    ///   - headers: header fields of the handshake request.
    /// - Returns: the open connection.
    /// - Throws: `CancellationError` when the calling task is cancelled first; `URLError.timedOut`
    ///   after ``connectTimeout``; the session's `URLError` when the handshake fails or is
    ///   refused (`badServerResponse` for an answer other than the upgrade, on Apple platforms;
    ///   `unsupportedURL` on Linux without a libcurl that speaks WebSocket).
    public func connect(to url: URL, subprotocol: String, headers: [String: String]) async throws
        -> any WebSocketConnection
    {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        // Last, so that a header field of the same name does not replace it.
        request.setValue(subprotocol, forHTTPHeaderField: "Sec-WebSocket-Protocol")
        let connection = sessions.connection(for: request, maximumMessageSize: maximumMessageSize)
        let connectTimeout = self.connectTimeout
        let deadline = Task {
            do { try await Task.sleep(for: connectTimeout) } catch { return }
            connection.abandonOpening(
                URLError(
                    .timedOut,
                    userInfo: [
                        NSLocalizedDescriptionKey: "no answer to the WebSocket handshake in \(connectTimeout)"
                    ]))
        }
        defer { deadline.cancel() }
        try await withTaskCancellationHandler {
            try await connection.open()
        } onCancel: {
            connection.abandonOpening(CancellationError())
        }
        return connection
    }

    /// The code URLSession sends for a close code: URLSession's `CloseCode` names only RFC 6455's
    /// codes (and FoundationNetworking can hold no other), so the codes of `graphql-transport-ws`
    /// are sent as the RFC 6455 code nearest in meaning; the close reason goes unchanged.
    ///
    /// - 1000 to 1003 and 1007 to 1011 go as they are.
    /// - 4400 to 4499 (the peer broke the protocol: 4400 when the server's message did) go as
    ///   1002, protocol error.
    /// - Every other code (4504 when the acknowledgement did not come; codes RFC 6455 reserves
    ///   for reports, such as 1005 and 1006, which no close frame may carry) goes as 1001, going
    ///   away: the client leaves the connection.
    /// - Parameter code: the code the client closes with.
    /// - Returns: the code URLSession sends.
    static func sentCloseCode(for code: WebSocketCloseCode) -> URLSessionWebSocketTask.CloseCode {
        switch code.rawValue {
        case 1000: .normalClosure
        case 1001: .goingAway
        case 1002: .protocolError
        case 1003: .unsupportedData
        case 1007: .invalidFramePayloadData
        case 1008: .policyViolation
        case 1009: .messageTooBig
        case 1010: .mandatoryExtensionMissing
        case 1011: .internalServerError
        case 4400...4499: .protocolError
        default: .goingAway
        }
    }
}

/// The URL session of a ``URLSessionWebSocketTransport`` (and of its copies), with the delegate
/// that routes each task's events to its connection. It ends, cancelling what still runs, when
/// the transport's last copy and its last connection let go of it.
final class WebSocketSession: Sendable {
    let session: URLSession
    private let router: WebSocketEventRouter

    init(configuration: URLSessionConfiguration) {
        router = WebSocketEventRouter()
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    /// A connection over a new task of the session, not resumed yet.
    func connection(for request: URLRequest, maximumMessageSize: Int) -> URLSessionWebSocketConnection {
        let task = session.webSocketTask(with: request)
        task.maximumMessageSize = maximumMessageSize
        let connection = URLSessionWebSocketConnection(task: task, session: self)
        router.add(connection, for: task)
        return connection
    }

    deinit {
        session.invalidateAndCancel()
    }
}

/// The delegate of a ``WebSocketSession``: it hands the events of each task (opened, closed,
/// completed) to the task's connection, which it does not keep alive.
private final class WebSocketEventRouter: NSObject, URLSessionWebSocketDelegate, Sendable {
    private struct Entry: Sendable {
        weak var connection: URLSessionWebSocketConnection?
    }

    private let connections = Lock<[Int: Entry]>([:])

    /// Routes a task's events to its connection, and forgets connections gone (whose tasks
    /// never completed: let go of before they started).
    func add(_ connection: URLSessionWebSocketConnection, for task: URLSessionTask) {
        connections.withLock { connections in
            connections = connections.filter { $0.value.connection != nil }
            connections[task.taskIdentifier] = Entry(connection: connection)
        }
    }

    private func connection(of task: URLSessionTask) -> URLSessionWebSocketConnection? {
        connections.withLock { $0[task.taskIdentifier]?.connection }
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?
    ) {
        connection(of: webSocketTask)?.opened()
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
    ) {
        connection(of: webSocketTask)?.closedByServer(code: closeCode, reason: reason)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let connection = connections.withLock { $0.removeValue(forKey: task.taskIdentifier)?.connection }
        connection?.completed(error: error)
    }
}
