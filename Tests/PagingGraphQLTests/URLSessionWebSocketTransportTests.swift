import Foundation
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `URLSessionWebSocketTransport` against a real WebSocket server on loopback
/// (``LoopbackWebSocketServer``): the handshake, frames both ways, closes from either side, and
/// a subscription of `GraphQLWebSocketClient` over it.
///
/// FoundationNetworking's `URLSessionWebSocketTask` works only over a libcurl built with
/// WebSocket support; on a Linux whose libcurl lacks it (Debian 12's, Ubuntu 24.04's), the
/// tests that need a connection are skipped (``URLSessionWebSockets/areAvailable()``), and
/// what such a platform does instead is tested.
@Suite("URLSessionWebSocketTransport", .timeLimit(.minutes(HangLimit.minutes(1))))
struct URLSessionWebSocketTransportTests {
    static let subprotocol = "graphql-transport-ws"

    static func transport(connectTimeout: Duration = .seconds(30)) -> URLSessionWebSocketTransport {
        URLSessionWebSocketTransport(configuration: .ephemeral, connectTimeout: connectTimeout)
    }

    /// A connection to `server`, and the server's side of it.
    static func open(
        _ server: LoopbackWebSocketServer, headers: [String: String] = [:]
    ) async throws -> (any WebSocketConnection, LoopbackWebSocketPeer) {
        let transport = transport()
        let url = try server.url
        async let connection = transport.connect(to: url, subprotocol: subprotocol, headers: headers)
        let peer = try await server.accept()
        return (try await connection, peer)
    }

    // MARK: Everywhere

