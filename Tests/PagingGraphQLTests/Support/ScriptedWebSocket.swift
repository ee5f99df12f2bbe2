import Foundation
import PagingLock
import PagingTesting
import Testing

@testable import PagingGraphQLClient

/// A queue two sides share: one pushes, the other waits for the next element.
final class AsyncQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var waiters: [CheckedContinuation<Element, Never>] = []
    }

    private let state = Lock(State())

    /// Hands an element to the first waiter, or keeps it for the next.
    func push(_ element: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Element, Never>? in
            guard !state.waiters.isEmpty else {
                state.items.append(element)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: element)
    }

    /// Waits for the next element.
    func next() async -> Element {
        await withCheckedContinuation { continuation in
            let item = state.withLock { state -> Element? in
                guard state.items.isEmpty else { return state.items.removeFirst() }
                state.waiters.append(continuation)
                return nil
            }
            if let item { continuation.resume(returning: item) }
        }
    }

    /// The elements pushed and not taken yet.
    var pending: [Element] { state.withLock { $0.items } }
}

/// A WebSocket server in memory, for the subscription tests: each connection the client
/// opens waits at ``connects`` until the test accepts it (``accept()``) or refuses it
/// (``refuse(with:)``); the test then plays the server's side of its ``ScriptedSocket``.
final class ScriptedWebSocketServer: WebSocketTransport {
    /// A connection the client asked for.
    struct Handshake: Sendable {
        var url: URL
        var subprotocol: String
        var headers: [String: String]
        var socket: ScriptedSocket
    }

    /// Where the client's connects wait.
    let connects = FetchGate<Handshake>()
    /// Whether the sockets answer the client's pings by themselves, as a server does (the
    /// test does not see them); `false` to play them in the test.
    private let answersPings: Bool

    /// A server whose sockets answer pings by themselves, or not.
    init(answersPings: Bool = true) {
        self.answersPings = answersPings
    }

    func connect(to url: URL, subprotocol: String, headers: [String: String]) async throws
        -> any WebSocketConnection
    {
        let socket = ScriptedSocket(answersPings: answersPings)
        try await connects.pass(
            Handshake(url: url, subprotocol: subprotocol, headers: headers, socket: socket))
        return socket
    }

    /// Accepts the next connection the client asks for.
    /// - Returns: the handshake, with the server's side of the socket.
    func accept() async -> Handshake {
        let call = await connects.nextArrival()
        call.open()
        return call.arguments
    }

    /// Fails the next connection the client asks for, as a network would.
    func refuse(with error: any Error = URLError(.cannotConnectToHost)) async {
        await connects.nextArrival().fail(with: error)
    }
}

/// One WebSocket connection in memory: the client's ``WebSocketConnection``, and the
/// server's side for the test (``push(_:)``, ``nextEvent()``, ``closeFromServer(_:reason:)``,
/// ``drop(_:)``).
final class ScriptedSocket: WebSocketConnection {
    /// What the client did on the socket.
    enum ClientEvent: Sendable, Equatable {
        /// A text frame: the message as JSON, or the raw text when it is not JSON.
        case message(JSONValue)
        case text(String)
        /// The client closed the socket.
        case close(WebSocketCloseCode, String)
    }

    private let toClient = AsyncQueue<Result<WebSocketFrame, any Error>>()
    private let fromClient = AsyncQueue<ClientEvent>()
    private let closed = Lock(false)
    private let sendFailure = Lock<(any Error)?>(nil)
    private let answersPings: Bool

    /// A socket that answers the client's pings by itself (unseen by the test), or not.
    init(answersPings: Bool = true) {
        self.answersPings = answersPings
    }

    // MARK: The client's side

    func send(text: String) async throws {
        if let error = sendFailure.withLock({ $0 }) { throw error }
        if let json = try? JSONValue(json: Data(text.utf8)) {
            if answersPings, json["type"] == "ping" {
                push(["type": "pong"])
                return
            }
            fromClient.push(.message(json))
        } else {
            fromClient.push(.text(text))
        }
    }

    func receive() async throws -> WebSocketFrame {
        try await toClient.next().get()
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        guard
            !closed.withLock({ closed in
                defer { closed = true }; return closed
            })
        else { return }
        fromClient.push(.close(code, reason))
        toClient.push(.success(.closed(code: code, reason: reason)))
    }

    // MARK: The server's side

    /// Sends a message to the client.
    func push(_ message: JSONValue) {
        toClient.push(.success(.text(message.jsonString)))
    }

    /// Sends a frame to the client.
    func push(frame: WebSocketFrame) {
        toClient.push(.success(frame))
    }

