extension GraphQLStore {
    /// Reads an operation's data from the records: exactly the JSON the
    /// server returned for the document (response keys are aliases, nulls
    /// kept), or a miss naming the first missing field.
    ///
    /// ```swift
    /// let result = store.read(operation)
    /// if let data = result.data { show(data) } else { refetch() }
    /// ```
    /// - Parameter operation: the operation.
    /// - Returns: the data or the miss, and the fields the read looked at.
    /// - Complexity: O(*n*) on average for *n* values read, independent of
    ///   the number of records held.
    public func read(_ operation: StoreOperation) -> StoreReadResult {
        read(query: operation.query)
    }

    /// Reads a fragment's data at a record.
    ///
    /// ```swift
    /// let row = try StoreFragment(document: "fragment Row on Launch { id site }")
    /// let data = store.read(row, at: "Launch:109").data
    /// ```
    /// - Parameters:
    ///   - fragment: the fragment.
    ///   - key: the record to read at.
    /// - Returns: the data or the miss, and the fields the read looked at.
    /// - Complexity: O(*n*) on average for *n* values read.
    public func read(_ fragment: StoreFragment, at key: CacheKey) -> StoreReadResult {
        read(query: fragment.query(at: key))
    }

    /// Reads a fragment of a document at a record.
    /// - Parameters:
    ///   - document: the GraphQL document that defines the fragment.
    ///   - fragmentName: the fragment, or `nil` for the first one.
    ///   - key: the record to read at.
    ///   - variables: the values of the variables the fragment uses.
    /// - Returns: the data or the miss, and the fields the read looked at.
    /// - Throws: ``GraphQLStoreError/Code/document`` for a bad document, as
    ///   ``StoreFragment/init(document:fragmentName:variables:)``.
    public func readFragment(
        document: String, fragmentName: String? = nil, at key: CacheKey, variables: [String: JSONValue] = [:]
    ) throws(GraphQLStoreError) -> StoreReadResult {
        read(
            try StoreFragment(
                document: document, fragmentName: fragmentName, variables: variables, cache: documents),
            at: key)
    }

    /// Reads a selection rooted at the query's record: the entry point for
    /// operations, fragments and a pager's node.
    package func read(query: StoreQuery) -> StoreReadResult {
        state.withLock { $0.read(query, keying: keying) }
    }
}
