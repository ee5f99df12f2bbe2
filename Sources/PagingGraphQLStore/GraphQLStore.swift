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
/// **Records.** A record holds fields by *storage key*: the field's name
/// and its arguments sorted by name, variables resolved
/// (`launches(after:"abc",pageSize:20)`). A field that selects subfields
/// holds a reference to its object's record; see ``Configuration`` for how
/// objects get their keys and where objects without an identity go.
///
/// **Reads** are all or nothing: a missing field makes the whole read a
/// miss that names it, never a partial value. **Writes** report, and
/// publish once per call, the fields whose value really changed.
///
/// **Type conditions.** A fragment with a type condition applies to an
/// object when its `__typename` is the condition or, per
/// ``Configuration/possibleTypes``, one of the condition's types; when the
/// `__typename` is unknown the fragment applies (a write then skips the
/// fragment's fields that the data lacks, and a read of them misses).
/// `@include(if:)` and `@skip(if:)` are honoured.
///
/// **Deletes** remove a record and every list element that references it;
/// a field that references it directly keeps the dangling reference, so a
/// read through it misses (and a refetch follows) rather than showing a
/// wrong `null`.
///
/// **Memory.** Records stay until ``gc()`` removes those that no live watch
/// and no retain token (from a `retain(_:)`) can reach.
///
/// **Threads.** The store is safe to use from any thread or task. Its lock
/// is never held while it calls an observer or the ``Configuration/cacheKey``
/// closure, or resumes a watch.
public final class GraphQLStore: Sendable {
    /// How the store identifies objects and rewrites documents.
    public let configuration: Configuration
    package let keying: StoreKeying
    let state = Lock(StoreState())
    /// The documents this store compiled and rewrote, by text.
    package let documents: StoreDocumentCache

    /// Creates an empty store.
    /// - Parameter configuration: how the store identifies objects and
    ///   rewrites documents; keys by `__typename` and `id` unless given.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.keying = StoreKeying(configuration)
        self.documents = StoreDocumentCache(limit: configuration.documentCacheLimit)
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
            state.records[key].map { StoreRecord(key: key, fields: $0.fields.dictionary) }
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
        let (change, delivery) = state.withLock { state in
            let change = body(&state)
            return (change, state.delivery(of: change))
        }
        delivery.run()
        return change
    }
}
