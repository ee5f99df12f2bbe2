public import Foundation
import PagingLock

/// The client side of GraphQL subscriptions over WebSocket (the `graphql-transport-ws`
/// protocol): one connection shared by every subscription of the ``GraphQLClient``s
/// that hold it, opened with the first subscription and closed after the last,
/// reconnected with backoff when it is lost.
///
/// ```swift
/// let webSocket = GraphQLWebSocketClient(
///     url: URL(string: "wss://example.com/graphql")!,
///     transport: myWebSocketTransport,
///     connectionParameters: { ["authToken": .string(try await session.token())] }
/// )
/// var client = GraphQLClient(endpoint: endpoint, transport: httpTransport, store: store)
/// client.webSocket = webSocket
/// for try await response in client.subscribe(LaunchAddedSubscription()) { show(response.data) }
/// ```
///
/// Subscribe with ``GraphQLClient/subscribe(_:onStart:)``; observe the connection with
/// ``statusUpdates``. See <doc:Subscriptions> for what is delivered in what order,
/// what a disconnection does, and the errors.
public final class GraphQLWebSocketClient: Sendable {
    /// The WebSocket endpoint (`ws:` or `wss:`).
    public let url: URL
    /// Header fields of each connection's opening handshake.
    public let headers: [String: String]
    /// How long the server has to acknowledge `connection_init` before the client closes
    /// the connection (4504) and tries again; `nil` to wait as long as it takes.
    public let acknowledgementTimeout: Duration?
    /// When the client reconnects after its connection was lost.
    public let reconnectPolicy: GraphQLReconnectPolicy

    let transport: any WebSocketTransport
    let connectionParameters: @Sendable () async throws -> JSONValue?
    let sleep: @Sendable (Duration) async throws -> Void
    private let state: Lock<State>

    /// Creates a client; it connects when the first subscription starts.
    /// - Parameters:
    ///   - url: the WebSocket endpoint.
    ///   - headers: header fields of each opening handshake.
    ///   - transport: what opens the connections.
    ///   - connectionParameters: the payload of each connection's `connection_init`,
    ///     where servers look for credentials; called before each connection, so that a
    ///     reconnection sends a fresh token. `nil` (the default) sends none. When it
    ///     throws, every subscription ends with ``GraphQLSubscriptionError/Code/connectionParameters``.
    ///   - acknowledgementTimeout: how long the server has to acknowledge a connection;
    ///     10 seconds unless given, `nil` for no limit.
    ///   - reconnectPolicy: when to reconnect; backoff from one second up to 30, without
    ///     end, unless given.
    ///   - random: the source of the backoff's jitter; give a seeded generator for
    ///     waits that repeat.
    ///   - sleep: how to wait (the backoff, the acknowledgement's limit);
    ///     `Task.sleep(for:)` unless given. It must throw when its task is cancelled.
    public init(
        url: URL,
        headers: [String: String] = [:],
        transport: any WebSocketTransport,
        connectionParameters: @escaping @Sendable () async throws -> JSONValue? = { nil },
        acknowledgementTimeout: Duration? = .seconds(10),
        reconnectPolicy: GraphQLReconnectPolicy = GraphQLReconnectPolicy(),
        random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.url = url
        self.headers = headers
        self.transport = transport
        self.connectionParameters = connectionParameters
        self.acknowledgementTimeout = acknowledgementTimeout
        self.reconnectPolicy = reconnectPolicy
        self.sleep = sleep
        state = Lock(State(random: random))
    }

    deinit {
        let watchers = state.withLock { state in
            defer { state.watchers = [:] }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.finish() }
    }

    /// The state of the connection now.
    public var status: GraphQLSubscriptionStatus {
        state.withLock { $0.status }
    }

