import PagingGraphQLCore

/// The records of a ``GraphQLStore`` and the references between them: each
/// record knows the fields that reference it (its referrers), so that a
/// delete finds the lists to remove it from and the collector the records
/// that stay reachable.
///
/// Invariants:
/// - The referrers of each record held are exactly the fields of records
///   held whose values reference it (at any depth); the referrers of a key
///   not held are kept in ``danglingReferrers``, and a record that arrives
///   takes them. No key held has dangling referrers. (``remove(_:marking:)``,
///   the collector's, drops a record's referrers with it: it is for records
///   that only records removed with them reference.)
/// - ``rootHeldObjects`` is the number of objects without identity that the
///   fields of the root records hold (``StoreValue/heldObjectCount``).
/// - A record made while a collection runs, or newly referenced then, is
///   marked in the collection's epoch (``Marking``), so that its sweep keeps it.
///
/// Not `Sendable`: its records are mutable objects; it lives in a
/// ``StoreState``, which a store's lock guards.
struct StoreRecords {
    /// How records made or newly referenced are marked: the collector's
    /// epoch, and whether a collection is under way
    /// (``StoreCollector/marking``).
    struct Marking {
        /// The epoch of the last collection's marks.
        let epoch: UInt8
        /// Whether a collection is under way: what becomes referenced then
        /// is marked live, with everything it reaches.
        let isCollecting: Bool
    }

    /// A field whose value changed from or to a value with references: the
    /// referrers of the records it references change with it.
    private struct ReferenceUpdate {
        /// The field.
        var holder: StoreFieldKey
        /// Its value before.
        var old: StoreValue?
        /// Its value now.
        var new: StoreValue?
    }

    /// The records by key.
    private(set) var table = StoreRecordTable()
    /// The referrers of records the store does not hold: references that
    /// dangle after a delete, or that a modify made before the record came.
    /// A record that arrives takes its referrers from here.
    private(set) var danglingReferrers: [CacheKey: Set<StoreFieldKey>] = [:]
    /// The objects without identity that the fields of the root records
    /// hold, at any depth (``StoreValue/heldObjectCount``): pages of a
    /// connection whose edges have no id are records in all but name, and
    /// count toward the limit as records do.
    private(set) var rootHeldObjects = 0

    /// The record of a key.
    /// - Complexity: O(1) on average.
    subscript(key: CacheKey) -> StoredRecord? { table[key] }

    /// The number of records.
    /// - Complexity: O(1).
    var count: Int { table.count }

    /// The keys of the records.
    /// - Complexity: O(*n*) for *n* records.
    var keys: [CacheKey] { table.keys }

    /// Calls `body` with each record and its key.
    /// - Complexity: O(*n*) for *n* records.
    func forEach(_ body: (CacheKey, StoredRecord) -> Void) {
        table.forEach(body)
    }

    /// Calls `body` with each record of a shard of the table, and its key.
    /// - Complexity: O(*n*) for the *n* records of the shard.
    func forEach(inShard shard: Int, _ body: (CacheKey, StoredRecord) -> Void) {
        table.forEach(inShard: shard, body)
    }

    /// Reads a selection from the records.
    /// - Complexity: O(*n*) for the selection's *n* values.
    func read(_ query: StoreQuery, keying: StoreKeying) -> StoreReadResult {
        StoreReader.read(query, records: table, keying: keying)
    }

    /// Merges normalized records into the store.
    /// - Complexity: O(*f*) on average for *f* fields written, plus the size
    ///   of the changed values that hold references; independent of the
    ///   number of records held.
    mutating func apply(_ entries: [StoreNormalizer.Entry], marking: Marking) -> StoreChange {
        var change = StoreChange(reservingCapacity: entries.count)
        var updates: [ReferenceUpdate] = []
        updates.reserveCapacity(entries.count)
        for entry in entries {
            if let record = table[entry.key] {
                Self.set(
                    entry.fields, in: record, of: entry.key, change: &change, updates: &updates,
                    rootHeldObjects: &rootHeldObjects)
            } else if let names = entry.names {
                // A new record of distinct names that the compiled selection
                // lists: its fields are adopted as they are, and all changed.
                let record = StoredRecord.make(adopting: entry.fields, sharedNames: names)
                record.mark = marking.epoch  // made during a collection: live for it
                takeDanglingReferrers(of: entry.key, into: record)
                for field in entry.fields where field.value.hasReferences {
                    updates.append(
                        ReferenceUpdate(
                            holder: StoreFieldKey(record: entry.key, field: field.name), old: nil,
                            new: field.value))
                }
                table[entry.key] = record
                if entry.key.isRoot {
                    for field in entry.fields { rootHeldObjects += field.value.heldObjectCount }
                }
                change.insert(record: entry.key, fields: names)
            } else {
                let record = create(
                    entry.key, capacity: entry.fields.count, marking: marking, change: &change)
                Self.set(
                    entry.fields, in: record, of: entry.key, change: &change, updates: &updates,
                    rootHeldObjects: &rootHeldObjects)
            }
        }
        applyReferenceUpdates(updates, marking: marking)
        return change
    }

