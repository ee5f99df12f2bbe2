import PagingLock

/// A bounded map that evicts the entry used least recently, safe to share
/// between tasks. The layers above keep what they derive from a document's
/// text here (compiled documents, rewritten texts), each cache owned by the
/// client or store that uses it, so memory stays bounded by the owner's
/// limit and goes away with it.
///
/// Entries live in one array, linked from the most to the least recently
/// used by index, so a hit, an insert and an eviction each move a few
/// indices and allocate nothing once the cache is full.
package final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var key: Key
        var value: Value
        /// The neighbour used more recently, or -1 for the newest.
        var newer: Int
        /// The neighbour used less recently, or -1 for the oldest.
        var older: Int
    }

    private struct State {
        var slots: [Key: Int] = [:]
        var entries: [Entry] = []
        var newest = -1
        var oldest = -1

        mutating func unlink(_ slot: Int) {
            let entry = entries[slot]
            if entry.newer >= 0 { entries[entry.newer].older = entry.older } else { newest = entry.older }
            if entry.older >= 0 { entries[entry.older].newer = entry.newer } else { oldest = entry.newer }
        }

        mutating func pushNewest(_ slot: Int) {
            entries[slot].newer = -1
            entries[slot].older = newest
            if newest >= 0 { entries[newest].newer = slot }
            newest = slot
            if oldest < 0 { oldest = slot }
        }
    }

    /// The most entries kept.
    package let capacity: Int
    private let state = Lock(State())

    /// Creates an empty cache.
    /// - Parameter capacity: the most entries kept; at least 1.
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The number of entries held.
    /// - Complexity: O(1).
    package var count: Int { state.withLock { $0.slots.count } }

    /// The value for a key, marking it the most recently used.
    /// - Complexity: O(1) on average.
    package func value(for key: Key) -> Value? {
        state.withLock { state in
            guard let slot = state.slots[key] else { return nil }
            if state.newest != slot {
                state.unlink(slot)
                state.pushNewest(slot)
            }
            return state.entries[slot].value
        }
    }

    /// Stores a value as the most recently used, evicting the least
    /// recently used entry when the cache is full.
    /// - Complexity: O(1) on average.
    package func insert(_ value: Value, for key: Key) {
        state.withLock { state in
            if let slot = state.slots[key] {
                state.entries[slot].value = value
                if state.newest != slot {
                    state.unlink(slot)
                    state.pushNewest(slot)
                }
                return
            }
            let slot: Int
            if state.entries.count < capacity {
                slot = state.entries.count
                state.entries.append(Entry(key: key, value: value, newer: -1, older: -1))
            } else {
                slot = state.oldest
                state.unlink(slot)
                state.slots[state.entries[slot].key] = nil
                state.entries[slot].key = key
                state.entries[slot].value = value
            }
            state.slots[key] = slot
            state.pushNewest(slot)
        }
    }

    /// The value for a key, made and stored if absent. `make` runs outside
    /// the lock, so two tasks missing the same key at once may both make it;
    /// the later insert wins, and either value is correct.
    /// - Complexity: O(1) on average, plus `make` on a miss.
    package func value<Failure: Error>(
        for key: Key, orMake make: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        if let cached = value(for: key) { return cached }
        let made = try make()
        insert(made, for: key)
        return made
    }

    /// The keys from the most to the least recently used (for tests).
    /// - Complexity: O(*n*).
    package var keysByRecency: [Key] {
        state.withLock { state in
            var keys: [Key] = []
            var slot = state.newest
            while slot >= 0 {
                keys.append(state.entries[slot].key)
                slot = state.entries[slot].older
            }
            return keys
        }
    }
}