    /// The state of the connection now and each change of it, in order: a new stream on
    /// each call, which starts with ``status`` and buffers what its reader has not read
    /// yet. A live list reads it to refresh after a reconnection (see
    /// ``GraphQLSubscriptionStatus``). The stream ends when its reader's task is
    /// cancelled, or with the client.
    public var statusUpdates: AsyncStream<GraphQLSubscriptionStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: GraphQLSubscriptionStatus.self)
        let id = state.withLock { state in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = continuation
            continuation.yield(state.status)
            return state.nextWatcher
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many subscriptions run on the client.
    var subscriptionCount: Int {
        state.withLock { $0.entries.count }
    }

    // MARK: Subscriptions

    /// Starts a subscription: registers it, and sends its `subscribe` on the connection
    /// (opening one if there is none).
    /// - Parameters:
    ///   - payload: the `subscribe` message's payload.
    ///   - sink: what takes its messages.
    /// - Returns: its token, for ``unregister(_:)``.
    func register(payload: JSONValue, sink: SubscriptionSink) -> Int {
        let (token, start) = state.withLock { state -> (Int, Int?) in
            state.nextToken += 1
            let token = state.nextToken
            state.entries[token] = Entry(payload: payload, sink: sink)
            guard state.run != nil else { return (token, state.startRun()) }
            if state.run?.socket != nil {
                let actions = state.run?.socket?.machine.subscribe(token, payload: payload) ?? []
                _ = state.apply(actions)
            }
            return (token, nil)
        }
        if let start { launch(start) }
        return token
    }

    /// Ends a subscription from the client's side: `complete` on the connection, which
    /// closes when it was the last one. Nothing happens for a token that ended.
    /// - Parameter token: the token ``register(payload:sink:)`` returned.
    func unregister(_ token: Int) {
        let removed = state.withLock { state -> Entry? in
            guard let entry = state.entries.removeValue(forKey: token) else { return nil }
            _ = state.apply(state.run?.socket?.machine.complete(token) ?? [])
            state.closeIfUnused()
            return entry
        }
        _ = removed
    }

    /// Starts the task of a run.
    private func launch(_ id: Int) {
        let task = Task { await self.run(id) }
        state.withLock { state in
            if state.run?.id == id { state.run?.task = task } else { task.cancel() }
        }
    }

    // MARK: The run: connections until the last subscription ends or the client gives up

    /// Connects, serves the connection until it ends, and reconnects as the policy
    /// allows, until the run is retired (no subscription left) or gives up.
    private func run(_ id: Int) async {
        while true {
            let failure: GraphQLSubscriptionError
            do {
                failure = try await connection(id)
            } catch {
                return  // retired
            }
            guard await connectionEnded(id, failure) else { return }
        }
    }

    /// One connection: the parameters, the handshake, the frames until it ends.
    /// - Returns: why it ended.
    /// - Throws: `CancellationError` when the run was retired meanwhile.
    private func connection(_ id: Int) async throws -> GraphQLSubscriptionError {
        let parameters: JSONValue?
        do {
            parameters = try await connectionParameters()
        } catch {
            try checkCurrent(id)
            return .connectionParameters(error)
        }
        try checkCurrent(id)
        let connection: any WebSocketConnection
        do {
            connection = try await transport.connect(
                to: url, subprotocol: GraphQLWSClientStateMachine<Int>.subprotocol, headers: headers)
        } catch {
            try checkCurrent(id)
            return .connectionFailed(error)
        }
        guard let (serial, outbox) = opened(id, parameters: parameters) else {
            await connection.close(code: .normalClosure, reason: "Normal Closure")
            throw CancellationError()
        }
        Task {
            await Self.write(
                outbox, to: connection, failed: { [weak self] in self?.sendFailed(id, serial, $0) })
        }
        if let timeout = acknowledgementTimeout {
            let timer = Task { [sleep] in
                do { try await sleep(timeout) } catch { return }
                guard !Task.isCancelled else { return }
                self.acknowledgementTimedOut(id, serial)
            }
            state.withLock { state in
                if state.run?.id == id, state.run?.socket?.serial == serial {
                    state.run?.socket?.timer = timer
                } else {
                    timer.cancel()
                }
            }
        }
        while true {
            let frame: Result<WebSocketFrame, any Error>
            do {
                frame = .success(try await connection.receive())
            } catch {
                frame = .failure(error)
            }
            let (effects, ended) = received(id, serial, frame)
            perform(effects)
            if ended { break }
        }
        return try socketEnded(id, serial)
    }

    /// Sends the outbox's frames in order until it ends or a close is sent.
    private static func write(
        _ outbox: AsyncStream<Outgoing>, to connection: any WebSocketConnection,
        failed: @Sendable (any Error) -> Void
    ) async {
        for await item in outbox {
            switch item {
            case .text(let text):
                do {
                    try await connection.send(text: text)
                } catch {
                    failed(error)
                    await connection.close(code: .goingAway, reason: "")
                    return
                }
            case .close(let code, let reason):
                await connection.close(code: code, reason: reason)
                return
            }
        }
    }

    /// Whether a run is the current one; throws `CancellationError` if not.
    private func checkCurrent(_ id: Int) throws {
        guard state.withLock({ $0.run?.id == id }) else { throw CancellationError() }
    }

    /// The socket opened: a state machine for it sends `connection_init` and each
    /// subscription's `subscribe`.
    /// - Returns: the socket's serial number and its outbox; `nil` when the run was retired.
    private func opened(_ id: Int, parameters: JSONValue?) -> (Int, AsyncStream<Outgoing>)? {
        state.withLock { state -> (Int, AsyncStream<Outgoing>)? in
            guard state.run?.id == id else { return nil }
            let (outbox, continuation) = AsyncStream.makeStream(of: Outgoing.self)
            state.nextSocket += 1
            var socket = Socket(serial: state.nextSocket, outbox: continuation)
            var actions = socket.machine.opened(payload: parameters)
            for (token, entry) in state.entries.sorted(by: { $0.key < $1.key }) {
                actions += socket.machine.subscribe(token, payload: entry.payload)
            }
            state.run?.socket = socket
            _ = state.apply(actions)
            return (socket.serial, outbox)
        }
    }

    /// A frame (or the loss of the socket) arrived.
    /// - Returns: the deliveries to make, and whether the connection is over.
    private func received(_ id: Int, _ serial: Int, _ result: Result<WebSocketFrame, any Error>)
        -> ([Effect], Bool)
    {
        state.withLock { state -> ([Effect], Bool) in
            guard state.run?.id == id, state.run?.socket?.serial == serial else { return ([], true) }
            let frame: WebSocketFrame
            switch result {
            case .success(let success):
                frame = success
            case .failure(let error):
                if state.run?.socket?.machine.isClosed == false {
                    state.run?.socket?.machine.socketLost()
                    state.run?.socket?.failure = .connectionFailed(error)
                }
                return ([], true)
            }
            let actions = state.run?.socket?.machine.received(frame) ?? []
            let effects = state.apply(actions)
            let ended = state.run?.socket?.machine.isClosed ?? true
            state.closeIfUnused()
            return (effects, ended || state.run?.id != id)
        }
    }

    /// The socket's receiving ended: why, and the socket forgotten.
    /// - Throws: `CancellationError` when the run was retired.
    private func socketEnded(_ id: Int, _ serial: Int) throws -> GraphQLSubscriptionError {
        let failure = state.withLock { state -> GraphQLSubscriptionError? in
            guard state.run?.id == id, let socket = state.run?.socket, socket.serial == serial else {
                return nil
            }
            socket.timer?.cancel()
            socket.outbox.finish()
            state.run?.socket = nil
            return socket.failure ?? .closed(.abnormalClosure, reason: "")
        }
        guard let failure else { throw CancellationError() }
        return failure
    }

    /// A connection ended with a failure: give up, or wait and go on.
    /// - Returns: whether to connect again.
    private func connectionEnded(_ id: Int, _ failure: GraphQLSubscriptionError) async -> Bool {
        enum Next {
            case stop([Effect])
            case wait(Duration)
        }
        let next = state.withLock { state -> Next in
            guard state.run?.id == id else { return .stop([]) }
            let attempt = (state.run?.failures ?? 0) + 1
            state.run?.failures = attempt
            guard failure.isRetryable, reconnectPolicy.allows(attempt: attempt) else {
                let entries = state.entries.sorted { $0.key < $1.key }
                state.entries = [:]
                state.run = nil
                state.setStatus(.failed(failure))
                return .stop(entries.map { .finish($0.value.sink, failure) })
            }
            let delay = reconnectPolicy.delay(beforeAttempt: attempt, using: &state.random)
            state.setStatus(.reconnecting(attempt: attempt, delay: delay, error: failure))
            return .wait(delay)
        }
        switch next {
        case .stop(let effects):
            perform(effects)
            return false
        case .wait(let delay):
            do { try await sleep(delay) } catch {}
            return state.withLock { state in
                guard state.run?.id == id else { return false }
                state.setStatus(.connecting(attempt: state.run?.failures ?? 0))
                return true
            }
        }
    }

    /// The acknowledgement's wait is over.
    private func acknowledgementTimedOut(_ id: Int, _ serial: Int) {
        state.withLock { state in
            guard state.run?.id == id, state.run?.socket?.serial == serial else { return }
            let actions = state.run?.socket?.machine.acknowledgementTimedOut() ?? []
            _ = state.apply(actions)
        }
    }

    /// A frame could not be sent: the connection is lost.
    private func sendFailed(_ id: Int, _ serial: Int, _ error: any Error) {
        state.withLock { state in
            guard state.run?.id == id, state.run?.socket?.serial == serial,
                state.run?.socket?.machine.isClosed == false
            else { return }
            state.run?.socket?.machine.socketLost()
            state.run?.socket?.failure = .connectionFailed(error)
        }
    }

    /// Makes deliveries, outside the lock, in order. A result that does not decode
    /// ends its subscription.
    private func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .next(let token, let sink, let payload):
                guard let error = sink.next(payload) else { continue }
                let removed = state.withLock { state -> Entry? in
                    guard let entry = state.entries.removeValue(forKey: token) else { return nil }
                    _ = state.apply(state.run?.socket?.machine.complete(token) ?? [])
                    state.closeIfUnused()
                    return entry
                }
                if removed != nil { sink.finish(error) }
            case .finish(let sink, let error):
                sink.finish(error)
            case .started(let sink, let connection):
                sink.started(connection)
            case .resubscribing(let sink, let connection):
                sink.resubscribing(connection)
            }
        }
    }
}

