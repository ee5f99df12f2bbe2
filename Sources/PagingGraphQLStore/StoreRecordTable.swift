/// The store's records by key, spread over many small hash tables.
///
/// One table of a few hundred thousand records, when it grows, rehashes and
/// moves every record at once: a write that happens to cross the threshold
/// pauses for tens of milliseconds. Spread over ``shardCount`` tables by the
/// key's hash, each growth moves a small table that fits in the processor's
/// cache, so no single write pays for the whole store.
struct StoreRecordTable {
    static let shardCount = 64
    private var shards = [[CacheKey: StoredRecord]](repeating: [:], count: shardCount)
    /// The number of records.
    private(set) var count = 0

    private static func shard(of key: CacheKey) -> Int {
        Int(key.shardHash % UInt(shardCount))
    }

    /// The record of a key.
    /// - Complexity: O(1) on average.
    subscript(key: CacheKey) -> StoredRecord? {
        get { shards[Self.shard(of: key)][key] }
        set {
            guard let newValue else {
                _ = removeValue(forKey: key)
                return
            }
            if shards[Self.shard(of: key)].updateValue(newValue, forKey: key) == nil { count += 1 }
        }
    }

    /// Removes a record; returns it.
    mutating func removeValue(forKey key: CacheKey) -> StoredRecord? {
        let removed = shards[Self.shard(of: key)].removeValue(forKey: key)
        if removed != nil { count -= 1 }
        return removed
    }

    /// The keys of every record.
    /// - Complexity: O(*n*).
    var keys: [CacheKey] { shards.flatMap(\.keys) }

    /// Calls `body` with every record.
    /// - Complexity: O(*n*).
    func forEach(_ body: (CacheKey, StoredRecord) -> Void) {
        for shard in shards {
            for (key, record) in shard { body(key, record) }
        }
    }
}
