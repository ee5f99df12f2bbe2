import PagingLock

/// A normalized store of GraphQL data: every object with an identity is one
/// record, however many responses carry it, so a change written by one
/// operation shows in every read and watch of the others.
///
/// ```swift
/// let store = GraphQLStore()
/// let operation = try StoreOperation(
///     document: "query($id: ID!) { launch(id: $id) { __typename id site } }",
///     variables: ["id": "109"]
/// )
/// try store.write(data: ["launch": ["__typename": "Launch", "id": "109", "site": "KSC"]], for: operation)
/// store.read(operation).data // the same data back
///
/// for await data in store.watch(operation) {
///     show(data) // now, then after every write that changes what it reads
/// }
/// ```
///
/// See <doc:HowTheStoreWorks> for how it works in detail.
public final class GraphQLStore: Sendable {
    /// How the store identifies objects and rewrites documents.
    public let configuration: Configuration
    package let keying: StoreKeying
    let state: Lock<StoreState>
    /// The documents this store compiled and rewrote, by text.
    package let documents: StoreDocumentCache

    /// Creates an empty store.
    /// - Parameter configuration: how the store identifies objects and
    ///   rewrites documents; keys by `__typename` and `id` unless given.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.keying = StoreKeying(configuration)
        self.documents = StoreDocumentCache(limit: configuration.documentCacheLimit)
        var state = StoreState()
        state.collector.automaticCollection = configuration.recordLimit.map(
            StoreCollector.AutomaticCollection.init)
        self.state = Lock(state)
    }

    /// The number of records held.
    /// - Complexity: O(1).
    public var recordCount: Int {
        state.withLock { $0.records.count }
    }

    /// The number of watches being iterated: a watch counts from the moment
    /// its iterator is made until its task is cancelled, or its iterator is
    /// dropped.
    /// - Complexity: O(1).
    public var liveWatchCount: Int {
        state.withLock { $0.watches.count }
    }

    /// A snapshot of a record, or `nil` when the store does not hold it.
    /// - Parameter key: the record's key.
    /// - Complexity: O(1) on average.
    public func record(for key: CacheKey) -> StoreRecord? {
        state.withLock { state in
            state.records[key].map { StoreRecord(key: key, fields: $0.dictionary) }
        }
    }

    /// The keys of every record held.
    /// - Complexity: O(*n*) for *n* records.
    public var recordKeys: Set<CacheKey> {
        state.withLock { Set($0.records.keys) }
    }

    /// Applies a mutation of the state under the lock, then delivers its
    /// change outside the lock.
    func commit(_ body: (inout StoreState) -> StoreChange) -> StoreChange {
        commitCounted(body).change
    }

    /// ``commit(_:)``, also returning the number of changing commits up to
    /// and including this one (``commitCount`` right after it).
    ///
    /// A commit that leaves more records than the automatic collection's
    /// threshold (``Configuration/recordLimit``) collects, sparing what it
    /// wrote; the collection's removals are part of its change.
    /// - Parameters:
    ///   - written: the records the commit writes, if it writes data.
    ///   - body: the mutation.
    func commitCounted(
        writing written: [StoreNormalizer.Entry] = [], _ body: (inout StoreState) -> StoreChange
    )
        -> (change: StoreChange, count: Int)
    {
        let (change, count, delivery) = state.withLock { state in
            var change = body(&state)
            state.keepWritten(written)
            change.formUnion(state.collectIfOverLimit(keying: keying, sparing: written))
            if !change.isEmpty {
                state.commits += 1
                if !state.commitSinks.isEmpty {
                    let snapshot = StoreCommitSnapshot(of: change, in: state, count: state.commits)
                    for sink in state.commitSinks.values { sink(snapshot) }
                }
            }
            return (change, state.commits, state.delivery(of: change))
        }
        delivery.run()
        return (change, count)
    }

    /// The number of commits so far that changed something: equal to the
    /// count a write returned when nothing has changed the store since.
    /// - Complexity: O(1).
    package var commitCount: Int { state.withLock { $0.commits } }

    /// The number of collections the store ran by itself, finished.
    /// - Complexity: O(1).
    package var automaticCollectionCount: Int {
        state.withLock { $0.collector.automaticCollection?.runs ?? 0 }
    }

    /// Makes the store's own collections sweep the whole record table in
    /// the commit that starts them, for tests that check what each commit
    /// leaves.
    package func collectInOneCommit() {
        state.withLock { $0.collector.automaticCollection?.shardsPerCommit = StoreRecordTable.shardCount }
    }

    /// Keeps every record written from now on from collection, until the
    /// token is released: a pager's load holds one from before it sends its
    /// request until its follower has retained the page, so that a
    /// collection another write sets off in between cannot take the page.
    /// - Returns: the token that keeps the writes.
    /// - Complexity: O(1); each write then adds its records' keys to it.
    package func keepWrites() -> StoreRetainToken {
        let id = state.withLock { state in
            let id = state.makeID()
            state.collector.writeKeepers.insert(id)
            state.collector.retainedKeys[id] = []
            return id
        }
        return StoreRetainToken { [self] in
            state.withLock { state in
                state.collector.writeKeepers.remove(id)
                state.collector.retainedKeys[id] = nil
            }
        }
    }
}
