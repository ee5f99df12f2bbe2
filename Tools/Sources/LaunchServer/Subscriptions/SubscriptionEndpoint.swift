import GraphQL
import HTTPTypes
import HummingbirdWebSocket
import Logging
import ToolsLock

/// GraphQL over WebSocket at `/graphql`, with the `graphql-transport-ws` subprotocol: each
/// socket is one ``GraphQLWSConnection``, whose actions this endpoint carries out (frames
/// written, subscriptions started and stopped, the socket closed).
///
/// A `subscribe` of a subscription operation runs until the client completes it, the event
/// stream ends or fails, or the socket closes; one of a query or a mutation is executed once,
/// its result sent as `next` and then `complete`, as the protocol allows. Results of one
/// subscription go out in the order of its events; nothing is sent for an id after its
/// `complete` or `error`, even when a new subscription reuses the id.
struct SubscriptionEndpoint: Sendable {
    /// The path of the endpoint (the same as GraphQL over HTTP).
    static let path = "/graphql"

    /// The close code for a socket that did not offer `graphql-transport-ws`.
    static let subprotocolNotAcceptable: UInt16 = 4406

    let api: LaunchAPI
    let context: LaunchContext
    /// How long a socket may stay open without `connection_init`.
    let initTimeout: Duration
    /// The largest message read, in bytes.
    let maximumMessageBytes: Int
    /// What `connection_init`'s payload must carry as `authorization`; `nil` for anything.
    let authorization: String?
    /// How the endpoint waits for ``initTimeout``.
    let sleep: @Sendable (Duration) async throws -> Void

    /// Whether an upgrade request is taken: one for ``path``, answered with the subprotocol when
    /// the client offered it. A socket opened without it is closed at once with 4406.
    func shouldUpgrade(_ request: HTTPRequest) -> ShouldUpgradeResult<
        WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>
    > {
        let path = request.path.map { $0.split(separator: "?", maxSplits: 1).first.map(String.init) ?? $0 }
        guard path == Self.path else { return .dontUpgrade }
        let offered = request.headerFields[values: .secWebSocketProtocol]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard offered.contains(GraphQLWSConnection.subprotocol) else {
            // Closed once the client speaks (or the wait for `connection_init` is over), not
            // at once: a client still setting up its socket may miss a close sent with the upgrade.
            return .upgrade([:]) { inbound, outbound, _ in
                let timeout = Task {
                    try await sleep(initTimeout)
                    try await outbound.close(
                        .unknown(Self.subprotocolNotAcceptable), reason: "Subprotocol not acceptable")
                }
                defer { timeout.cancel() }
                var frames = inbound.makeAsyncIterator()
                _ = try await frames.next()
                timeout.cancel()
                try await outbound.close(
                    .unknown(Self.subprotocolNotAcceptable), reason: "Subprotocol not acceptable")
                // Read on, for the client's answer to the close.
                while try await frames.next() != nil {}
            }
        }
        return .upgrade([.secWebSocketProtocol: GraphQLWSConnection.subprotocol]) {
            inbound, outbound, context in
            await handle(inbound: inbound, outbound: outbound, logger: context.logger)
        }
    }

    /// Runs one socket until it closes, then stops its subscriptions and waits for them.
    func handle(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, logger: Logger) async {
        let authorization = self.authorization
        let connection = GraphQLWSConnection(maximumMessageBytes: maximumMessageBytes) { payload in
            guard let authorization else { return true }
            return payload?["authorization"] == .string(authorization)
        }
        let session = Session(connection: connection, endpoint: self, outbound: outbound)
        let sleep = self.sleep
        let initTimeout = self.initTimeout
        let timeout = Task {
            do {
                try await sleep(initTimeout)
            } catch {
                return
            }
            await session.perform(session.update { $0.initTimedOut() })
        }
        do {
            for try await message in inbound.messages(maxSize: maximumMessageBytes) {
                let actions: [GraphQLWSConnection.Action]
                switch message {
                case .text(let text): actions = session.update { $0.receive(text: text) }
                case .binary: actions = session.update { $0.receiveBinary() }
                }
                await session.perform(actions)
            }
        } catch {
            logger.debug("subscription socket ended: \(error)")
        }
        timeout.cancel()
        await session.perform(session.update { $0.socketClosed() })
        await session.finish()
    }
}

