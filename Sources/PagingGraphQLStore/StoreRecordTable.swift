import PagingGraphQLCore

/// The store's records by key, spread over many small hash tables
/// (``ShardedTable``): no single write pays for growing the whole store.
typealias StoreRecordTable = ShardedTable<CacheKey, StoredRecord>

extension CacheKey: ShardedKey {}
