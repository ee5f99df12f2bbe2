extension GraphQLStore {
    /// Writes the data of a response: each object with an identity into its
    /// own record, the rest under the operation's root record
    /// (``CacheKey/queryRoot`` for a query, ``CacheKey/mutationRoot`` for a
    /// mutation).
    ///
    /// ```swift
    /// let response = try await client.send(request)
    /// if let data = response.data { try store.write(data: data, for: StoreOperation(request)) }
    /// ```
    ///
    /// See <doc:HowTheStoreWorks> for how it works in detail.
    @discardableResult
    public func write(data: JSONValue, for operation: StoreOperation) throws(GraphQLStoreError) -> StoreChange
    {
        try write(data, query: operation.query)
    }

    /// Writes an object selected by a fragment into a record.
    ///
    /// ```swift
    /// let row = try StoreFragment(document: "fragment Row on Launch { id site }")
    /// try store.write(data: ["id": "109", "site": "KSC"], for: row, at: "Launch:109")
    /// ```
    /// - Parameters:
    ///   - data: the object, shaped as the fragment selects.
    ///   - fragment: the fragment.
    ///   - key: the record to write into.
    /// - Returns: the fields whose value changed.
    /// - Throws: ``GraphQLStoreError/Code/data`` as ``write(data:for:)``.
    /// - Complexity: O(*n*) on average for *n* values in the data.
    @discardableResult
    public func write(data: JSONValue, for fragment: StoreFragment, at key: CacheKey)
        throws(GraphQLStoreError)
        -> StoreChange
    {
        try write(data, query: fragment.query(at: key))
    }

    /// Writes an object selected by a fragment of a document into a record.
    /// - Parameters:
    ///   - data: the object, shaped as the fragment selects.
    ///   - document: the GraphQL document that defines the fragment.
    ///   - fragmentName: the fragment, or `nil` for the first one.
    ///   - key: the record to write into.
    ///   - variables: the values of the variables the fragment uses.
    /// - Returns: the fields whose value changed.
    /// - Throws: ``GraphQLStoreError`` for a bad document, as
    ///   ``StoreFragment/init(document:fragmentName:variables:)``, or bad
    ///   data, as ``write(data:for:)``.
    @discardableResult
    public func writeFragment(
        _ data: JSONValue, document: String, fragmentName: String? = nil, at key: CacheKey,
        variables: [String: JSONValue] = [:]
    ) throws(GraphQLStoreError) -> StoreChange {
        let fragment = try StoreFragment(
            document: document, fragmentName: fragmentName, variables: variables, cache: documents)
        return try write(data: data, for: fragment, at: key)
    }

    /// Writes an object for a selection rooted at the query's record: the
    /// entry point for a response, a fragment or a pager's node.
    @discardableResult
    func write(_ data: JSONValue, query: StoreQuery) throws(GraphQLStoreError) -> StoreChange {
        try writeCounted(data, query: query).change
    }

    /// Writes an operation's data, returning with its change the store's
    /// ``commitCount`` right after the write (for a follower that must know
    /// whether anything changed the store since).
    /// - Parameters:
    ///   - data: the response's data.
    ///   - operation: the operation.
    ///   - send: the request the response answers (``beginSend()``), if
    ///     the store was told of it: a record deleted after it was sent is
    ///     not brought back by the response.
    /// - Returns: the commit count, or `nil` when the write left a record of
    ///   the response deleted: what the response shows is then not what the
    ///   store holds.
    package func writeCounted(
        data: JSONValue, for operation: StoreOperation, answering send: StoreSend? = nil
    )
        throws(GraphQLStoreError) -> Int?
    {
        let written = try writeCounted(data, query: operation.query, sentAt: send?.order)
        return written.deletedAgain ? nil : written.count
    }

    private func writeCounted(_ data: JSONValue, query: StoreQuery, sentAt sent: Int? = nil)
        throws(GraphQLStoreError) -> (change: StoreChange, count: Int, deletedAgain: Bool)
    {
        guard case .object(let object) = data else {
            throw GraphQLStoreError(
                .data,
                "The data to write must be a JSON object of the selected fields, not \(data.canonicalText).")
        }
        var normalizer = StoreNormalizer(keying: keying, variables: query.variables)
        try normalizer.write(object, sets: query.sets, at: query.rootKey)
        let effects = try normalizer.directiveEffects()
        let entries = normalizer.entries
        var deletedAgain = false
        let (change, count) = commitCounted(writing: entries) { state in
            let (applied, again) = state.apply(entries, sentAt: sent)
            var change = applied
            deletedAgain = again
            for key in effects.deletions { change.formUnion(state.delete(key)) }
            change.connectionEdits += effects.edits
            return change
        }
        return (change, count, deletedAgain)
    }

    /// Notes a request sent now whose response may be written here: until
    /// ``endSend(_:)``, a record deleted after it is not brought back by its
    /// response (``writeCounted(data:for:answering:)``).
    /// - Complexity: O(1) expected.
    package func beginSend() -> StoreSend {
        state.withLock { state in
            let id = state.makeID()
            return StoreSend(id: id, order: state.deletions.sent(id: id))
        }
    }

    /// Notes a request ended: the deletions kept for it alone are forgotten.
    /// - Complexity: O(*o* + *d*) for *o* requests in flight and *d*
    ///   deletions kept.
    package func endSend(_ send: StoreSend) {
        state.withLock { $0.deletions.ended(id: send.id) }
    }
}

/// A request in flight, as a store knows it (``GraphQLStore/beginSend()``).
package struct StoreSend: Sendable {
    let id: Int
    /// Its number in the order of sends and deletions.
    let order: Int
}