/// What takes a subscription's messages: the stream of ``GraphQLClient/subscribe(_:onStart:)``.
struct SubscriptionSink: Sendable {
    /// Takes a `next` payload; returns why it cannot be used, which ends the subscription.
    let next: @Sendable (JSONValue) -> GraphQLSubscriptionError?
    /// Ends the subscription: normally (`nil`) or with an error.
    let finish: @Sendable (GraphQLSubscriptionError?) -> Void
    /// The server has read the subscription's `subscribe` on a connection (its number).
    var started: @Sendable (Int) -> Void = { _ in }
    /// The subscription's `subscribe` goes out on a connection just acknowledged (its number):
    /// called before any frame after the acknowledgement is read, so before any of its results
    /// on that connection.
    var resubscribing: @Sendable (Int) -> Void = { _ in }
}

/// A running subscription.
private struct Entry: Sendable {
    let payload: JSONValue
    let sink: SubscriptionSink
}

/// A delivery to make outside the lock.
private enum Effect: Sendable {
    case next(Int, SubscriptionSink, JSONValue)
    case finish(SubscriptionSink, GraphQLSubscriptionError?)
    case started(SubscriptionSink, Int)
    case resubscribing(SubscriptionSink, Int)
}

/// What the writer of a socket sends.
private enum Outgoing: Sendable {
    case text(String)
    case close(WebSocketCloseCode, String)
}