    /// Closes the socket from the server's side.
    func closeFromServer(_ code: WebSocketCloseCode, reason: String = "") {
        closed.withLock { $0 = true }
        toClient.push(.success(.closed(code: code, reason: reason)))
    }

    /// Loses the connection, without a close frame: the client's receive throws.
    func drop(_ error: any Error = URLError(.networkConnectionLost)) {
        closed.withLock { $0 = true }
        toClient.push(.failure(error))
    }

    /// Makes every later send of the client throw.
    func failSends(with error: any Error = URLError(.networkConnectionLost)) {
        sendFailure.withLock { $0 = error }
    }

    /// Waits for the next thing the client did.
    func nextEvent() async -> ClientEvent {
        await fromClient.next()
    }

    /// Waits for the client's next message, which must be of a type.
    /// - Returns: the message.
    func nextMessage(
        _ type: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> JSONValue {
        let event = await nextEvent()
        guard case .message(let message) = event, message["type"] == .string(type) else {
            Issue.record("expected a \(type) message, got \(event)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return message
    }

    /// Waits for the client to close the socket.
    /// - Returns: the code and reason.
    func nextClose(sourceLocation: SourceLocation = #_sourceLocation) async throws -> (
        WebSocketCloseCode, String
    ) {
        let event = await nextEvent()
        guard case .close(let code, let reason) = event else {
            Issue.record("expected a close, got \(event)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return (code, reason)
    }

    /// What the client did that the test has not read yet.
    var unreadEvents: [ClientEvent] { fromClient.pending }
}

/// A client over a ``ScriptedWebSocketServer``, whose waits stop at ``sleeps`` until the
/// test opens them, and whose backoff's jitter comes from a seed.
struct SubscriptionHarness {
    static let url = URL(string: "wss://api.example.test/graphql")
    static let parameters: JSONValue = ["authToken": "secret"]

    let server: ScriptedWebSocketServer
    let sleeps = FetchGate<Duration>()
    let seed: UInt64
    let webSocket: GraphQLWebSocketClient
    let client: GraphQLClient

    init(
        seed: UInt64 = 7, acknowledgementTimeout: Duration? = nil,
        policy: GraphQLReconnectPolicy = GraphQLReconnectPolicy(
            initialDelay: .seconds(1), maximumDelay: .seconds(8), maximumAttempts: nil),
        parameters: @escaping @Sendable () async throws -> JSONValue? = { Self.parameters },
        store: GraphQLStore? = nil, transport: any GraphQLTransport = ScriptedTransport([]),
        answersPings: Bool = true
    ) throws {
        let url = try #require(Self.url)
        let server = ScriptedWebSocketServer(answersPings: answersPings)
        self.server = server
        self.seed = seed
        let sleeps = sleeps
        webSocket = GraphQLWebSocketClient(
            url: url, headers: ["X-Client": "tests"], transport: server, connectionParameters: parameters,
            acknowledgementTimeout: acknowledgementTimeout, reconnectPolicy: policy,
            random: SeededGenerator(seed: seed), sleep: { try await sleeps.pass($0) })
        client = GraphQLClient(
            endpoint: testEndpoint, transport: transport, store: store, webSocket: webSocket)
    }

    /// Accepts the next connection and acknowledges it.
    /// - Returns: the server's side of the socket, `connection_init` read.
    func connect() async throws -> ScriptedSocket {
        let socket = await server.accept().socket
        _ = try await socket.nextMessage("connection_init")
        socket.push(["type": "connection_ack"])
        return socket
    }
}

/// A subscription document of the tests.
func launchAdded(_ site: String? = nil) -> UntypedOperation {
    UntypedOperation(
        document: "subscription LaunchAdded($site: String) { launchAdded(site: $site) { id site } }",
        operationName: "LaunchAdded", variables: site.map { ["site": .string($0)] } ?? [:])
}

/// The `next` message of a result.
func nextMessage(_ id: JSONValue, _ data: JSONValue) -> JSONValue {
    ["type": "next", "id": id, "payload": ["data": data]]
}

/// The statuses of a client as text, to compare in order.
extension AsyncStream<GraphQLSubscriptionStatus>.Iterator {
    /// The next `count` statuses, as their descriptions.
    mutating func next(_ count: Int) async -> [String] {
        var statuses: [String] = []
        for _ in 0..<count {
            guard let status = await next() else { break }
            statuses.append(status.description)
        }
        return statuses
    }
}

extension SubscriptionHarness {
    /// The waits the backoff draws from the harness's seed, attempt 1 to `count`.
    func expectedDelays(_ count: Int) -> [Duration] {
        var random = SeededGenerator(seed: seed)
        return (1...count).map { webSocket.reconnectPolicy.delay(beforeAttempt: $0, using: &random) }
    }
}
