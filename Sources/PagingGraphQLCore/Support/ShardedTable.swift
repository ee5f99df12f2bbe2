/// A key that spreads over the shards of a ``ShardedTable``: a cheap hash,
/// stable within a process, independent of the per-dictionary seed.
package protocol ShardedKey: Hashable {
    /// The hash that picks the key's shard.
    var shardHash: UInt { get }
}

extension Int: ShardedKey {
    /// The integer, mixed (Fibonacci hashing) so that consecutive keys land
    /// in different shards.
    @inlinable
    package var shardHash: UInt { UInt(bitPattern: self) &* 0x9E37_79B9_7F4A_7C15 >> 32 }
}

/// A dictionary spread over ``shardCount`` smaller dictionaries by the
/// key's ``ShardedKey/shardHash``.
///
/// A table of a few hundred thousand entries, when it grows, allocates its
/// new storage beside the old and rehashes every entry at once: a pause,
/// and for a moment both storages in memory. Spread over many tables, each
/// growth moves one small table, so neither the pause nor the extra memory
/// grows with the whole.
///
/// The shards take unequal shares of the keys, from one share to two
/// (geometrically, ``shardSlots``): shards of equal shares would all reach
/// their doubling point together and grow in one burst of a few pages,
/// where shards of shares spread over a factor of two reach theirs one at
/// a time, evenly, as the whole grows by half again.
///
/// Inlinable, so that the layers above use it specialized for their keys
/// and values, as they would a `Dictionary`.
package struct ShardedTable<Key: ShardedKey, Value> {
    /// The number of dictionaries.
    package static var shardCount: Int { 64 }

    @usableFromInline
    var shards = [[Key: Value]](repeating: [:], count: shardCount)
    /// ``shardSlots``, held here so that a lookup reads no global.
    @usableFromInline
    let slots = shardSlots
    /// The number of entries.
    @usableFromInline
    package internal(set) var count = 0

    /// An empty table.
    @inlinable
    package init() {}

    @inlinable
    func shard(of key: Key) -> Int {
        slots.withUnsafeBufferPointer { Int($0[Int(key.shardHash & 1_023)]) }
    }

    /// The value of a key; setting `nil` removes it.
    /// - Complexity: O(1) on average.
    @inlinable
    package subscript(key: Key) -> Value? {
        get { shards[shard(of: key)][key] }
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
    @inlinable
    @discardableResult
    package mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        let old = shards[shard(of: key)].updateValue(value, forKey: key)
        if old == nil { count += 1 }
        return old
    }

    /// Removes a key; returns its value.
    /// - Complexity: O(1) on average.
    @inlinable
    @discardableResult
    package mutating func removeValue(forKey key: Key) -> Value? {
        let removed = shards[shard(of: key)].removeValue(forKey: key)
        if removed != nil { count -= 1 }
        return removed
    }

    /// Whether the table holds nothing.
    @inlinable
    package var isEmpty: Bool { count == 0 }

    /// Every key.
    /// - Complexity: O(*n*).
    @inlinable
    package var keys: [Key] { shards.flatMap(\.keys) }

    /// Calls `body` with every entry.
    /// - Complexity: O(*n*).
    @inlinable
    package func forEach(_ body: (Key, Value) -> Void) {
        for shard in shards {
            for (key, value) in shard { body(key, value) }
        }
    }

    /// Calls `body` with every entry of one shard: a collection sweeps the
    /// table a few shards at a time.
    /// - Parameters:
    ///   - shard: the shard, from 0 to ``shardCount``.
    ///   - body: what to do with each entry.
    /// - Complexity: O(*n* / ``shardCount``) on average.
    @inlinable
    package func forEach(inShard shard: Int, _ body: (Key, Value) -> Void) {
        for (key, value) in shards[shard] { body(key, value) }
    }

    /// The non-`nil` results of `transform` on every entry.
    /// - Complexity: O(*n*).
    @inlinable
    package func compactMap<T>(_ transform: (Key, Value) -> T?) -> [T] {
        var results: [T] = []
        forEach { key, value in
            if let result = transform(key, value) { results.append(result) }
        }
        return results
    }
}

extension ShardedTable: Sendable where Key: Sendable, Value: Sendable {}

/// The shard of each of 1,024 hash slots: shard *i* takes a share of
/// slots proportional to 2^(*i*/64), from 11 slots to 22.
@usableFromInline
let shardSlots: [UInt8] = {
    let count = 64
    // 2^(1/64), so that the last share is (nearly) twice the first.
    let step = 1.010_889_286_051_700_5
    var weights: [Double] = [1]
    while weights.count < count { weights.append(weights[weights.count - 1] * step) }
    let total = weights.reduce(0, +)
    var slots: [UInt8] = []
    slots.reserveCapacity(1_024)
    var cumulative = 0.0
    for (shard, weight) in weights.enumerated() {
        cumulative += weight
        let end = shard == count - 1 ? 1_024 : Int((cumulative / total * 1_024).rounded())
        while slots.count < end { slots.append(UInt8(shard)) }
    }
    return slots
}()