    /// Sets (or, for `nil`, removes) fields of a record, creating it if
    /// needed.
    mutating func modify(_ key: CacheKey, fields: [String: StoreValue?], marking: Marking) -> StoreChange {
        var change = StoreChange()
        var updates: [ReferenceUpdate] = []
        let record = table[key] ?? create(key, capacity: fields.count, marking: marking, change: &change)
        var setting: [(name: String, value: StoreValue)] = []
        for (name, value) in fields {
            if let value {
                setting.append((name, value))
            } else if let old = record.removeValue(forKey: name) {
                if key.isRoot { rootHeldObjects -= old.heldObjectCount }
                updates.append(
                    ReferenceUpdate(holder: StoreFieldKey(record: key, field: name), old: old, new: nil))
                change.insert(record: key, field: name)
                change.insertStructural(record: key)
            }
        }
        Self.set(
            setting, in: record, of: key, merging: false, change: &change, updates: &updates,
            rootHeldObjects: &rootHeldObjects)
        applyReferenceUpdates(updates, marking: marking)
        return change
    }

    /// Removes a record, and every list element that references it, at any
    /// depth of the fields that hold it; so does an object without identity
    /// in a list (an edge) that references it directly. Other direct
    /// references are left dangling.
    /// - Complexity: O(*f* + *r*) for a record of *f* fields referenced from
    ///   *r* fields, plus the size of those fields' values.
    mutating func delete(_ key: CacheKey, marking: Marking) -> StoreChange {
        var change = StoreChange()
        guard let record = table.removeValue(forKey: key) else { return change }
        forgetHeldObjects(of: record, at: key)
        change.insert(record: key)
        change.deletedRecords.insert(key)
        var updates: [ReferenceUpdate] = []
        record.forEach { name, value in
            change.insert(record: key, field: name)
            if value.hasReferences {
                updates.append(
                    ReferenceUpdate(holder: StoreFieldKey(record: key, field: name), old: value, new: nil))
            }
        }
        applyReferenceUpdates(updates, marking: marking)
        for holder in record.referrers.all {
            removeElements(referencing: key, from: holder, marking: marking, change: &change)
            if table[holder.record]?[holder.field]?.references(key) == true {
                danglingReferrers[key, default: []].insert(holder)
            }
        }
        return change
    }

    /// Removes a record without touching what references it (for the
    /// collector, which removes only records nothing live references).
    mutating func remove(_ key: CacheKey, marking: Marking) {
        guard let record = table.removeValue(forKey: key) else { return }
        forgetHeldObjects(of: record, at: key)
        danglingReferrers[key] = nil
        var updates: [ReferenceUpdate] = []
        record.forEach { name, value in
            guard value.hasReferences else { return }
            updates.append(
                ReferenceUpdate(holder: StoreFieldKey(record: key, field: name), old: value, new: nil))
        }
        applyReferenceUpdates(updates, marking: marking)
    }

    /// Removes one field of a record.
    mutating func remove(field: String, of key: CacheKey, marking: Marking) {
        guard let old = table[key]?.removeValue(forKey: field) else { return }
        if key.isRoot { rootHeldObjects -= old.heldObjectCount }
        applyReferenceUpdates(
            [ReferenceUpdate(holder: StoreFieldKey(record: key, field: field), old: old, new: nil)],
            marking: marking)
    }

    /// Takes the objects a root record's fields held out of the count, as
    /// the record goes.
    private mutating func forgetHeldObjects(of record: StoredRecord, at key: CacheKey) {
        guard key.isRoot else { return }
        record.forEach { _, value in rootHeldObjects -= value.heldObjectCount }
    }

    private mutating func create(
        _ key: CacheKey, capacity: Int, marking: Marking, change: inout StoreChange
    ) -> StoredRecord {
        let record = StoredRecord.make(capacity: capacity)
        record.mark = marking.epoch  // made during a collection: live for it
        takeDanglingReferrers(of: key, into: record)
        table[key] = record
        change.insert(record: key)
        return record
    }

