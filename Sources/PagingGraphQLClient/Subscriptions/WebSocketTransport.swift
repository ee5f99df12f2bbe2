public import Foundation

/// What opens WebSocket connections for a ``GraphQLWebSocketClient``: the one
/// piece of networking the subscriptions need, kept small so that any WebSocket
/// library adapts to it in a few lines (`URLSessionWebSocketTask` on Apple
/// platforms, a SwiftNIO client on Linux, an in-memory fake in tests).
///
/// ```swift
/// struct MyTransport: WebSocketTransport {
///     func connect(to url: URL, subprotocol: String, headers: [String: String]) async throws
///         -> any WebSocketConnection
///     {
///         var request = URLRequest(url: url)
///         request.setValue(subprotocol, forHTTPHeaderField: "Sec-WebSocket-Protocol")
///         for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
///         let task = session.webSocketTask(with: request)
///         task.resume()
///         return MyConnection(task: task)
///     }
/// }
/// ```
public protocol WebSocketTransport: Sendable {
    /// Opens a connection: the opening handshake with the subprotocol asked for.
    ///
    /// The client calls it when the first subscription starts, and again for each
    /// reconnection. Cancelling the calling task may abandon the handshake.
    /// - Parameters:
    ///   - url: the endpoint (`ws:` or `wss:`).
    ///   - subprotocol: the value of `Sec-WebSocket-Protocol`: `graphql-transport-ws`.
    ///   - headers: header fields for the handshake request, such as `Authorization`.
    /// - Returns: the open connection.
    /// - Throws: any error when the connection cannot be opened (no network, a refused
    ///   handshake); the client reports it as ``GraphQLSubscriptionError/Code/connectionFailed``
    ///   and retries.
    func connect(to url: URL, subprotocol: String, headers: [String: String]) async throws
        -> any WebSocketConnection
}

/// One open WebSocket connection, as a ``WebSocketTransport`` opens it.
///
/// The client uses a connection from two tasks at once: one sends (one frame at
/// a time, in order), the other receives (one frame at a time). It calls
/// ``close(code:reason:)`` once, from the sending side, and then receives until
/// the connection says it is closed.
public protocol WebSocketConnection: Sendable {
    /// Sends a text frame.
    /// - Parameter text: the frame's text.
    /// - Throws: any error when the frame cannot be sent; the client takes the
    ///   connection for lost.
    func send(text: String) async throws

    /// Waits for the next frame from the server.
    ///
    /// A server's close frame, or the client's own ``close(code:reason:)`` completing,
    /// is ``WebSocketFrame/closed(code:reason:)``. After ``close(code:reason:)``, a
    /// call waiting here must return (`.closed`) or throw soon: the client waits for
    /// it before it reconnects.
    /// - Returns: the frame.
    /// - Throws: any error when the connection is lost without a close frame; the
    ///   client reports it as ``GraphQLSubscriptionError/Code/connectionFailed``
    ///   (as a browser reports code 1006) and retries.
    func receive() async throws -> WebSocketFrame

    /// Closes the connection with a close frame, once the frames sent before it are out.
    /// Closing a connection that is closed or lost does nothing.
    /// - Parameters:
    ///   - code: the close code.
    ///   - reason: the close reason, at most 123 bytes of UTF-8.
    func close(code: WebSocketCloseCode, reason: String) async
}

/// A frame a ``WebSocketConnection`` received.
public enum WebSocketFrame: Sendable, Hashable {
    /// A text frame (every message of `graphql-transport-ws` is one).
    case text(String)
    /// A binary frame, which `graphql-transport-ws` does not use: the client
    /// closes the connection with code 4400 when one comes.
    case binary(Data)
    /// The connection closed: the server's close frame, or the end of the client's own
    /// close. ``WebSocketCloseCode/noStatusReceived`` when the frame had no code.
    case closed(code: WebSocketCloseCode, reason: String)
}
