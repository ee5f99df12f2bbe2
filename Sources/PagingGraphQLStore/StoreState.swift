/// Everything a ``GraphQLStore`` guards with its lock: the records, the
/// watches and their index, observers and retains.
///
/// Every method here runs under the lock and calls no user code; what must
/// happen after the lock is released (resuming watches, calling observers)
/// is returned as a ``StoreDelivery``.
// Unchecked: its records are mutable objects (`StoredRecord`), edited in
// place. A state lives only inside a store's lock and no record escapes it
// (reads copy what they return), so no two tasks reach one at once.
struct StoreState: @unchecked Sendable {
    /// A live watch: its selection, what its last read depended on, and
    /// whether a change touched that since.
    struct Watch {
        var query: StoreQuery
        var dependencies: [CacheKey: [String]] = [:]
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
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// A field whose value changed from or to a value with references: the
    /// referrers of the records it references change with it.
    private struct ReferenceUpdate {
        var holder: StoreFieldKey
        var old: StoreValue?
        var new: StoreValue?
    }

    var records = StoreRecordTable()
    /// The referrers of records the store does not hold: references that
    /// dangle after a delete, or that a modify made before the record came.
    /// A record that arrives takes its referrers from here.
    var danglingReferrers: [CacheKey: Set<StoreFieldKey>] = [:]
    var watches: [Int: Watch] = [:]
    /// For each record, the watches whose dependencies include one of its
    /// fields.
    var watchIndex: [CacheKey: Set<Int>] = [:]
    var observers: [Int: @Sendable (StoreChange) -> Void] = [:]
    var retainedKeys: [Int: [CacheKey]] = [:]
    var retainedQueries: [Int: StoreQuery] = [:]
    /// When the store collects by itself, if it does.
    var automaticCollection: AutomaticCollection?
    /// The retains (ids in ``retainedKeys``) that keep every record written
    /// while they live: a pager's load in flight, whose page is written
    /// before its follower retains it.
    var writeKeepers: Set<Int> = []
    var nextID = 0
    /// The number of commits that changed something: a write learns the
    /// number of its own, and a reader compares it with the current one.
    var commits = 0
    /// How many times watches read again, for tests.
    var watchReadCount = 0
    /// How many of those reads read only the records that changed.
    var watchPartialReadCount = 0

    mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    // MARK: Records

    /// Merges normalized records into the store.
    /// - Complexity: O(*f*) on average for *f* fields written, plus the size
    ///   of the changed values that hold references; independent of the
    ///   number of records held.
    mutating func apply(_ entries: [StoreNormalizer.Entry]) -> StoreChange {
        var change = StoreChange(reservingCapacity: entries.count)
        var updates: [ReferenceUpdate] = []
        updates.reserveCapacity(entries.count)
        for entry in entries {
            if let record = records[entry.key] {
                Self.set(entry.fields, in: &record.fields, of: entry.key, change: &change, updates: &updates)
            } else if let names = entry.names {
                // A new record of distinct names that the compiled selection
                // lists: its fields are adopted as they are, and all changed.
                let record = StoredRecord(fields: StoreFields(adopting: entry.fields, sharedNames: names))
                takeDanglingReferrers(of: entry.key, into: record)
                for field in entry.fields where field.value.hasReferences {
                    updates.append(
                        ReferenceUpdate(
                            holder: StoreFieldKey(record: entry.key, field: field.name), old: nil,
                            new: field.value))
                }
                records[entry.key] = record
                change.insert(record: entry.key, fields: names)
            } else {
                let record = create(entry.key, capacity: entry.fields.count, change: &change)
                Self.set(entry.fields, in: &record.fields, of: entry.key, change: &change, updates: &updates)
            }
        }
        applyReferenceUpdates(updates)
        return change
    }