/// One socket of a run.
private struct Socket: Sendable {
    let serial: Int
    let outbox: AsyncStream<Outgoing>.Continuation
    var machine = GraphQLWSClientStateMachine<Int>()
    var timer: Task<Void, Never>?
    /// Why it ended, once it did.
    var failure: GraphQLSubscriptionError?

    init(serial: Int, outbox: AsyncStream<Outgoing>.Continuation) {
        self.serial = serial
        self.outbox = outbox
    }
}

/// The connections made while subscriptions run, from the first subscription to the
/// last (or to giving up).
private struct Run: Sendable {
    let id: Int
    var task: Task<Void, Never>?
    /// Failed attempts in a row.
    var failures = 0
    var socket: Socket?
}

/// The client's state, under its lock.
private struct State: Sendable {
    var entries: [Int: Entry] = [:]
    var nextToken = 0
    var run: Run?
    var nextRun = 0
    var nextSocket = 0
    /// Connections acknowledged so far.
    var connections = 0
    var status = GraphQLSubscriptionStatus.idle
    var watchers: [Int: AsyncStream<GraphQLSubscriptionStatus>.Continuation] = [:]
    var nextWatcher = 0
    var random: any RandomNumberGenerator & Sendable

    init(random: any RandomNumberGenerator & Sendable) {
        self.random = random
    }

