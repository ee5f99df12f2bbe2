import Foundation
import PagingGraphQL
import PagingHTTPClient
import Testing

/// `NIOWebSocketTransport`'s timeouts against a peer that goes silent (``SilentWebSocketPeer``):
/// a handshake never answered ends after `connectTimeout`, or when the task connecting is
/// cancelled; a close never answered drops the connection after `closeTimeout`. Only the
/// transport can end each of these: the peer never hangs up, and the transport's pings are off.
@Suite("NIOWebSocketTransport against a silent peer", .timeLimit(.minutes(30)))
struct NIOWebSocketTimeoutEndToEndTests {
    static let subprotocol = "graphql-transport-ws"

    @Test("connect throws after connectTimeout when the peer never answers the upgrade, and hangs up")
    func connectTimeout() async throws {
        let peer = try SilentWebSocketPeer(.beforeUpgrade)
        defer { peer.stop() }
        let transport = NIOWebSocketTransport(connectTimeout: .milliseconds(200), pingInterval: nil)
        let url = try peer.url
        let error = try await #require(throws: NIOWebSocketTransportError.self) {
            _ = try await transport.connect(to: url, subprotocol: Self.subprotocol, headers: [:])
        }
        #expect(error.message.hasPrefix("no answer to the opening handshake"))
        // Whether or not the connection got as far as the peer in 0.2 seconds (a busy machine),
        // a connection the peer took ends only when the transport hangs up: the events end.
        peer.stopListening()
        var events: [SilentWebSocketPeer.Event] = []
        for await event in peer.events { events.append(event) }
        if !events.isEmpty { #expect(events.last == .hungUp) }
    }

    @Test("cancelling a pending connect throws CancellationError and hangs up")
    func cancelledConnect() async throws {
        let peer = try SilentWebSocketPeer(.beforeUpgrade)
        defer { peer.stop() }
        var events = peer.events.makeAsyncIterator()
        // Far past the time limit: only the cancellation can end the handshake in time.
        let transport = NIOWebSocketTransport(connectTimeout: .seconds(600), pingInterval: nil)
        let url = try peer.url
        let connecting = Task {
            try await transport.connect(
                to: url, subprotocol: Self.subprotocol, headers: ["X-Client": "tests"])
        }
        guard case .upgradeRequest(let head) = await events.next() else {
            Issue.record("the upgrade request did not arrive")
            return
        }
        #expect(head.lowercased().contains("sec-websocket-protocol: graphql-transport-ws"))
        connecting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await connecting.value }
        #expect(await events.next() == .hungUp)
    }

    @Test(
        "a close the peer never answers: close returns, and after closeTimeout the connection is dropped and a receive waiting returns"
    )
    func unansweredClose() async throws {
        let peer = try SilentWebSocketPeer(.afterUpgrade)
        defer { peer.stop() }
        var events = peer.events.makeAsyncIterator()
        let transport = NIOWebSocketTransport(closeTimeout: .milliseconds(200), pingInterval: nil)
        let connection = try await transport.connect(
            to: try peer.url, subprotocol: Self.subprotocol, headers: [:])
        guard case .upgradeRequest = await events.next() else {
            Issue.record("the upgrade request did not arrive")
            return
        }
        let receiving = Task { try await connection.receive() }
        await connection.close(code: .normalClosure, reason: "Normal Closure")
        #expect(
            await events.next() == .frame(opcode: 0x8, payload: [0x03, 0xE8] + Array("Normal Closure".utf8)))
        // Unanswered: the transport drops the connection after closeTimeout, which ends the receive.
        switch await receiving.result {
        case .success(.closed), .failure: break
        case .success(let frame): Issue.record("received \(frame) after the close")
        }
        #expect(await events.next() == .hungUp)
        // Every later receive returns at once.
        do {
            let frame = try await connection.receive()
            guard case .closed = frame else {
                Issue.record("received \(frame) after the close")
                return
            }
        } catch {}
    }
}
