extension GraphQLStore {
    /// Watches an operation's data: the current data, then the new data
    /// after every change that alters it.
    ///
    /// ```swift
    /// for await data in store.watch(operation) {
    ///     render(data)
    /// }
    /// ```
    /// See ``GraphQLStoreWatch`` for when elements come, and for
    /// cancellation.
    /// - Parameter operation: the operation to watch.
    /// - Returns: the watch; it registers when iterated.
    /// - Complexity: O(1); each element costs a read of the operation.
    public func watch(_ operation: StoreOperation) -> GraphQLStoreWatch {
        GraphQLStoreWatch(store: self, query: operation.query)
    }

    /// Watches a fragment's data at a record.
    /// - Parameters:
    ///   - fragment: the fragment to watch.
    ///   - key: the record to read it at.
    /// - Returns: the watch; it registers when iterated.
    /// - Complexity: O(1); each element costs a read of the fragment.
    public func watch(_ fragment: StoreFragment, at key: CacheKey) -> GraphQLStoreWatch {
        GraphQLStoreWatch(store: self, query: fragment.query(at: key))
    }

    /// Watches a selection rooted at the query's record.
    func watch(query: StoreQuery) -> GraphQLStoreWatch {
        GraphQLStoreWatch(store: self, query: query)
    }

    /// Calls a handler with the change of every write, delete and modify
    /// that changes something, until the returned token is cancelled or
    /// released.
    ///
    /// ```swift
    /// let observation = store.observe { change in
    ///     if change.records.contains("Launch:109") { refresh() }
    /// }
    /// ```
    ///
    /// The handler runs synchronously on the thread of the call that made
    /// the change, after the store's lock is released, so it may read and
    /// write the store; changes made on several threads at once may reach
    /// it concurrently.
    /// - Parameter handler: the handler.
    /// - Returns: the token that keeps the handler registered.
    /// - Complexity: O(1).
    public func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> StoreObservation {
        register(handler, in: \.watches.observers)
    }

    /// Adds a handler to one of the state's tables of handlers, under a new
    /// id; the token removes it.
    func register<Handler>(
        _ handler: Handler, in table: any WritableKeyPath<StoreState, [Int: Handler]> & Sendable
    )
        -> StoreObservation
    {
        let id = state.withLock { state in
            let id = state.makeID()
            state[keyPath: table][id] = handler
            return id
        }
        return StoreObservation { [self] in
            _ = state.withLock { $0[keyPath: table].removeValue(forKey: id) }
        }
    }

    /// The changes of the store, as a stream: one element per write, delete,
    /// modify or collection that changes something.
    ///
    /// ```swift
    /// for await change in store.changes() { apply(change) }
    /// ```
    /// The stream buffers every change until it is consumed; ending the
    /// iteration (or cancelling its task) unregisters it.
    /// - Returns: the stream.
    /// - Complexity: O(1).
    public func changes() -> AsyncStream<StoreChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreChange.self)
        let observation = observe { change in continuation.yield(change) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    // MARK: Watch registrations

    /// What ``readWatch(_:)`` found.
    enum WatchRead {
        /// The watch is no longer registered.
        case gone
        /// Nothing it depends on changed since its last read.
        case clean
        /// It read again: the result.
        case read(StoreReadResult)
    }

    func registerWatch(_ query: StoreQuery) -> Int {
        state.withLock { state in
            let id = state.makeID()
            state.watches.add(query, id: id)
            state.markNewRoot(query: query, keying: keying)
            return id
        }
    }

    func unregisterWatch(_ id: Int) {
        let waiter = state.withLock { $0.removeWatch(id) }
        waiter?.resume()
    }

    /// Reads a dirty watch again and records its new dependencies, in one
    /// hold of the lock, so that no change can fall between the read and
    /// the registration of what it read.
    ///
    /// When only values of records it read changed, it reads those records
    /// again at their places in its last data (``StoreReader/reread(_:in:records:keying:variables:)``);
    /// otherwise, or when that finds a record it cannot place or a miss, the
    /// whole selection.
    /// - Complexity: O(*r*) for the values the changed records' objects
    ///   hold, when only values changed; O(*n*) for the selection's *n*
    ///   values otherwise.
    func readWatch(_ id: Int) -> WatchRead {
        state.withLock { state in
            guard let watch = state.watches[id] else { return .gone }
            guard watch.isDirty else { return .clean }
            state.watches.update(id) { $0.isDirty = false }
            state.watches.readCount += 1
            defer { state.watches.update(id) { $0.changedRecords = [] } }
            // Only values of records changed: read those records again where
            // the last data shows them; the dependencies stay as they were.
            if let changed = watch.changedRecords, let last = watch.last,
                let (data, read) = StoreReader.reread(
                    changed, in: last, records: state.records.table, keying: keying,
                    variables: watch.query.variables)
            {
                // A changed `__typename` may apply other fragments: their
                // fields join the dependencies.
                var dependencies = watch.dependencies
                var grew = false
                for (key, fields) in read {
                    let known = Set(dependencies[key] ?? [])
                    let added = fields.filter { !known.contains($0) }
                    guard !added.isEmpty else { continue }
                    dependencies[key, default: []] += added
                    grew = true
                }
                if grew { state.setDependencies(dependencies, of: id) }
                state.watches.update(id) { $0.last = (data, last.sites) }
                state.watches.partialReadCount += 1
                return .read(StoreReadResult(data: data, miss: nil, dependencyLists: dependencies))
            }
            let (result, sites) = StoreReader.read(
                watch.query, records: state.records.table, keying: keying, notingSites: true)
            state.setDependencies(result.dependencyLists, of: id)
            state.watches.update(id) { $0.last = result.data.flatMap { data in sites.map { (data, $0) } } }
            return .read(result)
        }
    }

    /// Waits until a change makes the watch dirty, it is unregistered, or
    /// the task is cancelled.
    func waitForChange(of id: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    guard let watch = state.watches[id], !watch.isDirty, !watch.isCancelled else {
                        return true
                    }
                    state.watches.update(id) { $0.waiter = waiter }
                    return false
                }
                if resumeNow { waiter.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.watches.update(id) { watch in
                    watch.isCancelled = true
                    defer { watch.waiter = nil }
                    return watch.waiter
                } ?? nil
            }
            waiter?.resume()
        }
    }

    /// How many watches must read again; for tests.
    var dirtyWatchCount: Int {
        state.withLock { $0.watches.registered.values.count(where: \.isDirty) }
    }

    /// How many times watches read again; for tests.
    var watchReadCount: Int {
        state.withLock { $0.watches.readCount }
    }

    /// How many of those reads read only the records that changed; for tests.
    var watchPartialReadCount: Int {
        state.withLock { $0.watches.partialReadCount }
    }
}