    /// Gives a record that arrives the references that waited for it.
    private mutating func takeDanglingReferrers(of key: CacheKey, into record: StoredRecord) {
        guard !danglingReferrers.isEmpty, let holders = danglingReferrers.removeValue(forKey: key) else {
            return
        }
        for holder in holders { record.referrers.insert(holder) }
    }

    /// Removes the list elements that reference `key` from a field, at any
    /// depth (``StoreValue/removingListElements(referencing:)``).
    private mutating func removeElements(
        referencing key: CacheKey, from holder: StoreFieldKey, marking: Marking, change: inout StoreChange
    ) {
        guard let record = table[holder.record], let value = record[holder.field] else { return }
        let kept = value.removingListElements(referencing: key)
        guard kept != value else { return }
        var updates: [ReferenceUpdate] = []
        Self.set(
            [(holder.field, kept)], in: record, of: holder.record, merging: false, change: &change,
            updates: &updates, rootHeldObjects: &rootHeldObjects)
        applyReferenceUpdates(updates, marking: marking)
    }

    /// Sets fields of a record; with `merging`, as a write does: an object
    /// without identity merges over the one the field holds
    /// (``StoreValue/merged(over:)``).
    private static func set(
        _ fields: [(name: String, value: StoreValue)], in record: StoredRecord, of key: CacheKey,
        merging: Bool = true, change: inout StoreChange, updates: inout [ReferenceUpdate],
        rootHeldObjects: inout Int
    ) {
        let isRoot = key.isRoot
        for (name, value) in fields {
            var stored = value
            if merging, value.holdsObjectsOrLists, let current = record[name] {
                stored = value.merged(over: current)
            }
            let old = record.updateValue(stored, forKey: name)
            guard old != stored else { continue }
            if isRoot { rootHeldObjects += stored.heldObjectCount - (old?.heldObjectCount ?? 0) }
            if stored.hasReferences || old?.hasReferences == true {
                updates.append(
                    ReferenceUpdate(holder: StoreFieldKey(record: key, field: name), old: old, new: stored))
                change.insertStructural(record: key)
            }
            change.insert(record: key, field: name)
        }
    }

    private mutating func applyReferenceUpdates(_ updates: [ReferenceUpdate], marking: Marking) {
        for update in updates {
            update.old?.forEachReference { target in
                if table[target]?.referrers.remove(update.holder) == nil,
                    danglingReferrers[target]?.remove(update.holder) != nil,
                    danglingReferrers[target]?.isEmpty == true
                {
                    danglingReferrers[target] = nil
                }
            }
            // One box for every record the field references: a page's nodes.
            var holder: StoredRecord.Holder?
            // During a collection, what a field now references is live.
            let collecting = marking.isCollecting
            var reached: [CacheKey] = []
            update.new?.forEachReference { target in
                guard let record = table[target] else {
                    danglingReferrers[target, default: []].insert(update.holder)
                    return
                }
                let box = holder ?? StoredRecord.Holder(update.holder)
                holder = box
                record.referrers.insert(box)
                if collecting { reached.append(target) }
            }
            if !reached.isEmpty { markReach(from: reached, epoch: marking.epoch) }
        }
    }

    /// The keys of the records that reference a record; for tests.
    /// - Complexity: O(*r*) for *r* referrers.
    func referrers(of key: CacheKey) -> Set<StoreFieldKey> {
        Set(table[key]?.referrers.all ?? []).union(danglingReferrers[key] ?? [])
    }

    /// Marks records, and everything they reach, as live in an epoch.
    ///
    /// The keys are read in place, not copied onto the stack of what is
    /// left to visit: a list's retained keys (a hundred thousand for a long
    /// list) would double for the length of the collection. The stack holds
    /// only the references found, as deep as they go from one key.
    /// - Complexity: O(*r*) for the *r* records newly marked and their values.
    func markReach(from keys: [CacheKey], epoch: UInt8) {
        var pending: [CacheKey] = []
        for key in keys {
            mark(key, epoch: epoch, into: &pending)
            while let next = pending.popLast() { mark(next, epoch: epoch, into: &pending) }
        }
    }

    /// Marks a record live in an epoch, once, and adds what it references
    /// to `pending`.
    private func mark(_ key: CacheKey, epoch: UInt8, into pending: inout [CacheKey]) {
        guard let record = table[key], record.mark != epoch else { return }
        record.mark = epoch
        record.forEach { _, value in value.forEachReference { pending.append($0) } }
    }
}
