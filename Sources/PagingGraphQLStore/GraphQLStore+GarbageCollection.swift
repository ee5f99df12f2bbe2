extension GraphQLStore {
    /// Removes the records that nothing live can reach, and the fields of the
    /// root records that nothing live reads.
    ///
    /// See <doc:HowTheStoreWorks> for how it works in detail.
    @discardableResult
    public func gc() -> StoreGCResult {
        var result = StoreGCResult()
        _ = commit { state in
            var change = StoreChange()
            var keptRootFields: [CacheKey: Set<String>] = [:]
            var kept: Set<CacheKey> = []
            var pending: [CacheKey] = []
            let queries = state.watches.values.map(\.query) + Array(state.retainedQueries.values)
            for query in queries {
                for (key, fields) in state.read(query, keying: keying).dependencyLists {
                    guard key.isRoot else {
                        pending.append(key)
                        continue
                    }
                    keptRootFields[key, default: []].formUnion(fields)
                    for field in fields {
                        state.records[key]?.fields[field]?.forEachReference { pending.append($0) }
                    }
                }
            }
            for keys in state.retainedKeys.values { pending += keys }
            while let key = pending.popLast() {
                guard let record = state.records[key], kept.insert(key).inserted else { continue }
                for value in record.fields.values { value.forEachReference { pending.append($0) } }
            }
            var removedRecords: [CacheKey] = []
            var removedFields: [StoreFieldKey] = []
            state.records.forEach { key, record in
                guard !kept.contains(key) else { return }
                if key.isRoot, let keep = keptRootFields[key] {
                    for field in record.fields.names where !keep.contains(field) {
                        removedFields.append(StoreFieldKey(record: key, field: field))
                    }
                } else {
                    removedRecords.append(key)
                }
            }
            for field in removedFields {
                state.remove(field: field.field, of: field.record)
                change.insert(record: field.record, field: field.field)
            }
            for key in removedRecords {
                if let record = state.records[key] {
                    for field in record.fields.names { change.insert(record: key, field: field) }
                }
                change.insert(record: key)
                state.remove(key)
            }
            result = StoreGCResult(removedRecords: Set(removedRecords), removedRootFields: Set(removedFields))
            return change
        }
        return result
    }

    /// Keeps records, and everything reachable from them, from ``gc()``
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

    /// Keeps records, and everything reachable from them, from ``gc()``
    /// until the token is cancelled or released.
    /// - Parameter keys: the records to keep.
    /// - Returns: the token that keeps them.
    /// - Complexity: O(*k*) for *k* keys.
    public func retain(_ keys: [CacheKey]) -> StoreRetainToken {
        let id = state.withLock { state in
            let id = state.makeID()
            state.retainedKeys[id] = keys
            return id
        }
        return StoreRetainToken { [self] in
            _ = state.withLock { $0.retainedKeys.removeValue(forKey: id) }
        }
    }

    /// Keeps what an operation reads from ``gc()`` until the token is
    /// cancelled or released: each collection reads the operation again, so
    /// what it keeps follows the data.
    /// - Parameter operation: the operation whose data to keep.
    /// - Returns: the token that keeps it.
    /// - Complexity: O(1); each ``gc()`` then reads the operation.
    public func retain(_ operation: StoreOperation) -> StoreRetainToken {
        retain(query: operation.query)
    }

    /// Keeps what a fragment reads at a record from ``gc()`` until the token
    /// is cancelled or released.
    /// - Parameters:
    ///   - fragment: the fragment whose data to keep.
    ///   - key: the record it is read at.
    /// - Returns: the token that keeps it.
    /// - Complexity: O(1); each ``gc()`` then reads the fragment.
    public func retain(_ fragment: StoreFragment, at key: CacheKey) -> StoreRetainToken {
        retain(query: fragment.query(at: key))
    }

    /// Keeps what a selection reads from ``gc()``: the pagers' entry point.
    func retain(query: StoreQuery) -> StoreRetainToken {
        let id = state.withLock { state in
            let id = state.makeID()
            state.retainedQueries[id] = query
            return id
        }
        return StoreRetainToken { [self] in
            _ = state.withLock { $0.retainedQueries.removeValue(forKey: id) }
        }
    }
}
