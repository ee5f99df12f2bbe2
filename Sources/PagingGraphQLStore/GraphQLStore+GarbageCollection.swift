extension GraphQLStore {
    /// Removes the records that nothing live can reach, and the fields of the
    /// root records that nothing live reads.
    ///
    /// See <doc:HowTheStoreWorks> for how it works in detail.
    /// - Complexity: O(*n*) for the *n* records held, plus a read of each
    ///   live watch's and retained operation's selection.
    @discardableResult
    public func gc() -> StoreGCResult {
        var result = StoreGCResult()
        _ = commit { state in
            let collected = state.collect(keying: keying)
            result = StoreGCResult(
                removedRecords: Set(collected.removedRecords),
                removedRootFields: Set(collected.removedRootFields))
            return collected.change
        }
        return result
    }

    /// Keeps records, and everything reachable from them, from collection
    /// until the token is cancelled or released.
    ///
    /// ```swift
    /// let token = store.retain("Launch:109", "Launch:110")
    /// ```
    /// - Parameter keys: the records to keep.
    /// - Returns: the token that keeps them.
    /// - Complexity: O(*k*) for *k* keys.
    public func retain(_ keys: CacheKey...) -> StoreRetainToken {
        retain(keys)
    }

    /// Keeps records, and everything reachable from them, from collection
    /// until the token is cancelled or released.
    /// - Parameter keys: the records to keep.
    /// - Returns: the token that keeps them.
    /// - Complexity: O(*k*) for *k* keys.
    public func retain(_ keys: [CacheKey]) -> StoreRetainToken {
        let id = state.withLock { state in
            let id = state.makeID()
            state.collector.retainedKeys[id] = keys
            state.markNewRoot(keys: keys, keying: keying)
            return id
        }
        return StoreRetainToken { [self] in
            _ = state.withLock { $0.collector.retainedKeys.removeValue(forKey: id) }
        }
    }

    /// Keeps what an operation reads from collection until the token is
    /// cancelled or released: each collection reads the operation again, so
    /// what it keeps follows the data.
    /// - Parameter operation: the operation whose data to keep.
    /// - Returns: the token that keeps it.
    /// - Complexity: O(1); each collection then reads the operation.
    public func retain(_ operation: StoreOperation) -> StoreRetainToken {
        retain(query: operation.query)
    }

    /// Keeps what a fragment reads at a record from collection until the token
    /// is cancelled or released.
    /// - Parameters:
    ///   - fragment: the fragment whose data to keep.
    ///   - key: the record it is read at.
    /// - Returns: the token that keeps it.
    /// - Complexity: O(1); each collection then reads the fragment.
    public func retain(_ fragment: StoreFragment, at key: CacheKey) -> StoreRetainToken {
        retain(query: fragment.query(at: key))
    }

    /// Keeps what a selection reads from collection: the pagers' entry point.
    func retain(query: StoreQuery) -> StoreRetainToken {
        let id = state.withLock { state in
            let id = state.makeID()
            state.collector.retainedQueries[id] = query
            state.markNewRoot(query: query, keying: keying)
            return id
        }
        return StoreRetainToken { [self] in
            _ = state.withLock { $0.collector.retainedQueries.removeValue(forKey: id) }
        }
    }
}
