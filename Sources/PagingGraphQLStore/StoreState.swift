/// Everything a ``GraphQLStore`` guards with its lock: the records
/// (``StoreRecords``), the collector and what it keeps (``StoreCollector``),
/// the watches and observers (``StoreWatches``), and the commit sinks.
///
/// Every method here runs under the lock and calls no user code; what must
/// happen after the lock is released (resuming watches, calling observers)
/// is returned as a ``StoreDelivery``.
// Unchecked: its records are mutable objects (`StoredRecord`), edited in
// place. A state lives only inside a store's lock and no record escapes it
// (reads copy what they return), so no two tasks reach one at once.
struct StoreState: @unchecked Sendable {
    /// The records and the references between them.
    var records = StoreRecords()
    /// The collector, and the retains that keep records live.
    var collector = StoreCollector()
    /// The watches and observers.
    var watches = StoreWatches()
    /// What takes a copy of each commit's changed fields, under the lock,
    /// in commit order (a store on disk).
    var commitSinks: [Int: @Sendable (StoreCommitSnapshot) -> Void] = [:]
    /// The last id handed out by ``makeID()``.
    var nextID = 0
    /// The number of commits that changed something: a write learns the
    /// number of its own, and a reader compares it with the current one.
    var commits = 0
    /// The deletions kept while requests sent before them are in flight.
    var deletions = StoreDeletions()

    /// A new id for a watch, an observer, a sink or a retain.
    /// - Complexity: O(1).
    mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    // MARK: Records

    /// Sets (or, for `nil`, removes) fields of a record, creating it if
    /// needed (``StoreRecords/modify(_:fields:marking:)``).
    /// - Complexity: O(*f*) on average for *f* fields.
    mutating func modify(_ key: CacheKey, fields: [String: StoreValue?]) -> StoreChange {
        records.modify(key, fields: fields, marking: collector.marking)
    }

    /// Removes a record and the list elements that reference it
    /// (``StoreRecords/delete(_:marking:)``), and keeps the deletion while a
    /// request sent before it is in flight (``StoreDeletions``).
    /// - Complexity: O(*f* + *r*) for a record of *f* fields referenced from
    ///   *r* fields, plus the size of those fields' values.
    mutating func delete(_ key: CacheKey) -> StoreChange {
        deletions.noteDeleted(key)
        return records.delete(key, marking: collector.marking)
    }

    /// Merges a response's records, then deletes again those deleted after
    /// its request was sent (``StoreDeletions/outranks(_:sentAt:)``): the
    /// response cannot bring them back.
    /// - Returns: the change, and whether a record was deleted again (what
    ///   the response shows is then not what the store holds).
    /// - Complexity: O(*f*) on average for *f* fields written, plus the size
    ///   of the changed values that hold references (independent of the
    ///   number of records held), plus a deletion per record deleted again.
    mutating func apply(_ entries: [StoreNormalizer.Entry], sentAt sent: Int?) -> (
        change: StoreChange, deletedAgain: Bool
    ) {
        var change = records.apply(entries, marking: collector.marking)
        guard deletions.count > 0 else { return (change, false) }
        var deletedAgain = false
        for entry in entries where deletions.outranks(entry.key, sentAt: sent) {
            change.formUnion(records.delete(entry.key, marking: collector.marking))
            deletedAgain = true
        }
        return (change, deletedAgain)
    }

    /// Reads a selection.
    /// - Complexity: O(*n*) for the selection's *n* values.
    func read(_ query: StoreQuery, keying: StoreKeying) -> StoreReadResult {
        records.read(query, keying: keying)
    }

    // MARK: Collecting

    /// Adds what a write wrote to the retains that keep writes.
    /// - Complexity: O(*e*) for *e* records written, per keeper.
    mutating func keepWritten(_ entries: [StoreNormalizer.Entry]) {
        collector.keepWritten(entries)
    }

