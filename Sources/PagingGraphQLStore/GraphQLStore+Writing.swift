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
    /// Observers and watches hear of the write once, with the fields whose
    /// value changed; nothing when nothing changed.
    ///
    /// **Mutation directives.** Fields of the document may carry Relay's
    /// declarative directives; the same change then also holds what they
    /// ask (see <doc:NormalizedStore> for the details):
    ///
    /// - `@appendEdge(connections:)`, `@prependEdge(connections:)` on an
    ///   edge or a list of edges: a ``StoreConnectionEdit`` of kind
    ///   `.append` or `.prepend` for each edge's node, per connection key;
    /// - `@appendNode(connections:)`, `@prependNode(connections:)` on a node
    ///   or a list of nodes: the same for each node;
    /// - `@deleteEdge(connections:, typename:)` on an ID, a node, or a list:
    ///   a `.remove` edit for each node, per connection key;
    /// - `@deleteRecord(typename:)` on an ID, a node, or a list: the records
    ///   are deleted after the data is written, as ``delete(record:)`` does,
    ///   and listed in ``StoreChange/deletedRecords``.
    ///
    /// An ID becomes a record key by the key rules of the
    /// ``configuration``, with `typename:` as its `__typename` when given;
    /// without it the rules see the ID alone (`109` by the default rule, not
    /// `Launch:109`), so pass `typename:` unless a ``Configuration/cacheKey``
    /// keys objects by ID alone. Documents sent to a server must not carry
    /// these directives: `GraphQLClient` removes them.
    /// - Parameters:
    ///   - data: the response's `data`, shaped as the document selects.
    ///   - operation: the operation that produced it.
    /// - Returns: the fields whose value changed.
    /// - Throws: ``GraphQLStoreError/Code/data`` when the data lacks a field
    ///   the document selects, has a scalar where it selects subfields, or
    ///   gives a mutation directive an ID without a record key or an edge
    ///   without a node; ``GraphQLStoreError/Code/variables`` when a
    ///   directive's variable has no value or a wrong one. Nothing is written
    ///   then.
    /// - Complexity: O(*n*) on average for *n* values in the data,
    ///   independent of the number of records held; plus, with mutation
    ///   directives, O(*r*) for *r* records written and the cost of each
    ///   deletion.
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
        guard case .object(let object) = data else {
            throw GraphQLStoreError(
                .data,
                "The data to write must be a JSON object of the selected fields, not \(data.canonicalText).")
        }
        var normalizer = StoreNormalizer(keying: keying, variables: query.variables)
        try normalizer.write(object, sets: query.sets, at: query.rootKey)
        let effects = try normalizer.directiveEffects()
        let entries = normalizer.entries
        guard !effects.deletions.isEmpty || !effects.edits.isEmpty else {
            return commit { $0.apply(entries) }
        }
        return commit { state in
            var change = state.apply(entries)
            for key in effects.deletions { change.formUnion(state.delete(key)) }
            change.connectionEdits += effects.edits
            return change
        }
    }
}