    /// Sets (or, for `nil`, removes) fields of a record, creating it if
    /// needed.
    mutating func modify(_ key: CacheKey, fields: [String: StoreValue?]) -> StoreChange {
        var change = StoreChange()
        var updates: [ReferenceUpdate] = []
        let record = records[key] ?? create(key, capacity: fields.count, change: &change)
        var setting: [(name: String, value: StoreValue)] = []
        for (name, value) in fields {
            if let value {
                setting.append((name, value))
            } else if let old = record.fields.removeValue(forKey: name) {
                updates.append(
                    ReferenceUpdate(holder: StoreFieldKey(record: key, field: name), old: old, new: nil))
                change.insert(record: key, field: name)
                change.insertStructural(record: key)
            }
        }
        Self.set(setting, in: &record.fields, of: key, merging: false, change: &change, updates: &updates)
        applyReferenceUpdates(updates)
        return change
    }

    /// Removes a record, and every list element that references it, at any
    /// depth of the fields that hold it; so does an object without identity
    /// in a list (an edge) that references it directly. Other direct
    /// references are left dangling.
    /// - Complexity: O(*f* + *r*) for a record of *f* fields referenced from
    ///   *r* fields, plus the size of those fields' values.
    mutating func delete(_ key: CacheKey) -> StoreChange {
        var change = StoreChange()
        guard let record = records.removeValue(forKey: key) else { return change }
        change.insert(record: key)
        change.deletedRecords.insert(key)
        var updates: [ReferenceUpdate] = []
        record.fields.forEach { name, value in
            change.insert(record: key, field: name)
            if value.hasReferences {
                updates.append(
                    ReferenceUpdate(holder: StoreFieldKey(record: key, field: name), old: value, new: nil))
            }
        }
        applyReferenceUpdates(updates)
        for holder in record.referrers.all {
            removeElements(referencing: key, from: holder, change: &change)
            if records[holder.record]?.fields[holder.field]?.references(key) == true {
                danglingReferrers[key, default: []].insert(holder)
            }
        }
        return change
    }

    /// Removes a record without touching what references it (for the
    /// collector, which removes only records nothing live references).
    mutating func remove(_ key: CacheKey) {
        guard let record = records.removeValue(forKey: key) else { return }
        danglingReferrers[key] = nil
        var updates: [ReferenceUpdate] = []
        record.fields.forEach { name, value in
            guard value.hasReferences else { return }
            updates.append(
                ReferenceUpdate(holder: StoreFieldKey(record: key, field: name), old: value, new: nil))
        }
        applyReferenceUpdates(updates)
    }

    /// Removes one field of a record.
    mutating func remove(field: String, of key: CacheKey) {
        guard let old = records[key]?.fields.removeValue(forKey: field) else { return }
        applyReferenceUpdates([
            ReferenceUpdate(holder: StoreFieldKey(record: key, field: field), old: old, new: nil)
        ])
    }

    private mutating func create(_ key: CacheKey, capacity: Int, change: inout StoreChange) -> StoredRecord {
        let record = StoredRecord(fields: StoreFields(minimumCapacity: capacity))
        takeDanglingReferrers(of: key, into: record)
        records[key] = record
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
        referencing key: CacheKey, from holder: StoreFieldKey, change: inout StoreChange
    ) {
        guard let record = records[holder.record], let value = record.fields[holder.field] else { return }
        let kept = value.removingListElements(referencing: key)
        guard kept != value else { return }
        var updates: [ReferenceUpdate] = []
        Self.set(
            [(holder.field, kept)], in: &record.fields, of: holder.record, merging: false, change: &change,
            updates: &updates)
        applyReferenceUpdates(updates)
    }

    /// Sets fields of a record; with `merging`, as a write does: an object
    /// without identity merges over the one the field holds
    /// (``StoreValue/merged(over:)``).
    private static func set(
        _ fields: [(name: String, value: StoreValue)], in record: inout StoreFields, of key: CacheKey,
        merging: Bool = true, change: inout StoreChange, updates: inout [ReferenceUpdate]
    ) {
        for (name, value) in fields {
            var stored = value
            if merging, value.holdsObjectsOrLists, let current = record[name] {
                stored = value.merged(over: current)
            }
            let old = record.updateValue(stored, forKey: name)
            guard old != stored else { continue }
            if stored.hasReferences || old?.hasReferences == true {
                updates.append(
                    ReferenceUpdate(holder: StoreFieldKey(record: key, field: name), old: old, new: stored))
                change.insertStructural(record: key)
            }
            change.insert(record: key, field: name)
        }
    }

