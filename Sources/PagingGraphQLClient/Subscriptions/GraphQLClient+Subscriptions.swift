import Foundation

extension GraphQLClient {
    /// Subscribes to an operation over the client's ``webSocket``: each result the server
    /// sends, as a response, until the server completes the subscription or it fails.
    ///
    /// ```swift
    /// for try await response in client.subscribe(LaunchAddedSubscription()) {
    ///     if let launch = response.data?.launchAdded { show(launch) }
    /// }
    /// ```
    ///
    /// The subscription starts at once; the connection opens with the first subscription
    /// and is shared by all. Results come in the order the server sent them; a result
    /// with errors beside its data, or with errors alone (the server could not make this
    /// event's data), is delivered, with ``GraphQLResponse/errors`` set; its
    /// ``GraphQLResponse/statusCode`` is 200.
    ///
    /// With a ``store``, each result's data is written to it before it is delivered, as
    /// ``send(_:headers:)`` writes a mutation's, mutation directives included
    /// (`@prependEdge(connections:)`, `@appendNode`, `@deleteRecord`, ...): every list
    /// following the store shows the change when the response reaches the loop.
    /// ``GraphQLResponse/storeError`` says why data could not be written.
    ///
    /// When the connection is lost, the client reconnects as its
    /// ``GraphQLWebSocketClient/reconnectPolicy`` says and subscribes again; the stream
    /// goes on, and results the server sent meanwhile are lost (see
    /// ``GraphQLWebSocketClient/statusUpdates``).
    ///
    /// Cancelling the task that reads the stream, or dropping the stream, ends the
    /// subscription: the client sends `complete`, and closes the connection when no
    /// other subscription runs.
    ///
    /// `onStart` hears when the subscription is in place: each time the server has
    /// read its `subscribe` (the client sends a `ping` after it, and the server answers
    /// pings in order), with the connection's number, as
    /// ``GraphQLSubscriptionStatus/connected(connection:)`` counts them: once on the
    /// first connection, and again after each reconnection. A server that starts a
    /// subscription before it reads the next message sends every event published after
    /// that; what was published before it, a query made from `onStart` on (such as a
    /// head refresh) brings. ``LiveList`` is built on it.
    ///
    /// - Parameters:
    ///   - operation: the operation, typed or untyped; usually a subscription.
    ///   - onStart: called, on the client's connection task, each time the server has
    ///     read the subscription's `subscribe`; it must return quickly.
    /// - Returns: the responses. The stream finishes when the server completes the
    ///   subscription, and throws a ``GraphQLSubscriptionError`` when the server refuses
    ///   it (``GraphQLSubscriptionError/Code/graphQLErrors``), a result does not decode,
    ///   the connection fails in a way not retried, or the reconnection attempts run out.
    /// - Complexity: O(*n*) per result of *n* values, plus decoding and the store's write.
    public func subscribe<Operation: GraphQLOperation>(
        _ operation: Operation, onStart: @escaping @Sendable (_ connection: Int) -> Void = { _ in }
    ) -> AsyncThrowingStream<GraphQLResponse<Operation.Data>, any Error> {
        subscribe(operation, onResubscribe: { _ in }, onStart: onStart)
    }

    /// ``subscribe(_:onStart:)``, with `onResubscribe` called each time a connection is
    /// acknowledged with the subscription running, before any of its results on that
    /// connection (on the connection's task, before its next frame is read).
    func subscribe<Operation: GraphQLOperation>(
        _ operation: Operation, onResubscribe: @escaping @Sendable (_ connection: Int) -> Void,
        onStart: @escaping @Sendable (_ connection: Int) -> Void
    ) -> AsyncThrowingStream<GraphQLResponse<Operation.Data>, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: GraphQLResponse<Operation.Data>.self, throwing: (any Error).self)
        guard let webSocket else {
            continuation.finish(throwing: GraphQLSubscriptionError.notConfigured)
            return stream
        }
        let plan = store.map { ClientStorePlan(operation, store: $0) }
        let payload: JSONValue
        do {
            let request = try makeHTTPRequest(
                for: operation, document: plan?.sentDocument ?? operation.document, headers: [:])
            payload = try JSONValue(json: request.body)
        } catch let error as GraphQLClientError {
            continuation.finish(throwing: GraphQLSubscriptionError.unencodableVariables(error))
            return stream
        } catch {
            continuation.finish(
                throwing: GraphQLSubscriptionError.unencodableVariables(
                    .unencodableVariables(error, url: endpoint)))
            return stream
        }
        let store = store
        let url = webSocket.url
        var sink = SubscriptionSink(
            next: { payload in
                let body = payload.jsonData(sortingKeys: false)
                var response: GraphQLResponse<Operation.Data>
                do throws(GraphQLClientError) {
                    response = try GraphQLResponse(
                        decoding: GraphQLHTTPResponse(statusCode: 200, body: body), url: url)
                } catch {
                    guard error.code == .graphQLErrors else { return .undecodableResponse(error) }
                    response = GraphQLResponse(data: nil, errors: error.graphQLErrors)
                }
                if let store, let plan, response.data != nil {
                    plan.write(&response, body: body, to: store)
                }
                continuation.yield(response)
                return nil
            },
            finish: { error in
                if let error { continuation.finish(throwing: error) } else { continuation.finish() }
            })
        sink.started = onStart
        sink.resubscribing = onResubscribe
        let token = webSocket.register(payload: payload, sink: sink)
        continuation.onTermination = { _ in webSocket.unregister(token) }
        return stream
    }
}
