/// The watch registry of a ``GraphQLStore``: each live watch with what its
/// last read depended on, an index from records to the watches that read
/// them, and the observers of every change; and what a change means for them
/// (``delivery(of:)``).
///
/// Invariants:
/// - ``index`` names, for each record key, exactly the registered watches
///   whose dependencies include it, and holds no empty set: a watch's
///   dependencies change only through ``setDependencies(_:of:)``, and a
///   watch leaves only through ``remove(_:)``.
/// - A watch's waiter is handed out once: ``delivery(of:)`` takes it when a
///   change makes the watch dirty, ``remove(_:)`` when the watch goes.
///
/// Not `Sendable`: it lives in a ``StoreState``, which a store's lock guards.
struct StoreWatches {
    /// A live watch: its selection, what its last read depended on, and
    /// whether a change touched that since.
    struct Watch {
        /// The selection it reads.
        let query: StoreQuery
        /// The fields of each record its last read read.
        fileprivate(set) var dependencies: [CacheKey: [String]] = [:]
        /// Whether the watch must read again: set at registration and by a
        /// change to a dependency, cleared by the read.
        var isDirty = true
        /// What the last read gave, when it gave data, and where in it the
        /// object of each record read sits: a change that only set values
        /// of records read (no reference, no record added or removed) is
        /// read again at those places alone (``StoreReader/Site``).
        var last: (data: JSONValue, sites: [CacheKey: [StoreReader.Site]])?
        /// The records changed since the last read, when only values of
        /// records changed; `nil` when the whole selection is to be read.
        var changedRecords: Set<CacheKey>? = []
        /// Set when the consuming task is cancelled, so a wait ends at once.
        var isCancelled = false
        /// The task waiting for a change, if one is.
        var waiter: CheckedContinuation<Void, Never>?

        /// A new watch of a selection: dirty, so that it reads at once.
        init(query: StoreQuery) {
            self.query = query
        }
    }

    /// The watches by id.
    private(set) var registered: [Int: Watch] = [:]
    /// For each record, the watches whose dependencies include one of its
    /// fields.
    private(set) var index: [CacheKey: Set<Int>] = [:]
    /// What is called with every change, by id.
    var observers: [Int: @Sendable (StoreChange) -> Void] = [:]
    /// How many times watches read again, for tests.
    var readCount = 0
    /// How many of those reads read only the records that changed.
    var partialReadCount = 0

    /// The number of watches.
    /// - Complexity: O(1).
    var count: Int { registered.count }

    /// The selections of the watches, read lazily.
    /// - Complexity: O(1); O(*w*) for *w* watches to go through.
    var queries: LazyMapSequence<Dictionary<Int, Watch>.Values, StoreQuery> {
        registered.values.lazy.map(\.query)
    }

    /// The watch of an id.
    /// - Complexity: O(1) on average.
    subscript(id: Int) -> Watch? { registered[id] }

    /// Registers a watch of a selection under an id; it depends on nothing
    /// until ``setDependencies(_:of:)``.
    /// - Complexity: O(1) on average.
    mutating func add(_ query: StoreQuery, id: Int) {
        registered[id] = Watch(query: query)
    }

    /// Changes the watch of an id in place, if it is registered.
    /// - Returns: what `body` returns, or `nil` when no such watch is
    ///   registered.
    /// - Complexity: O(1) on average, plus `body`.
    @discardableResult
    mutating func update<Result>(_ id: Int, _ body: (inout Watch) -> Result) -> Result? {
        guard let position = registered.index(forKey: id) else { return nil }
        return body(&registered.values[position])
    }

    /// Replaces a watch's dependencies, keeping the index in step.
    /// - Complexity: O(*d*) for *d* records in the old and new dependencies.
    mutating func setDependencies(_ dependencies: [CacheKey: [String]], of id: Int) {
        guard let old = registered[id]?.dependencies else { return }
        for key in old.keys where dependencies[key] == nil {
            if index[key]?.remove(id) != nil, index[key]?.isEmpty == true { index[key] = nil }
        }
        for key in dependencies.keys where old[key] == nil {
            index[key, default: []].insert(id)
        }
        registered[id]?.dependencies = dependencies
    }

    /// Removes a watch; returns its waiter to resume.
    /// - Complexity: O(*d*) for the *d* records it depends on.
    mutating func remove(_ id: Int) -> CheckedContinuation<Void, Never>? {
        setDependencies([:], of: id)
        return registered.removeValue(forKey: id)?.waiter
    }

    /// What a change means for watches and observers: the watches it
    /// touches become dirty, and their waiters are to be resumed.
    /// - Complexity: O(*c* × *w*) on average for *c* changed records and *w*
    ///   watches per record; independent of the number of records held.
    mutating func delivery(of change: StoreChange) -> StoreDelivery {
        guard !change.isEmpty else { return StoreDelivery() }
        var waiters: [CheckedContinuation<Void, Never>] = []
        if !index.isEmpty {
            for (key, fields) in change.changed {
                guard let ids = index[key] else { continue }
                for id in ids {
                    guard let watch = registered[id], let read = watch.dependencies[key],
                        fields.isEmpty || fields.contains(where: read.contains)
                    else { continue }
                    if change.structural.contains(key) || key.isRoot {
                        registered[id]?.changedRecords = nil
                    } else {
                        registered[id]?.changedRecords?.insert(key)
                    }
                    guard !watch.isDirty else { continue }
                    registered[id]?.isDirty = true
                    if let waiter = watch.waiter {
                        registered[id]?.waiter = nil
                        waiters.append(waiter)
                    }
                }
            }
        }
        return StoreDelivery(change: change, observers: Array(observers.values), waiters: waiters)
    }
}