extension SubscriptionEndpoint {
    /// One socket's state: the protocol's, and the task of each subscription running.
    final class Session: Sendable {
        /// A subscription's task, with the token its results carry: a result of a task that is
        /// no longer the id's is dropped.
        struct Running {
            var token: Int
            var task: Task<Void, Never>
        }

        struct State {
            var connection: GraphQLWSConnection
            var running: [String: Running] = [:]
            var nextToken = 0
            /// The tasks stopped, awaited before the socket's handler returns.
            var stopped: [Task<Void, Never>] = []
            /// The `next` frames queued and not written yet.
            var queued = 0
            /// The tokens of the subscriptions stopped (the client completed them, the socket
            /// closed, or they fell behind): their frames still queued are dropped.
            var stoppedTokens: Set<Int> = []
        }

        /// What the writer does, in the order the session asked.
        enum Outgoing {
            /// A frame; a `next` carries its subscription's id and token, and is dropped if that
            /// subscription was stopped before its turn came (so that a result never follows the
            /// client's `complete`, nor reaches a new subscription that reuses the id).
            case frame(String, subscription: (id: String, token: Int)?)
            /// A close frame.
            case close(UInt16, String)
        }

        /// How many `next` frames a socket may have waiting (a client that does not read):
        /// beyond, the subscription that would queue one more ends with `error`.
        static let backlog = 10_000

        private let state: Locked<State>
        private let endpoint: SubscriptionEndpoint
        private let outbox: AsyncStream<Outgoing>.Continuation
        /// The one task that writes to the socket, so that frames go out in the order queued.
        private let writer: Task<Void, Never>

        init(
            connection: GraphQLWSConnection, endpoint: SubscriptionEndpoint, outbound: WebSocketOutboundWriter
        ) {
            let state = Locked(State(connection: connection))
            self.state = state
            self.endpoint = endpoint
            let (frames, outbox) = AsyncStream<Outgoing>.makeStream()
            self.outbox = outbox
            // On the server's threads, as the connection's own task is (ServerThreads).
            writer = Task(executorPreference: ServerThreads.shared) {
                for await item in frames {
                    switch item {
                    case .frame(let text, let subscription):
                        if let subscription {
                            let current = state.withLock { state in
                                state.queued -= 1
                                return !state.stoppedTokens.contains(subscription.token)
                            }
                            guard current else { continue }
                        }
                        // A write to a socket already closed is dropped.
                        try? await outbound.write(.text(text))
                    case .close(let code, let reason):
                        try? await outbound.close(.unknown(code), reason: reason)
                    }
                }
            }
        }

        /// Changes the protocol's state and returns what to do.
        func update(_ change: (inout GraphQLWSConnection) -> [GraphQLWSConnection.Action])
            -> [GraphQLWSConnection
            .Action]
        {
            state.withLock { change(&$0.connection) }
        }

        /// Carries out actions in order: frames are queued for the writer; `token` is that of
        /// the subscription whose result the actions are.
        func perform(_ actions: [GraphQLWSConnection.Action], token: Int? = nil) async {
            for action in actions {
                switch action {
                case .send(let message):
                    guard let text = try? message.text() else { continue }
                    guard case .next(let id, _) = message, let token else {
                        outbox.yield(.frame(text, subscription: nil))
                        continue
                    }
                    let overflow = state.withLock { state -> [GraphQLWSConnection.Action]? in
                        guard state.queued >= Self.backlog else {
                            state.queued += 1
                            return nil
                        }
                        let failure = GraphQLError(
                            message:
                                "The client read too slowly: \(Self.backlog) results were waiting. Subscribe again and refetch what this subscription missed."
                        )
                        let actions = state.connection.failed(id: id, errors: [failure])
                        if let running = state.running.removeValue(forKey: id) {
                            running.task.cancel()
                            state.stopped.append(running.task)
                            state.stoppedTokens.insert(running.token)
                        }
                        return actions
                    }
                    if let overflow {
                        await perform(overflow)
                        return
                    }
                    outbox.yield(.frame(text, subscription: (id, token)))
                case .start(let id, let subscription):
                    // The subscription listens before the next frame is read: a client's ping
                    // sent after its subscribe is answered once every event from then on
                    // reaches it (the client's barrier before it catches up with a query).
                    for await _ in start(id: id, subscription) {}
                case .stop(let id):
                    state.withLock { state in
                        guard let running = state.running.removeValue(forKey: id) else { return }
                        running.task.cancel()
                        state.stopped.append(running.task)
                        state.stoppedTokens.insert(running.token)
                    }
                case .close(let code, let reason):
                    outbox.yield(.close(code, reason))
                }
            }
        }