    private mutating func applyReferenceUpdates(_ updates: [ReferenceUpdate]) {
        for update in updates {
            update.old?.forEachReference { target in
                if records[target]?.referrers.remove(update.holder) == nil,
                    danglingReferrers[target]?.remove(update.holder) != nil,
                    danglingReferrers[target]?.isEmpty == true
                {
                    danglingReferrers[target] = nil
                }
            }
            // One box for every record the field references: a page's nodes.
            var holder: StoredRecord.Holder?
            update.new?.forEachReference { target in
                guard let record = records[target] else {
                    danglingReferrers[target, default: []].insert(update.holder)
                    return
                }
                let box = holder ?? StoredRecord.Holder(update.holder)
                holder = box
                record.referrers.insert(box)
            }
        }
    }

    /// The keys of the records that reference a record; for tests.
    func referrers(of key: CacheKey) -> Set<StoreFieldKey> {
        Set(records[key]?.referrers.all ?? []).union(danglingReferrers[key] ?? [])
    }

    // MARK: Collecting

    /// Adds what a write wrote to the retains that keep writes.
    /// - Complexity: O(*e*) for *e* records written, per keeper.
    mutating func keepWritten(_ entries: [StoreNormalizer.Entry]) {
        guard !writeKeepers.isEmpty else { return }
        let keys = entries.lazy.map(\.key).filter { !$0.isRoot }
        for id in writeKeepers { retainedKeys[id, default: []].append(contentsOf: keys) }
    }

    /// The store's own collection: past a threshold of records held, a
    /// commit collects what nothing live reaches.
    struct AutomaticCollection {
        /// The configured limit.
        let limit: Int
        /// The record count past which the next commit collects:
        /// ``limit``, or twice what the last collection kept when that is
        /// more, so that a store whose live records exceed the limit
        /// collects after as many records again are written, not at every
        /// commit (O(1) amortized per record written).
        var threshold: Int
        /// The collections run so far.
        var runs = 0

        init(limit: Int) {
            self.limit = limit
            self.threshold = limit
        }
    }

    /// Collects, if the records held exceed the automatic collection's
    /// threshold.
    /// - Parameters:
    ///   - keying: the store's keying, to read the live selections.
    ///   - spared: what the commit just wrote, kept this time even if
    ///     nothing live reaches it.
    /// - Returns: what the collection changed, empty when none ran.
    /// - Complexity: O(1) when none runs; else as ``collect(keying:sparing:)``.
    mutating func collectIfOverLimit(keying: StoreKeying, sparing spared: [StoreNormalizer.Entry] = [])
        -> StoreChange
    {
        guard var automatic = automaticCollection, records.count > automatic.threshold else {
            return StoreChange()
        }
        let change = collect(keying: keying, sparing: spared).change
        automatic.runs += 1
        automatic.threshold = max(automatic.limit, 2 * records.count)
        automaticCollection = automatic
        return change
    }