    @Test("sends the protocol's close codes as the RFC 6455 code nearest in meaning")
    func closeCodes() {
        let sent = { (code: UInt16) in
            URLSessionWebSocketTransport.sentCloseCode(for: WebSocketCloseCode(code)).rawValue
        }
        // RFC 6455's own, as they are.
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011] {
            #expect(sent(code) == Int(code))
        }
        // The peer broke the protocol: protocol error.
        #expect(sent(4400) == 1002)
        #expect(sent(4403) == 1002)
        // The client leaves (no acknowledgement in time), or a code no close frame may carry.
        #expect(sent(4504) == 1001)
        #expect(sent(1005) == 1001)
        #expect(sent(1006) == 1001)
        #expect(sent(3000) == 1001)
    }

    @Test("a refused handshake throws from connect, not from the first receive")
    func refusedHandshake() async throws {
        let server = try LoopbackWebSocketServer { _ in .refuse(status: 403) }
        defer { server.close() }
        let transport = Self.transport()
        let url = try server.url
        let connecting = Task {
            try await transport.connect(to: url, subprotocol: Self.subprotocol, headers: [:])
        }
        if await URLSessionWebSockets.areAvailable() {
            let peer = try await server.accept()
            #expect(peer.handshake.headers["sec-websocket-protocol"] == Self.subprotocol)
        }
        await #expect(throws: (any Error).self) { _ = try await connecting.value }
    }

    @Test(
        "without WebSocket support in libcurl, connect fails at once with URLSession's unsupportedURL",
        .enabled("only where URLSession lacks WebSocket") { await !URLSessionWebSockets.areAvailable() })
    func unsupportedLibcurl() async throws {
        let server = try LoopbackWebSocketServer()
        defer { server.close() }
        let url = try server.url
        let error = try await #require(throws: URLError.self) {
            _ = try await Self.transport().connect(to: url, subprotocol: Self.subprotocol, headers: [:])
        }
        #expect(error.code == .unsupportedURL)
        #expect(error.localizedDescription.contains("WebSockets not supported by libcurl"))
    }

    // MARK: Where URLSession speaks WebSocket

    @Test(
        "the handshake asks for the subprotocol and carries the header fields",
        .enabled("needs a URLSession that speaks WebSocket") { await URLSessionWebSockets.areAvailable() })
    func handshake() async throws {
        let server = try LoopbackWebSocketServer()
        defer { server.close() }
        let (connection, peer) = try await Self.open(
            server, headers: ["Authorization": "Bearer token", "X-Client": "tests"])
        #expect(peer.handshake.method == "GET")
        #expect(peer.handshake.target == "/graphql")
        #expect(peer.handshake.headers["sec-websocket-protocol"] == Self.subprotocol)
        #expect(peer.handshake.headers["authorization"] == "Bearer token")
        #expect(peer.handshake.headers["x-client"] == "tests")
        #expect(peer.handshake.headers["upgrade"]?.lowercased() == "websocket")
        await connection.close(code: .normalClosure, reason: "")
    }

    @Test(
        "text goes both ways, the client's masked, and a binary frame arrives as binary",
        .enabled("needs a URLSession that speaks WebSocket") { await URLSessionWebSockets.areAvailable() })
    func frames() async throws {
        let server = try LoopbackWebSocketServer()
        defer { server.close() }
        let (connection, peer) = try await Self.open(server)
        try await connection.send(text: #"{"type":"connection_init"}"#)
        let frame = try #require(await peer.nextFrame())
        #expect(frame.text == #"{"type":"connection_init"}"#)
        #expect(frame.wasMasked)
        #expect(frame.isFinal)
        peer.send(text: "from the server: ünïcode")
        #expect(try await connection.receive() == .text("from the server: ünïcode"))
        peer.send(binary: [1, 2, 3])
        #expect(try await connection.receive() == .binary(Data([1, 2, 3])))
        await connection.close(code: .normalClosure, reason: "")
    }

    @Test(
        "the server's close code and reason arrive as .closed, for every receive from then on",
        .enabled("needs a URLSession that speaks WebSocket") { await URLSessionWebSockets.areAvailable() })
    func serverClose() async throws {
        let server = try LoopbackWebSocketServer()
        defer { server.close() }
        let (connection, peer) = try await Self.open(server)
        peer.sendClose(code: 1008, reason: "Forbidden")
        let closed = WebSocketFrame.closed(code: .policyViolation, reason: "Forbidden")
        #expect(try await connection.receive() == closed)
        #expect(try await connection.receive() == closed)
        // Closing a connection the server closed does nothing.
        await connection.close(code: .normalClosure, reason: "")
        #expect(try await connection.receive() == closed)
    }

    @Test(
        "the client's close sends its code and reason, and a receive waiting returns at once",
        .enabled("needs a URLSession that speaks WebSocket") { await URLSessionWebSockets.areAvailable() })
    func clientClose() async throws {
        // A server that never answers a close: only the transport can end the receive.
        let server = try LoopbackWebSocketServer(answersClose: false)
        defer { server.close() }
        let (connection, peer) = try await Self.open(server)
        async let received = connection.receive()
        await connection.close(
            code: .connectionAcknowledgementTimeout, reason: "Connection acknowledgement timeout")
        #expect(
            try await received
                == .closed(
                    code: .connectionAcknowledgementTimeout, reason: "Connection acknowledgement timeout"))
        let frame = try #require(await peer.nextFrame())
        // URLSession sends RFC 6455's codes only: 4504 goes as 1001, the reason unchanged.
        #expect(frame.closeCode == 1001)
        #expect(frame.closeReason == "Connection acknowledgement timeout")
        #expect(frame.wasMasked)
    }

    @Test(
        "a second close does nothing, and a receive after close returns .closed",
        .enabled("needs a URLSession that speaks WebSocket") { await URLSessionWebSockets.areAvailable() })
    func secondClose() async throws {
        let server = try LoopbackWebSocketServer()
        defer { server.close() }
        let (connection, peer) = try await Self.open(server)
        await connection.close(code: .normalClosure, reason: "Normal Closure")
        await connection.close(code: .goingAway, reason: "again")
        #expect(try await connection.receive() == .closed(code: .normalClosure, reason: "Normal Closure"))
        let frame = try #require(await peer.nextFrame())
        #expect(frame.closeCode == 1000)
        #expect(frame.closeReason == "Normal Closure")
        // The server answered and hung up: no second close frame came before the end.
        #expect(await peer.nextFrame() == nil)
    }

    @Test(
        "cancelling connect gives up a handshake the server never answers",
        .enabled("needs a URLSession that speaks WebSocket") { await URLSessionWebSockets.areAvailable() })
    func cancelledConnect() async throws {
        let listener = try LoopbackListener()  // takes the connection, never answers
        defer { listener.close() }
        let url = try #require(URL(string: "ws://127.0.0.1:\(listener.port)/graphql"))
        let transport = Self.transport()
        let connecting = Task {
            try await transport.connect(to: url, subprotocol: Self.subprotocol, headers: [:])
        }
        try await listener.waitForConnection()
        connecting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await connecting.value }
    }

    @Test(
        "connect gives up after connectTimeout when the server never answers the upgrade",
        .enabled("needs a URLSession that speaks WebSocket") { await URLSessionWebSockets.areAvailable() })
    func connectTimeout() async throws {
        let listener = try LoopbackListener()
        defer { listener.close() }
        let url = try #require(URL(string: "ws://127.0.0.1:\(listener.port)/graphql"))
        let transport = Self.transport(connectTimeout: .milliseconds(200))
        let error = try await #require(throws: URLError.self) {
            _ = try await transport.connect(to: url, subprotocol: Self.subprotocol, headers: [:])
        }
        #expect(error.code == .timedOut)
    }

    @Test(
        "a subscription runs over it: connection_init, the acknowledgement, subscribe, next, complete, then 1000",
        .enabled("needs a URLSession that speaks WebSocket") { await URLSessionWebSockets.areAvailable() })
    func subscription() async throws {
        let server = try LoopbackWebSocketServer()
        defer { server.close() }
        let webSocket = GraphQLWebSocketClient(
            url: try server.url, headers: ["Authorization": "Bearer token"], transport: Self.transport(),
            connectionParameters: { ["authToken": "secret"] }, acknowledgementTimeout: nil,
            reconnectPolicy: .never)
        let client = GraphQLClient(
            endpoint: testEndpoint, transport: ScriptedTransport([]), webSocket: webSocket)
        var responses = client.subscribe(launchAdded("KSC")).makeAsyncIterator()
        let peer = try await server.accept()
        #expect(peer.handshake.headers["sec-websocket-protocol"] == Self.subprotocol)
        #expect(peer.handshake.headers["authorization"] == "Bearer token")

        let initialization = try await peer.nextMessage()
        #expect(initialization == ["type": "connection_init", "payload": ["authToken": "secret"]])
        let acknowledgement: JSONValue = ["type": "connection_ack"]
        peer.send(text: acknowledgement.jsonString)
        let subscribe = try await peer.nextMessage()
        #expect(subscribe["type"] == "subscribe")
        #expect(subscribe["payload"]?["variables"] == ["site": "KSC"])
        let id = try #require(subscribe["id"])
        peer.send(text: nextMessage(id, ["launchAdded": ["id": "7", "site": "KSC"]]).jsonString)
        let response = try #require(try await responses.next())
        #expect(response.data?["launchAdded"]?["id"] == "7")
        let complete: JSONValue = ["type": "complete", "id": id]
        peer.send(text: complete.jsonString)
        #expect(try await responses.next() == nil)
        // The last subscription ended: the client closes the connection with 1000.
        let close = try #require(await peer.nextFrame())
        #expect(close.closeCode == 1000)
    }
}

/// Whether this platform's URLSession speaks WebSocket.
enum URLSessionWebSockets {
    /// Always on Apple platforms; on Linux, when FoundationNetworking's libcurl was built with
    /// WebSocket support: a connection to a port where nothing listens then fails as a refused
    /// connection does, not with `unsupportedURL` before it tries.
    static func areAvailable() async -> Bool {
        #if canImport(FoundationNetworking)
            guard let url = URL(string: "ws://127.0.0.1:9/") else { return false }
            do {
                let connection = try await URLSessionWebSocketTransport(configuration: .ephemeral).connect(
                    to: url, subprotocol: "probe", headers: [:])
                await connection.close(code: .normalClosure, reason: "")
                return true
            } catch let error as URLError where error.code == .unsupportedURL {
                return false
            } catch {
                return true
            }
        #else
            return true
        #endif
    }
}
