/// Everything a ``GraphQLStore`` guards with its lock: the records, the
/// index of references, the watches and their index, observers and retains.
///
/// Every method here runs under the lock and calls no user code; what must
/// happen after the lock is released (resuming watches, calling observers)
/// is returned as a ``StoreDelivery``.
struct StoreState {
    /// A live watch: its selection, what its last read depended on, and
    /// whether a change touched that since.
    struct Watch {
        var query: StoreQuery
        var dependencies: [CacheKey: Set<String>] = [:]
        /// Whether the watch must read again: set at registration and by a
        /// change to a dependency, cleared by the read.
        var isDirty = true
        /// Set when the consuming task is cancelled, so a wait ends at once.
        var isCancelled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    var records: [CacheKey: [String: StoreValue]] = [:]
    /// For each record, the fields (of other records) whose value references
    /// it: lets a delete find the lists that hold a record without a scan.
    var referrers: [CacheKey: Set<StoreFieldKey>] = [:]
    var watches: [Int: Watch] = [:]
    /// For each record, the watches whose dependencies include one of its
    /// fields.
    var watchIndex: [CacheKey: Set<Int>] = [:]
    var observers: [Int: @Sendable (StoreChange) -> Void] = [:]
    var retainedKeys: [Int: [CacheKey]] = [:]
    var retainedQueries: [Int: StoreQuery] = [:]
    var nextID = 0
    /// How many times watches read again, for tests.
    var watchReadCount = 0

    mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    // MARK: Records

    /// Merges normalized records into the store.
    /// - Complexity: O(*f*) on average for *f* fields written, plus the size
    ///   of the changed values that hold references.
    mutating func apply(_ entries: [StoreNormalizer.Entry]) -> StoreChange {
        var change = StoreChange()
        for entry in entries {
            if records[entry.key] == nil {
                records[entry.key] = Dictionary(minimumCapacity: entry.fields.count)
                change.insert(record: entry.key)
            }
            Self.set(
                entry.fields, in: &records[entry.key, default: [:]], of: entry.key, referrers: &referrers,
                change: &change)
        }
        return change
    }

    /// Sets (or, for `nil`, removes) fields of a record, creating it if
    /// needed.
    mutating func modify(_ key: CacheKey, fields: [String: StoreValue?]) -> StoreChange {
        var change = StoreChange()
        if records[key] == nil {
            records[key] = [:]
            change.insert(record: key)
        }
        var setting: [(name: String, value: StoreValue)] = []
        for (name, value) in fields {
            if let value {
                setting.append((name, value))
            } else if let old = records[key]?.removeValue(forKey: name) {
                Self.updateReferrers(
                    old: old, new: nil, holder: StoreFieldKey(record: key, field: name), in: &referrers)
                change.insert(record: key, field: name)
            }
        }
        Self.set(setting, in: &records[key, default: [:]], of: key, referrers: &referrers, change: &change)
        return change
    }

    /// Removes a record, and every list element that references it; a field
    /// that references it directly keeps the (now dangling) reference.
    /// - Complexity: O(*f* + *r*) for a record of *f* fields referenced from
    ///   *r* fields, plus the size of those fields' values.
    mutating func delete(_ key: CacheKey) -> StoreChange {
        var change = StoreChange()
        guard let fields = records.removeValue(forKey: key) else { return change }
        change.insert(record: key)
        for (name, value) in fields {
            change.insert(record: key, field: name)
            Self.updateReferrers(
                old: value, new: nil, holder: StoreFieldKey(record: key, field: name), in: &referrers)
        }
        for holder in referrers[key] ?? [] {
            guard let value = records[holder.record]?[holder.field] else { continue }
            let kept = value.removingListElements(referencing: key)
            guard kept != value else { continue }
            Self.set(
                [(holder.field, kept)], in: &records[holder.record, default: [:]], of: holder.record,
                referrers: &referrers, change: &change)
        }
        return change
    }

    /// Removes a record without touching what references it (for the
    /// collector, which removes only records nothing live references).
    mutating func remove(_ key: CacheKey) {
        guard let fields = records.removeValue(forKey: key) else { return }
        for (name, value) in fields where value.hasReferences {
            Self.updateReferrers(
                old: value, new: nil, holder: StoreFieldKey(record: key, field: name), in: &referrers)
        }
    }

    /// Removes one field of a record.
    mutating func remove(field: String, of key: CacheKey) {
        guard let old = records[key]?.removeValue(forKey: field) else { return }
        Self.updateReferrers(
            old: old, new: nil, holder: StoreFieldKey(record: key, field: field), in: &referrers)
    }

    private static func set(
        _ fields: [(name: String, value: StoreValue)], in record: inout [String: StoreValue],
        of key: CacheKey,
        referrers: inout [CacheKey: Set<StoreFieldKey>], change: inout StoreChange
    ) {
        for (name, value) in fields {
            let old = record.updateValue(value, forKey: name)
            guard old != value else { continue }
            if value.hasReferences || old?.hasReferences == true {
                updateReferrers(
                    old: old, new: value, holder: StoreFieldKey(record: key, field: name), in: &referrers)
            }
            change.insert(record: key, field: name)
        }
    }

    private static func updateReferrers(
        old: StoreValue?, new: StoreValue?, holder: StoreFieldKey,
        in referrers: inout [CacheKey: Set<StoreFieldKey>]
    ) {
        old?.forEachReference { target in
            guard referrers[target]?.remove(holder) != nil, referrers[target]?.isEmpty == true else { return }
            referrers[target] = nil
        }
        new?.forEachReference { target in
            referrers[target, default: []].insert(holder)
        }
    }

    // MARK: Reading and watching

    func read(_ query: StoreQuery, keying: StoreKeying) -> StoreReadResult {
        StoreReader.read(query, records: records, keying: keying)
    }

    /// Replaces a watch's dependencies, keeping the index in step.
    /// - Complexity: O(*d*) for *d* records in the old and new dependencies.
    mutating func setDependencies(_ dependencies: [CacheKey: Set<String>], of id: Int) {
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
            for (key, fields) in change.fieldsByRecord {
                guard let ids = watchIndex[key] else { continue }
                for id in ids {
                    guard let watch = watches[id], !watch.isDirty, let read = watch.dependencies[key],
                        fields.isEmpty || fields.contains(where: read.contains)
                    else { continue }
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