    /// Removes the records that nothing live reaches, and the fields of the
    /// root records that nothing live reads.
    ///
    /// Live are the selections of the watches and of retained operations,
    /// the retained records, and what `spared` wrote (its records, and its
    /// fields of root records); each is kept with every record it reaches
    /// through references.
    /// - Complexity: O(*n*) for the *n* records held, plus a read of each
    ///   live selection.
    /// - Returns: the change, and the records and root fields removed.
    mutating func collect(keying: StoreKeying, sparing spared: [StoreNormalizer.Entry] = []) -> (
        change: StoreChange, removedRecords: [CacheKey], removedRootFields: [StoreFieldKey]
    ) {
        var keptRootFields: [CacheKey: Set<String>] = [:]
        var keptCount = 0
        var pending: [CacheKey] = []
        for entry in spared {
            guard entry.key.isRoot else {
                pending.append(entry.key)
                continue
            }
            for field in entry.fields {
                keptRootFields[entry.key, default: []].insert(field.name)
                field.value.forEachReference { pending.append($0) }
            }
        }
        let queries = watches.values.map(\.query) + Array(retainedQueries.values)
        for query in queries {
            for (key, fields) in read(query, keying: keying).dependencyLists {
                guard key.isRoot else {
                    pending.append(key)
                    continue
                }
                keptRootFields[key, default: []].formUnion(fields)
                for field in fields {
                    records[key]?.fields[field]?.forEachReference { pending.append($0) }
                }
            }
        }
        for keys in retainedKeys.values { pending += keys }
        while let key = pending.popLast() {
            guard let record = records[key], !record.isMarked else { continue }
            record.isMarked = true
            keptCount += 1
            record.fields.forEach { _, value in value.forEachReference { pending.append($0) } }
        }
        var removedRecords: [CacheKey] = []
        var removedFields: [StoreFieldKey] = []
        var change = StoreChange(reservingCapacity: records.count - keptCount)
        records.forEach { key, record in
            guard !record.isMarked else {
                record.isMarked = false
                return
            }
            if key.isRoot, let keep = keptRootFields[key] {
                for field in record.fields.allNames where !keep.contains(field) {
                    removedFields.append(StoreFieldKey(record: key, field: field))
                }
            } else {
                removedRecords.append(key)
                // A removed record reports all of its fields.
                change.insert(record: key, fields: record.fields.allNames)
            }
        }
        for field in removedFields {
            remove(field: field.field, of: field.record)
            change.insert(record: field.record, field: field.field)
            change.insertStructural(record: field.record)
        }
        for key in removedRecords { remove(key) }
        return (change, removedRecords, removedFields)
    }

    // MARK: Reading and watching

    func read(_ query: StoreQuery, keying: StoreKeying) -> StoreReadResult {
        StoreReader.read(query, records: records, keying: keying)
    }

    /// Replaces a watch's dependencies, keeping the index in step.
    /// - Complexity: O(*d*) for *d* records in the old and new dependencies.
    mutating func setDependencies(_ dependencies: [CacheKey: [String]], of id: Int) {
        guard let old = watches[id]?.dependencies else { return }
        for key in old.keys where dependencies[key] == nil {
            if watchIndex[key]?.remove(id) != nil, watchIndex[key]?.isEmpty == true { watchIndex[key] = nil }
        }
        for key in dependencies.keys where old[key] == nil {
            watchIndex[key, default: []].insert(id)
        }
        watches[id]?.dependencies = dependencies
    }

    /// Removes a watch; returns its waiter to resume.
    mutating func removeWatch(_ id: Int) -> CheckedContinuation<Void, Never>? {
        setDependencies([:], of: id)
        return watches.removeValue(forKey: id)?.waiter
    }

    /// What a change means for watches and observers: the watches it
    /// touches become dirty, and their waiters are to be resumed.
    /// - Complexity: O(*c* × *w*) on average for *c* changed records and *w*
    ///   watches per record; independent of the number of records held.
    mutating func delivery(of change: StoreChange) -> StoreDelivery {
        guard !change.isEmpty else { return StoreDelivery() }
        var waiters: [CheckedContinuation<Void, Never>] = []
        if !watchIndex.isEmpty {
            for (key, fields) in change.changed {
                guard let ids = watchIndex[key] else { continue }
                for id in ids {
                    guard let watch = watches[id], let read = watch.dependencies[key],
                        fields.isEmpty || fields.contains(where: read.contains)
                    else { continue }
                    if change.structural.contains(key) || key.isRoot {
                        watches[id]?.changedRecords = nil
                    } else {
                        watches[id]?.changedRecords?.insert(key)
                    }
                    guard !watch.isDirty else { continue }
                    watches[id]?.isDirty = true
                    if let waiter = watch.waiter {
                        watches[id]?.waiter = nil
                        waiters.append(waiter)
                    }
                }
            }
        }
        return StoreDelivery(change: change, observers: Array(observers.values), waiters: waiters)
    }
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
