extension GraphQLStore {
    /// Removes a record, for example after a mutation deleted its object.
    ///
    /// Every list that references the record loses those elements, and
    /// every list of objects without identity (a connection's edges) loses
    /// the objects that reference it directly, so a watched list shows the
    /// rest at once. A field that references the record directly keeps the
    /// reference, which now dangles: a read through it misses (and so asks
    /// for a refetch) instead of showing a `null` the server never sent.
    /// The objects without identity the record held (`Launch:1`'s `rocket`)
    /// go with it.
    ///
    /// A deletion outranks a response to a request sent before it: while a
    /// `GraphQLClient` request sent earlier is in flight, the store keeps
    /// the deletion, and that response's write leaves the record deleted
    /// (and out of the lists it would bring it into), though the server
    /// answered before the deletion. A response to a request sent after it,
    /// or a write of your own, brings the record back.
    ///
    /// ```swift
    /// store.delete(record: "Launch:109")
    /// ```
    /// - Parameter key: the record's key.
    /// - Returns: the record's fields and the lists that lost elements; empty
    ///   when the store did not hold the record.
    /// - Complexity: O(*f* + *r*) on average for a record of *f* fields
    ///   referenced by *r* fields, plus the size of those fields' values;
    ///   independent of the number of records held.
    @discardableResult
    public func delete(record key: CacheKey) -> StoreChange {
        commit { $0.delete(key) }
    }

    /// Sets fields of a record, creating it if needed; a `nil` value removes
    /// the field.
    ///
    /// ```swift
    /// store.modify(record: "Launch:109", fields: ["isBooked": .scalar(true)])
    /// // Append a launch to a list:
    /// if case .list(let old)? = store.record(for: .queryRoot)?["favorites"] {
    ///     store.modify(record: .queryRoot, fields: ["favorites": .list(old + [.reference("Launch:7")])])
    /// }
    /// ```
    /// - Parameters:
    ///   - key: the record's key.
    ///   - fields: the new values by storage key; `nil` removes a field.
    /// - Returns: the fields whose value changed.
    /// - Complexity: O(*n*) on average for *n* fields given, plus the size of
    ///   the values that hold references.
    @discardableResult
    public func modify(record key: CacheKey, fields: [String: StoreValue?]) -> StoreChange {
        commit { $0.modify(key, fields: fields) }
    }
}