    /// During a collection, keeps what a new retain or watch reaches.
    /// - Complexity: O(1) when no collection runs; else a read of the
    ///   selection, and the records newly marked.
    mutating func markNewRoot(keys: [CacheKey] = [], query: StoreQuery? = nil, keying: StoreKeying) {
        collector.markNewRoot(keys: keys, query: query, keying: keying, in: records)
    }

    /// Runs the store's own collection, if it has one
    /// (``StoreCollector/collectIfOverLimit(_:watchQueries:keying:sparing:)``).
    /// - Complexity: O(1) when no collection runs nor starts.
    mutating func collectIfOverLimit(keying: StoreKeying, sparing spared: [StoreNormalizer.Entry] = [])
        -> StoreChange
    {
        collector.collectIfOverLimit(&records, watchQueries: watches.queries, keying: keying, sparing: spared)
    }

    /// Removes what nothing live reaches, at once
    /// (``StoreCollector/collect(_:watchQueries:keying:sparing:)``).
    /// - Complexity: O(*n*) for the *n* records held, plus a read of each
    ///   live selection.
    mutating func collect(keying: StoreKeying, sparing spared: [StoreNormalizer.Entry] = []) -> (
        change: StoreChange, removedRecords: [CacheKey], removedRootFields: [StoreFieldKey]
    ) {
        collector.collect(&records, watchQueries: watches.queries, keying: keying, sparing: spared)
    }

    // MARK: Watching

    /// Replaces a watch's dependencies, keeping the index in step.
    /// - Complexity: O(*d*) for *d* records in the old and new dependencies.
    mutating func setDependencies(_ dependencies: [CacheKey: [String]], of id: Int) {
        watches.setDependencies(dependencies, of: id)
    }

    /// Removes a watch; returns its waiter to resume.
    /// - Complexity: O(*d*) for the *d* records it depends on.
    mutating func removeWatch(_ id: Int) -> CheckedContinuation<Void, Never>? {
        watches.remove(id)
    }

    /// What a change means for watches and observers
    /// (``StoreWatches/delivery(of:)``).
    /// - Complexity: O(*c* × *w*) on average for *c* changed records and *w*
    ///   watches per record.
    mutating func delivery(of change: StoreChange) -> StoreDelivery {
        watches.delivery(of: change)
    }

    // MARK: For tests

    /// The referrers of records not held (``StoreRecords/danglingReferrers``).
    var danglingReferrers: [CacheKey: Set<StoreFieldKey>] { records.danglingReferrers }

    /// The objects the root records' fields hold (``StoreRecords/rootHeldObjects``).
    var rootHeldObjects: Int { records.rootHeldObjects }

    /// The keys of the records that reference a record.
    /// - Complexity: O(*r*) for *r* referrers.
    func referrers(of key: CacheKey) -> Set<StoreFieldKey> { records.referrers(of: key) }

    /// The watches of each record (``StoreWatches/index``).
    var watchIndex: [CacheKey: Set<Int>] { watches.index }

    /// The observers of every change (``StoreWatches/observers``).
    var observers: [Int: @Sendable (StoreChange) -> Void] { watches.observers }

    /// The store's own collection (``StoreCollector/automaticCollection``).
    var automaticCollection: StoreCollector.AutomaticCollection? { collector.automaticCollection }

    /// How many times watches read again (``StoreWatches/readCount``).
    var watchReadCount: Int { watches.readCount }

    /// How many of those reads read only the records that changed.
    var watchPartialReadCount: Int { watches.partialReadCount }

    /// The records retained (``StoreCollector/retainedKeys``).
    var retainedKeys: [Int: [CacheKey]] { collector.retainedKeys }

    /// The operations retained (``StoreCollector/retainedQueries``).
    var retainedQueries: [Int: StoreQuery] { collector.retainedQueries }
}

/// What to do once the lock is released: resume the waiting watches, then
/// call the observers with the change.
struct StoreDelivery: Sendable {
    var change = StoreChange()
    var observers: [@Sendable (StoreChange) -> Void] = []
    var waiters: [CheckedContinuation<Void, Never>] = []

    func run() {
        for waiter in waiters { waiter.resume() }
        for observer in observers { observer(change) }
    }
}
