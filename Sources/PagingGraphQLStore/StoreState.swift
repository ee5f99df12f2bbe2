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
    /// What takes a copy of each commit's changed fields, under the lock,
    /// in commit order (a store on disk).
    var commitSinks: [Int: @Sendable (StoreCommitSnapshot) -> Void] = [:]
    var retainedKeys: [Int: [CacheKey]] = [:]
    var retainedQueries: [Int: StoreQuery] = [:]
    /// The objects without identity that the fields of the root records
    /// hold, at any depth (``StoreValue/heldObjectCount``): pages of a
    /// connection whose edges have no id are records in all but name, and
    /// count toward the limit as records do.
    var rootHeldObjects = 0
    /// When the store collects by itself, if it does.
    var automaticCollection: AutomaticCollection?
    /// The collection under way, if one is.
    var cycle: CollectionCycle?
    /// The epoch of the last collection's marks (``StoredRecord/mark``).
    var markEpoch: UInt8 = 0
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
                Self.set(
                    entry.fields, in: record, of: entry.key, change: &change, updates: &updates,
                    rootHeldObjects: &rootHeldObjects)
            } else if let names = entry.names {
                // A new record of distinct names that the compiled selection
                // lists: its fields are adopted as they are, and all changed.
                let record = StoredRecord.make(adopting: entry.fields, sharedNames: names)
                record.mark = markEpoch  // made during a collection: live for it
                takeDanglingReferrers(of: entry.key, into: record)
                for field in entry.fields where field.value.hasReferences {
                    updates.append(
                        ReferenceUpdate(
                            holder: StoreFieldKey(record: entry.key, field: field.name), old: nil,
                            new: field.value))
                }
                records[entry.key] = record
                if entry.key.isRoot {
                    for field in entry.fields { rootHeldObjects += field.value.heldObjectCount }
                }
                change.insert(record: entry.key, fields: names)
            } else {
                let record = create(entry.key, capacity: entry.fields.count, change: &change)
                Self.set(
                    entry.fields, in: record, of: entry.key, change: &change, updates: &updates,
                    rootHeldObjects: &rootHeldObjects)
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
        applyReferenceUpdates(updates)
        for holder in record.referrers.all {
            removeElements(referencing: key, from: holder, change: &change)
            if records[holder.record]?[holder.field]?.references(key) == true {
                danglingReferrers[key, default: []].insert(holder)
            }
        }
        return change
    }

    /// Removes a record without touching what references it (for the
    /// collector, which removes only records nothing live references).
    mutating func remove(_ key: CacheKey) {
        guard let record = records.removeValue(forKey: key) else { return }
        forgetHeldObjects(of: record, at: key)
        danglingReferrers[key] = nil
        var updates: [ReferenceUpdate] = []
        record.forEach { name, value in
            guard value.hasReferences else { return }
            updates.append(
                ReferenceUpdate(holder: StoreFieldKey(record: key, field: name), old: value, new: nil))
        }
        applyReferenceUpdates(updates)
    }

    /// Removes one field of a record.
    mutating func remove(field: String, of key: CacheKey) {
        guard let old = records[key]?.removeValue(forKey: field) else { return }
        if key.isRoot { rootHeldObjects -= old.heldObjectCount }
        applyReferenceUpdates([
            ReferenceUpdate(holder: StoreFieldKey(record: key, field: field), old: old, new: nil)
        ])
    }

    /// Takes the objects a root record's fields held out of the count, as
    /// the record goes.
    private mutating func forgetHeldObjects(of record: StoredRecord, at key: CacheKey) {
        guard key.isRoot else { return }
        record.forEach { _, value in rootHeldObjects -= value.heldObjectCount }
    }

    private mutating func create(_ key: CacheKey, capacity: Int, change: inout StoreChange) -> StoredRecord {
        let record = StoredRecord.make(capacity: capacity)
        record.mark = markEpoch  // made during a collection: live for it
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
        guard let record = records[holder.record], let value = record[holder.field] else { return }
        let kept = value.removingListElements(referencing: key)
        guard kept != value else { return }
        var updates: [ReferenceUpdate] = []
        Self.set(
            [(holder.field, kept)], in: record, of: holder.record, merging: false, change: &change,
            updates: &updates, rootHeldObjects: &rootHeldObjects)
        applyReferenceUpdates(updates)
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
            // During a collection, what a field now references is live.
            let collecting = cycle != nil
            var reached: [CacheKey] = []
            update.new?.forEachReference { target in
                guard let record = records[target] else {
                    danglingReferrers[target, default: []].insert(update.holder)
                    return
                }
                let box = holder ?? StoredRecord.Holder(update.holder)
                holder = box
                record.referrers.insert(box)
                if collecting { reached.append(target) }
            }
            if !reached.isEmpty { markReach(from: reached) }
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
    /// commit starts a collection of what nothing live reaches, which the
    /// following commits finish a few shards of the record table at a time.
    struct AutomaticCollection {
        /// The configured limit.
        let limit: Int
        /// The record count past which a commit starts a collection:
        /// ``limit`` at first; after a collection that kept no more than
        /// the limit, the limit and a tenth, so that the store holds at
        /// most a tenth more than its limit while what is live fits in it
        /// (and a collection comes after at least a tenth of the limit is
        /// written: O(10) amortized per record written); after one that
        /// kept more, twice what it kept, so that a store whose live
        /// records exceed the limit collects after as many records again
        /// are written, not at every commit (O(1) amortized).
        var threshold: Int
        /// The count of objects held in root fields
        /// (``StoreState/rootHeldObjects``) past which a commit removes the
        /// root fields nothing live reads, without marking records (a
        /// quick collection): ``limit`` at first, then what the last
        /// collection kept and as many again, or the limit if more. Pages
        /// of a connection whose edges have no identity are written as
        /// root fields and write no records, so without it a list of them
        /// would grow unbounded.
        var rootThreshold: Int
        /// The collections finished so far, quick ones included.
        var runs = 0
        /// The shards of the record table each commit sweeps; all of them
        /// for a collection in one commit.
        var shardsPerCommit = 8

        init(limit: Int) {
            self.limit = limit
            self.threshold = limit
            self.rootThreshold = limit
        }

        /// The threshold after a collection that kept `kept` records.
        func threshold(afterKeeping kept: Int) -> Int {
            kept <= limit ? limit + max(1, limit / 10) : 2 * kept
        }

        /// The root threshold after a collection that kept `kept` objects
        /// in root fields: the next comes after at least the limit (or as
        /// many as were kept) are written, so a quick collection, which
        /// reads the live selections, costs O(1) amortized per object.
        func rootThreshold(afterKeeping kept: Int) -> Int {
            kept + max(limit, kept)
        }
    }

    /// A collection under way: what was live has been marked, and the
    /// commits sweep the record table, ``AutomaticCollection/shardsPerCommit``
    /// shards each. Meanwhile what becomes reachable is marked as it does
    /// (what a write wrote or references, a new retain or watch), so the
    /// sweep never takes it.
    struct CollectionCycle {
        /// The fields of root records that something live read at the mark,
        /// or that a write wrote since.
        var keptRootFields: [CacheKey: Set<String>]
        /// The next shard to sweep.
        var nextShard = 0
    }

    /// Begins a new marking epoch: records marked before no longer count.
    private mutating func beginEpoch() {
        markEpoch &+= 1
        if markEpoch == 0 {
            // Wrapped around: old marks could be taken for new ones.
            records.forEach { _, record in record.mark = 0 }
            markEpoch = 1
        }
    }

    /// Marks records, and everything they reach, as live in this epoch.
    ///
    /// The keys are read in place, not copied onto the stack of what is
    /// left to visit: a list's retained keys (a hundred thousand for a long
    /// list) would double for the length of the collection. The stack holds
    /// only the references found, as deep as they go from one key.
    /// - Complexity: O(*r*) for the *r* records newly marked and their values.
    func markReach(from keys: [CacheKey]) {
        var pending: [CacheKey] = []
        for key in keys {
            mark(key, into: &pending)
            while let next = pending.popLast() { mark(next, into: &pending) }
        }
    }

    /// Marks a record live in this epoch, once, and adds what it references
    /// to `pending`.
    private func mark(_ key: CacheKey, into pending: inout [CacheKey]) {
        guard let record = records[key], record.mark != markEpoch else { return }
        record.mark = markEpoch
        record.forEach { _, value in value.forEachReference { pending.append($0) } }
    }

    /// The roots of what a write wrote: its records, and what its fields of
    /// root records reference (those fields added to `rootFields`).
    private static func roots(
        of entries: [StoreNormalizer.Entry], into pending: inout [CacheKey],
        rootFields: inout [CacheKey: Set<String>]
    ) {
        for entry in entries {
            guard entry.key.isRoot else {
                pending.append(entry.key)
                continue
            }
            for field in entry.fields {
                rootFields[entry.key, default: []].insert(field.name)
                field.value.forEachReference { pending.append($0) }
            }
        }
    }

    /// The roots of what a selection reads now: the records it reads, and
    /// what the fields of root records it reads reference (those fields
    /// added to `rootFields`).
    private func roots(
        of query: StoreQuery, keying: StoreKeying, into pending: inout [CacheKey],
        rootFields: inout [CacheKey: Set<String>]
    ) {
        for (key, fields) in read(query, keying: keying).dependencyLists {
            guard key.isRoot else {
                pending.append(key)
                continue
            }
            rootFields[key, default: []].formUnion(fields)
            for field in fields { records[key]?[field]?.forEachReference { pending.append($0) } }
        }
    }

    /// During a collection, keeps what a write wrote: its records and what
    /// they reach, and its fields of root records.
    mutating func markWritten(_ entries: [StoreNormalizer.Entry]) {
        guard var running = cycle, !entries.isEmpty else { return }
        var pending: [CacheKey] = []
        Self.roots(of: entries, into: &pending, rootFields: &running.keptRootFields)
        cycle = running
        markReach(from: pending)
    }

    /// During a collection, keeps what a new retain or watch reaches.
    mutating func markNewRoot(keys: [CacheKey] = [], query: StoreQuery? = nil, keying: StoreKeying) {
        guard var running = cycle else { return }
        var pending = keys
        if let query { roots(of: query, keying: keying, into: &pending, rootFields: &running.keptRootFields) }
        cycle = running
        markReach(from: pending)
    }

    /// What `spared` wrote and the live selections (watches, retained
    /// operations) read: the fields of root records they keep, and the
    /// records they reach first.
    private func liveRoots(keying: StoreKeying, sparing spared: [StoreNormalizer.Entry]) -> (
        rootFields: [CacheKey: Set<String>], records: [CacheKey]
    ) {
        var rootFields: [CacheKey: Set<String>] = [:]
        var records: [CacheKey] = []
        Self.roots(of: spared, into: &records, rootFields: &rootFields)
        for query in watches.values.map(\.query) + Array(retainedQueries.values) {
            roots(of: query, keying: keying, into: &records, rootFields: &rootFields)
        }
        return (rootFields, records)
    }

    /// Marks what is live: the selections of the watches and of retained
    /// operations, the retained records, and what `spared` wrote, each with
    /// everything it reaches. Returns the fields of root records to keep.
    private mutating func markLive(keying: StoreKeying, sparing spared: [StoreNormalizer.Entry])
        -> [CacheKey: Set<String>]
    {
        beginEpoch()
        let (keptRootFields, pending) = liveRoots(keying: keying, sparing: spared)
        markReach(from: pending)
        // Each retained list in place: gathered into one, they would be
        // copied whole for the length of the collection.
        for keys in retainedKeys.values { markReach(from: keys) }
        return keptRootFields
    }

    /// What a sweep removed.
    struct Swept {
        var change = StoreChange()
        var records: [CacheKey] = []
        var rootFields: [StoreFieldKey] = []
    }

    /// Sweeps shards of the record table: removes the records not marked in
    /// this epoch, and the fields of root records not kept.
    /// - Complexity: O(*n*) for the *n* records of those shards.
    private mutating func sweep(
        shards: Range<Int>, keeping kept: [CacheKey: Set<String>], into swept: inout Swept
    ) {
        var removedRecords: [CacheKey] = []
        var removedFields: [StoreFieldKey] = []
        for shard in shards {
            records.forEach(inShard: shard) { key, record in
                guard record.mark != markEpoch else { return }
                if key.isRoot, let keep = kept[key] {
                    for field in record.allNames where !keep.contains(field) {
                        removedFields.append(StoreFieldKey(record: key, field: field))
                    }
                } else {
                    removedRecords.append(key)
                    // A removed record reports all of its fields.
                    swept.change.insert(record: key, fields: record.allNames)
                }
            }
        }
        for field in removedFields {
            remove(field: field.field, of: field.record)
            swept.change.insert(record: field.record, field: field.field)
            swept.change.insertStructural(record: field.record)
        }
        for key in removedRecords { remove(key) }
        swept.records += removedRecords
        swept.rootFields += removedFields
    }

    /// Runs the store's own collection: during one, keeps what the commit
    /// wrote and sweeps the next shards; else, past the threshold, starts
    /// one (sparing what the commit wrote) and sweeps its first shards.
    /// - Parameters:
    ///   - keying: the store's keying, to read the live selections.
    ///   - spared: what the commit just wrote.
    /// - Returns: what the sweep removed, as a change.
    /// - Complexity: O(1) when no collection runs; the mark, O(*l*) for the
    ///   *l* live records, when one starts; O(*n* × *k* / 64) for *n*
    ///   records and *k* shards per commit, while one runs.
    mutating func collectIfOverLimit(keying: StoreKeying, sparing spared: [StoreNormalizer.Entry] = [])
        -> StoreChange
    {
        guard var automatic = automaticCollection else { return StoreChange() }
        if cycle == nil {
            guard records.count > automatic.threshold else {
                guard rootHeldObjects > automatic.rootThreshold else { return StoreChange() }
                let change = removeRootFieldsNotLive(keying: keying, sparing: spared)
                automatic.runs += 1
                automatic.rootThreshold = automatic.rootThreshold(afterKeeping: rootHeldObjects)
                automaticCollection = automatic
                return change
            }
            cycle = CollectionCycle(keptRootFields: markLive(keying: keying, sparing: spared))
        } else {
            markWritten(spared)
        }
        guard let running = cycle else { return StoreChange() }
        let shards =
            running
            .nextShard..<min(running.nextShard + automatic.shardsPerCommit, StoreRecordTable.shardCount)
        var swept = Swept()
        sweep(shards: shards, keeping: running.keptRootFields, into: &swept)
        cycle?.nextShard = shards.upperBound
        if shards.upperBound == StoreRecordTable.shardCount {
            cycle = nil
            automatic.runs += 1
            automatic.threshold = automatic.threshold(afterKeeping: records.count)
            automatic.rootThreshold = automatic.rootThreshold(afterKeeping: rootHeldObjects)
            automaticCollection = automatic
        }
        return swept.change
    }

    /// A quick collection: removes the fields of root records that no live
    /// selection reads and `spared` did not write, as a collection does,
    /// without marking records (those the removed fields alone reached go
    /// at the next full collection, which the record count brings).
    /// - Complexity: O(*f*) for the *f* fields of the root records, plus a
    ///   read of each live watch's and retained operation's selection.
    private mutating func removeRootFieldsNotLive(
        keying: StoreKeying, sparing spared: [StoreNormalizer.Entry]
    )
        -> StoreChange
    {
        let kept = liveRoots(keying: keying, sparing: spared).rootFields
        var change = StoreChange()
        for root in [CacheKey.queryRoot, .mutationRoot, .subscriptionRoot] {
            guard let record = records[root] else { continue }
            guard let keep = kept[root] else {
                // As a full collection does: a root record nothing live reads goes.
                change.insert(record: root, fields: record.allNames)
                remove(root)
                continue
            }
            for field in record.allNames where !keep.contains(field) {
                remove(field: field, of: root)
                change.insert(record: root, field: field)
                change.insertStructural(record: root)
            }
        }
        return change
    }

    /// Removes the records that nothing live reaches, and the fields of the
    /// root records that nothing live reads, at once: finishes a collection
    /// under way, then runs a whole one.
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
        var swept = Swept()
        if let running = cycle {
            sweep(
                shards: running.nextShard..<StoreRecordTable.shardCount, keeping: running.keptRootFields,
                into: &swept)
            cycle = nil
            if var automatic = automaticCollection {
                automatic.runs += 1
                automaticCollection = automatic
            }
        }
        let kept = markLive(keying: keying, sparing: spared)
        sweep(shards: 0..<StoreRecordTable.shardCount, keeping: kept, into: &swept)
        if var automatic = automaticCollection {
            automatic.rootThreshold = automatic.rootThreshold(afterKeeping: rootHeldObjects)
            automaticCollection = automatic
        }
        return (swept.change, swept.records, swept.rootFields)
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