    /// Publishes a status to every reader of `statusUpdates`.
    mutating func setStatus(_ status: GraphQLSubscriptionStatus) {
        self.status = status
        for watcher in watchers.values { watcher.yield(status) }
    }

    /// Starts a run. - Returns: its id, for the caller to launch its task.
    mutating func startRun() -> Int {
        nextRun += 1
        run = Run(id: nextRun)
        setStatus(.connecting(attempt: 0))
        return nextRun
    }

    /// Retires the run when no subscription is left: `close` on its socket, its task
    /// cancelled (a backoff's wait ends), the status idle.
    mutating func closeIfUnused() {
        guard entries.isEmpty, let run else { return }
        if var socket = run.socket {
            let actions = socket.machine.close()
            _ = apply(actions, to: &socket)
            socket.timer?.cancel()
            socket.outbox.finish()
        }
        run.task?.cancel()
        self.run = nil
        setStatus(.idle)
    }

    /// Performs a state machine's actions on the run's socket: frames into the outbox,
    /// the status; returns the deliveries to make outside the lock.
    mutating func apply(_ actions: [GraphQLWSClientStateMachine<Int>.Action]) -> [Effect] {
        guard var socket = run?.socket else { return [] }
        let effects = apply(actions, to: &socket)
        run?.socket = socket
        return effects
    }

    private mutating func apply(_ actions: [GraphQLWSClientStateMachine<Int>.Action], to socket: inout Socket)
        -> [Effect]
    {
        var effects: [Effect] = []
        for action in actions {
            switch action {
            case .send(let text):
                socket.outbox.yield(.text(text))
            case .close(let code, let reason):
                socket.outbox.yield(.close(code, reason))
            case .acknowledged:
                socket.timer?.cancel()
                connections += 1
                run?.failures = 0
                setStatus(.connected(connection: connections))
                for entry in entries.values { effects.append(.resubscribing(entry.sink, connections)) }
            case .started(let tokens):
                for token in tokens {
                    if let entry = entries[token] { effects.append(.started(entry.sink, connections)) }
                }
            case .next(let token, let payload):
                if let entry = entries[token] { effects.append(.next(token, entry.sink, payload)) }
            case .error(let token, let errors):
                if let entry = entries.removeValue(forKey: token) {
                    effects.append(.finish(entry.sink, .graphQLErrors(errors)))
                }
            case .complete(let token):
                if let entry = entries.removeValue(forKey: token) { effects.append(.finish(entry.sink, nil)) }
            case .failed(let failure):
                socket.failure =
                    switch failure {
                    case .closed(let code, let reason): .closed(code, reason: reason)
                    case .badMessage(let problem): .badMessage(problem)
                    case .acknowledgementTimeout: .acknowledgementTimeout
                    }
            }
        }
        return effects
    }
}
