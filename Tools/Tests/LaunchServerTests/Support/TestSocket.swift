import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging

@testable import LaunchServer

/// One WebSocket to the launch server's `/graphql`, driven by a test: frames sent and read in
/// turn, over a real socket (swift-websocket's client).
final class TestSocket {
    private var messages: WebSocketInboundMessageStream.AsyncIterator
    private let outbound: WebSocketOutboundWriter

    init(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) {
        messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
        self.outbound = outbound
    }

    /// Sends a text frame.
    func send(_ text: String) async throws {
        try await outbound.write(.text(text))
    }

    /// Sends a binary frame.
    func sendBinary(_ bytes: [UInt8]) async throws {
        try await outbound.write(.binary(.init(bytes: bytes)))
    }

    /// The next text message, or `nil` once the server closed the socket.
    func next() async throws -> String? {
        while let message = try await messages.next() {
            if case .text(let text) = message { return text }
        }
        return nil
    }

    /// The next message decoded as a JSON object, or `nil` once the socket is closed.
    func nextObject() async throws -> [String: Any]? {
        guard let text = try await next() else { return nil }
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    /// Sends `connection_init` and reads the acknowledgement.
    func initialize(payload: String? = nil) async throws -> String? {
        try await send(
            payload.map { #"{"type":"connection_init","payload":\#($0)}"# } ?? #"{"type":"connection_init"}"#)
        return try await next()
    }

    /// Sends `subscribe` for a document.
    func subscribe(id: String, _ query: String) async throws {
        let payload = try JSONSerialization.data(withJSONObject: ["query": query])
        try await send(
            #"{"id":"\#(id)","type":"subscribe","payload":\#(String(decoding: payload, as: UTF8.self))}"#)
    }
}

/// Opens a socket to the server's `/graphql`, offering `graphql-transport-ws` (unless
/// `subprotocol` says otherwise), runs `body` on it, and returns the close frame the server
/// sent, if it closed the socket (the client closes it normally when `body` returns first).
@discardableResult
func withSocket(
    _ server: LaunchServer, subprotocol: String? = "graphql-transport-ws",
    _ body: @escaping @Sendable (TestSocket) async throws -> Void
) async throws -> WebSocketCloseFrame? {
    var headers = HTTPFields()
    if let subprotocol { headers[.secWebSocketProtocol] = subprotocol }
    let url = "ws://127.0.0.1:\(server.port)/graphql"
    return try await WebSocketClient.connect(
        url: url,
        configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 20, additionalHeaders: headers),
        logger: Logger(label: "TestSocket")
    ) { inbound, outbound, _ in
        try await body(TestSocket(inbound: inbound, outbound: outbound))
    }
}