        /// Waits for every subscription task, once the socket is closed (every one was stopped).
        func finish() async {
            let tasks = state.withLock { state in
                defer { state.stopped = [] }
                return state.stopped + state.running.values.map(\.task)
            }
            for task in tasks {
                task.cancel()
                await task.value
            }
            outbox.finish()
            await writer.value
        }

        /// ``perform(_:token:)``, with the token first, to read in the subscription's task.
        private func perform(token: Int, _ actions: [GraphQLWSConnection.Action]) async {
            await perform(actions, token: token)
        }

        /// The actions of a subscription's result, if the task is still the id's.
        private func update(
            id: String, token: Int, _ change: (inout GraphQLWSConnection) -> [GraphQLWSConnection.Action]
        ) -> [GraphQLWSConnection.Action] {
            state.withLock { state in
                guard state.running[id]?.token == token else { return [] }
                let actions = change(&state.connection)
                if !state.connection.active.contains(id) { state.running[id] = nil }
                return actions
            }
        }

        /// Starts a subscription's task.
        /// - Returns: a stream that ends once the subscription listens for events (or failed
        ///   to start), or at once for a query or a mutation.
        private func start(id: String, _ subscription: GraphQLWSConnection.Subscription) -> AsyncStream<Void>
        {
            let request = GraphQLRequest(
                query: subscription.query, operationName: subscription.operationName,
                variables: subscription.variables ?? [:])
            let endpoint = self.endpoint
            let (ready, listening) = AsyncStream<Void>.makeStream()
            state.withLock { state in
                let token = state.nextToken
                state.nextToken += 1
                // Made under the lock, so that its first result finds it in `running`.
                let task = Task(executorPreference: ServerThreads.shared) {
                    await self.run(request, id: id, token: token, endpoint: endpoint, listening: listening)
                }
                state.running[id] = Running(token: token, task: task)
            }
            return ready
        }

        private func run(
            _ request: GraphQLRequest, id: String, token: Int, endpoint: SubscriptionEndpoint,
            listening: AsyncStream<Void>.Continuation
        ) async {
            guard LaunchAPI.isSubscription(request) else {
                listening.finish()
                // A query or a mutation: one result, then `complete`. An operation that does not
                // parse is executed too, for its syntax error.
                let result = await endpoint.api.run(request, context: endpoint.context)
                await perform(token: token, update(id: id, token: token) { $0.next(id: id, result) })
                await perform(token: token, update(id: id, token: token) { $0.finished(id: id) })
                return
            }
            let started = await endpoint.api.subscribe(request, context: endpoint.context)
            listening.finish()
            switch started {
            case .failure(let errors):
                await perform(
                    token: token, update(id: id, token: token) { $0.failed(id: id, errors: errors.errors) })
            case .success(let results):
                do {
                    for try await result in results {
                        await perform(token: token, update(id: id, token: token) { $0.next(id: id, result) })
                    }
                    await perform(token: token, update(id: id, token: token) { $0.finished(id: id) })
                } catch {
                    let failure = GraphQLError(message: "\(error)")
                    await perform(
                        token: token, update(id: id, token: token) { $0.failed(id: id, errors: [failure]) })
                }
            }
        }
    }
}
