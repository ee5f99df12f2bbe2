/// A key that spreads over the shards of a ``ShardedTable``: a cheap hash,
/// stable within a process, independent of the per-dictionary seed.
package protocol ShardedKey: Hashable {
    /// The hash that picks the key's shard.
    var shardHash: UInt { get }
}

extension Int: ShardedKey {
    /// The integer, mixed (Fibonacci hashing) so that consecutive keys land
    /// in different shards.
    package var shardHash: UInt { UInt(bitPattern: self) &* 0x9E37_79B9_7F4A_7C15 >> 32 }
}

/// A dictionary spread over ``shardCount`` smaller dictionaries by the
/// key's ``ShardedKey/shardHash``.
///
/// A table of a few hundred thousand entries, when it grows, allocates its
/// new storage beside the old and rehashes every entry at once: a pause,
/// and for a moment both storages in memory. Spread over many tables, each
/// growth moves one small table, so neither the pause nor the extra memory
/// grows with the whole; and the tables grow at different times, so on
/// average they are fuller than one table that just doubled.
package struct ShardedTable<Key: ShardedKey, Value> {
    /// The number of dictionaries.
    package static var shardCount: Int { 64 }

    private var shards = [[Key: Value]](repeating: [:], count: shardCount)
    /// The number of entries.
    package private(set) var count = 0

    /// An empty table.
    package init() {}

    private static func shard(of key: Key) -> Int {
        Int(key.shardHash % UInt(shardCount))
    }

    /// The value of a key; setting `nil` removes it.
    /// - Complexity: O(1) on average.
    package subscript(key: Key) -> Value? {
        get { shards[Self.shard(of: key)][key] }
        set {
            if let newValue {
                _ = updateValue(newValue, forKey: key)
            } else {
                _ = removeValue(forKey: key)
            }
        }
    }

    /// Sets the value of a key; returns the value it replaced.
    /// - Complexity: O(1) on average.
    @discardableResult
    package mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        let old = shards[Self.shard(of: key)].updateValue(value, forKey: key)
        if old == nil { count += 1 }
        return old
    }

    /// Removes a key; returns its value.
    /// - Complexity: O(1) on average.
    @discardableResult
    package mutating func removeValue(forKey key: Key) -> Value? {
        let removed = shards[Self.shard(of: key)].removeValue(forKey: key)
        if removed != nil { count -= 1 }
        return removed
    }

    /// Whether the table holds nothing.
    package var isEmpty: Bool { count == 0 }

    /// Every key.
    /// - Complexity: O(*n*).
    package var keys: [Key] { shards.flatMap(\.keys) }

    /// Calls `body` with every entry.
    /// - Complexity: O(*n*).
    package func forEach(_ body: (Key, Value) -> Void) {
        for shard in shards {
            for (key, value) in shard { body(key, value) }
        }
    }

    /// The non-`nil` results of `transform` on every entry.
    /// - Complexity: O(*n*).
    package func compactMap<T>(_ transform: (Key, Value) -> T?) -> [T] {
        var results: [T] = []
        forEach { key, value in
            if let result = transform(key, value) { results.append(result) }
        }
        return results
    }
}

extension ShardedTable: Sendable where Key: Sendable, Value: Sendable {}
