import Foundation
import PagingGraphQLClient
import PagingHTTPClient
import ToolsLock

/// The demo's network, which the `o` key cuts and brings back: while it is off, every request
/// fails at once, as without a network, and the server goes on running. It carries the
/// WebSocket connections of `demo --live` too: turned off, it loses those open (their reads
/// fail as on a lost network) and refuses new ones.
///
/// It also keeps what the list's title line says: the list is offline while the network is off,
/// and, once it is on, when the last request for a page of the list since then failed.
final class NetworkSwitch: GraphQLTransport, WebSocketTransport, Sendable {
    private struct State {
        var on: Bool
        /// Whether the last request for a page of the list since the network came on failed.
        var listFailed = false
        /// The WebSocket connections open, which turning the network off loses.
        var sockets: [ObjectIdentifier: SwitchedConnection] = [:]
    }

    private let base: any GraphQLTransport
    private let webSocketBase: any WebSocketTransport
    private let state: Locked<State>

    /// The error of a request sent while the network is off.
    struct Off: Error, CustomStringConvertible {
        var description: String { "the network is off (o brings it back)" }
    }

    /// Creates a switch over a transport.
    /// - Parameters:
    ///   - base: what carries the requests while the network is on.
    ///   - webSocketBase: what opens WebSocket connections while the network is on.
    ///   - on: whether it starts on.
    init(
        over base: any GraphQLTransport = HTTPClientTransport(
            idleTimeout: .seconds(15), userAgent: HTTPClientTransport.commandLineUserAgent),
        webSockets webSocketBase: any WebSocketTransport = NIOWebSocketTransport(),
        on: Bool
    ) {
        self.base = base
        self.webSocketBase = webSocketBase
        self.state = Locked(State(on: on))
    }

    /// Whether requests go through.
    var isOn: Bool { state.withLock { $0.on } }

    /// Whether the list is offline: the network is off, or the last request for a page of the
    /// list since it came on failed.
    var isListOffline: Bool { state.withLock { !$0.on || $0.listFailed } }

    /// Notes how a request for a page of the list ended.
    /// - Parameter failed: whether it failed.
    func listRequestEnded(failed: Bool) {
        state.withLock { $0.listFailed = failed }
    }

    /// Turns the network off when it is on, and on when it is off; turned on, the list is no
    /// longer offline until one of its requests fails.
    /// - Returns: whether it is on now.
    @discardableResult
    func toggle() -> Bool {
        let (on, lost) = state.withLock { state in
            state.on.toggle()
            if state.on { state.listFailed = false }
            defer { if !state.on { state.sockets = [:] } }
            return (state.on, state.on ? [] : Array(state.sockets.values))
        }
        for socket in lost { socket.cut() }
        return on
    }

    /// Turns the network off (``toggle()`` when it is on).
    func turnOff() {
        if isOn { toggle() }
    }

    /// Turns the network on (``toggle()`` when it is off).
    func turnOn() {
        if !isOn { toggle() }
    }

    /// Whether `error` is that of a request sent while the network was off, as it is or as the
    /// client wraps it.
    static func isOff(_ error: any Error) -> Bool {
        if error is Off { return true }
        guard let error = error as? GraphQLClientError, let underlying = error.underlyingError else {
            return false
        }
        return isOff(underlying)
    }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        guard isOn else { throw Off() }
        return try await base.send(request)
    }

    func connect(to url: URL, subprotocol: String, headers: [String: String]) async throws
        -> any WebSocketConnection
    {
        guard isOn else { throw Off() }
        let connection = SwitchedConnection(
            try await webSocketBase.connect(to: url, subprotocol: subprotocol, headers: headers))
        let kept = state.withLock { state -> Bool in
            guard state.on else { return false }
            state.sockets[ObjectIdentifier(connection)] = connection
            return true
        }
        // Turned off during the handshake: lost at once.
        if !kept { connection.cut() }
        return connection
    }
}

/// A WebSocket connection through a ``NetworkSwitch``, which the switch loses when it turns off.
final class SwitchedConnection: WebSocketConnection, Sendable {
    private let base: any WebSocketConnection
    private let isCut = Locked(false)

    init(_ base: any WebSocketConnection) {
        self.base = base
    }

    /// Loses the connection: a read waiting, and every call after, fails; the socket under it
    /// is closed.
    func cut() {
        isCut.withLock { $0 = true }
        let base = base
        Task { await base.close(code: .goingAway, reason: "") }
    }

    func send(text: String) async throws {
        guard !isCut.withLock({ $0 }) else { throw NetworkSwitch.Off() }
        try await base.send(text: text)
    }

    func receive() async throws -> WebSocketFrame {
        let frame = try await base.receive()
        guard !isCut.withLock({ $0 }) else { throw NetworkSwitch.Off() }
        return frame
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        await base.close(code: code, reason: reason)
    }
}
