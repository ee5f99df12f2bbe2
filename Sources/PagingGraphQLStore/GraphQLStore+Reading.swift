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

    /// The values of some field paths of some records, for membership rules:
    /// each path is followed from the record through references and
    /// objects held in place; a path that reaches no scalar is absent from
    /// its record's values, and a record not held has no values at all.
    /// - Parameters:
    ///   - records: the records' keys.
    ///   - paths: the paths, each a list of storage keys.
    /// - Returns: each record's values by path, in the order of `records`.
    /// - Complexity: O(*r* *p* *d*) for *r* records and *p* paths of depth *d*, under one hold of the lock.
    package func values(of records: [CacheKey], at paths: [[String]]) -> [[[String]: JSONValue]?] {
        state.withLock { state in
            records.map { key in
                guard let record = state.records[key] else { return nil }
                var values: [[String]: JSONValue] = [:]
                for path in paths {
                    guard let first = path.first, var value = record[first] else { continue }
                    var found = true
                    for name in path.dropFirst() {
                        switch value {
                        case .reference(let next):
                            guard let field = state.records[next]?[name] else { found = false; break }
                            value = field
                        case .object(let object):
                            guard let field = object[name] else { found = false; break }
                            value = field
                        case .scalar, .list:
                            found = false
                        }
                        if !found { break }
                    }
                    if found, case .scalar(let scalar) = value { values[path] = scalar }
                }
                return values
            }
        }
    }
}
