extension GraphQLClient {
    /// Answers an operation from the store, the network or both, as a fetch
    /// policy says.
    ///
    /// ```swift
    /// let response = try await client.send(LaunchQuery(id: "109"), policy: .cacheFirst)
    /// if response.isFromCache { print("no request was made") }
    /// ```
    ///
    /// - ``GraphQLFetchPolicy/cacheFirst``: the store's data when it holds
    ///   every field the query selects, else a request.
    /// - ``GraphQLFetchPolicy/cacheOnly``: the store's data, or an error
    ///   naming the first missing field; never a request.
    /// - ``GraphQLFetchPolicy/networkOnly`` and
    ///   ``GraphQLFetchPolicy/cacheAndNetwork``: a request, as
    ///   ``send(_:headers:)``; use ``responses(_:policy:headers:)`` to get
    ///   the cached data first.
    ///
    /// A response read from the store has ``GraphQLResponse/source``
    /// ``GraphQLResponseSource/cache``, no errors, status 200 and no header
    /// fields; one from the network was written to the store before this
    /// returns. Without a ``store``, and for mutations and subscriptions,
    /// every policy sends a request.
    ///
    /// - Parameters:
    ///   - operation: the operation, typed or untyped.
    ///   - policy: where to look for the data.
    ///   - headers: header fields for the request, if one is sent.
    /// - Returns: the response, whose data is not `nil`.
    /// - Throws: ``GraphQLClientError/Code/cacheMiss`` for a cache-only query
    ///   whose data the store lacks, ``GraphQLClientError/Code/store`` for a
    ///   cache-only query the store cannot read, and what
    ///   ``send(_:headers:)`` throws for a request.
    /// - Complexity: a read of the store is O(*n*) for *n* values, plus
    ///   decoding them.
    public func send<Operation: GraphQLOperation>(
        _ operation: Operation,
        policy: GraphQLFetchPolicy,
        headers: [String: String] = [:]
    ) async throws -> GraphQLResponse<Operation.Data> {
        guard let store else { return try await send(operation, plan: nil, headers: headers) }
        let plan = ClientStorePlan(operation, store: store)
        switch policy {
        case .cacheFirst where plan.isCacheable:
            if let cached = try? plan.read(Operation.Data.self, from: store) { return cached }
        case .cacheOnly where plan.isCacheable:
            return try plan.read(Operation.Data.self, from: store)
        case .cacheOnly:
            // A query whose document the store cannot use is an error; a
            // mutation or subscription is sent.
            if case .failure(let error) = plan.operation { throw GraphQLClientError.store(error) }
        case .cacheFirst, .cacheAndNetwork, .networkOnly:
            break
        }
        return try await send(operation, plan: plan, headers: headers)
    }

    /// The responses to an operation as a fetch policy delivers them: for
    /// ``GraphQLFetchPolicy/cacheAndNetwork``, the store's data first (when
    /// it holds all of it), then the network's; for the other policies, the
    /// one response of ``send(_:policy:headers:)``.
    ///
    /// ```swift
    /// for try await response in client.responses(LaunchQuery(id: "109"), policy: .cacheAndNetwork) {
    ///     show(response.data, stale: response.isFromCache)
    /// }
    /// ```
    ///
    /// The stream ends after the last response, or with the error of the
    /// request (after the cached response, if one came). Ending the
    /// iteration, or cancelling its task, cancels the request. Without a
    /// ``store``, the stream holds the network's response only.
    ///
    /// - Parameters:
    ///   - operation: the operation, typed or untyped.
    ///   - policy: where to look for the data.
    ///   - headers: header fields for the request, if one is sent.
    /// - Returns: a stream of one or two responses.
    public func responses<Operation: GraphQLOperation>(
        _ operation: Operation,
        policy: GraphQLFetchPolicy,
        headers: [String: String] = [:]
    ) -> AsyncThrowingStream<GraphQLResponse<Operation.Data>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    if policy == .cacheAndNetwork, let store {
                        let plan = ClientStorePlan(operation, store: store)
                        if plan.isCacheable, let cached = try? plan.read(Operation.Data.self, from: store) {
                            continuation.yield(cached)
                        }
                        continuation.yield(try await send(operation, plan: plan, headers: headers))
                    } else {
                        continuation.yield(try await send(operation, policy: policy, headers: headers))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The response the store can give for an operation, without a request:
    /// `nil` when the client has no ``store``, when the store lacks a field
    /// the operation selects or cannot read its document, or when the data
    /// does not decode into the operation's `Data`.
    ///
    /// ```swift
    /// if let cached = client.read(LaunchQuery(id: "109")) { show(cached.data) }
    /// ```
    /// - Parameter operation: the operation.
    /// - Returns: a response with ``GraphQLResponse/source``
    ///   ``GraphQLResponseSource/cache``, or `nil`.
    /// - Complexity: O(*n*) for *n* values read, plus decoding them.
    public func read<Operation: GraphQLOperation>(_ operation: Operation) -> GraphQLResponse<Operation.Data>?
    {
        guard let store else { return nil }
        return try? ClientStorePlan(operation, store: store).read(Operation.Data.self, from: store)
    }
}
