/// The collector of a ``GraphQLStore``: what keeps records live (retained
/// records and operations, the retains that keep what is written), and the
/// collections that remove the rest, at once (``collect(_:watchQueries:keying:sparing:)``)
/// or a few shards of the record table per commit past a limit
/// (``collectIfOverLimit(_:watchQueries:keying:sparing:)``).
///
/// It marks in epochs: a collection begins a new epoch, marks what the live
/// selections, the retained records and what a commit wrote reach, and
/// sweeps what is not marked in it.
///
/// Invariants:
/// - While a collection is under way (``cycle``), every record reachable
///   from something live is marked in ``markEpoch``: at the mark, or as it
///   became reachable (a write, a new retain or watch marks what it reaches;
///   ``StoreRecords`` marks the records it makes and those newly referenced,
///   by ``marking``). So a sweep never removes a record something live
///   reaches.
/// - No record is marked in an epoch later than ``markEpoch`` (the epoch
///   wraps by clearing every mark first).
/// - Each id in ``writeKeepers`` has an entry in ``retainedKeys``, which
///   every write adds its records to.
///
/// Not `Sendable`: it lives in a ``StoreState``, which a store's lock guards.
struct StoreCollector {
    /// When the store collects by itself, if it does.
    var automaticCollection: AutomaticCollection?
    /// The collection under way, if one is.
    private(set) var cycle: CollectionCycle?
    /// The epoch of the last collection's marks (``StoredRecord/mark``).
    private(set) var markEpoch: UInt8 = 0
    /// The records retained, by retain id.
    var retainedKeys: [Int: [CacheKey]] = [:]
    /// The operations retained, by retain id: what they read is live.
    var retainedQueries: [Int: StoreQuery] = [:]
    /// The retains (ids in ``retainedKeys``) that keep every record written
    /// while they live: a pager's load in flight, whose page is written
    /// before its follower retains it.
    var writeKeepers: Set<Int> = []

    /// How ``StoreRecords`` marks the records it makes or that become
    /// referenced: in this epoch, and live while a collection runs.
    /// - Complexity: O(1).
    var marking: StoreRecords.Marking {
        StoreRecords.Marking(epoch: markEpoch, isCollecting: cycle != nil)
    }

    /// Adds what a write wrote to the retains that keep writes.
    /// - Complexity: O(*e*) for *e* records written, per keeper.
    mutating func keepWritten(_ entries: [StoreNormalizer.Entry]) {
        guard !writeKeepers.isEmpty else { return }
        let keys = entries.lazy.map(\.key).filter { !$0.isRoot }
        for id in writeKeepers { retainedKeys[id, default: []].append(contentsOf: keys) }
    }

    /// Begins a new marking epoch: records marked before no longer count.
    private mutating func beginEpoch(in records: StoreRecords) {
        markEpoch &+= 1
        if markEpoch == 0 {
            // Wrapped around: old marks could be taken for new ones.
            records.forEach { _, record in record.mark = 0 }
            markEpoch = 1
        }
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
    private static func roots(
        of query: StoreQuery, in records: StoreRecords, keying: StoreKeying, into pending: inout [CacheKey],
        rootFields: inout [CacheKey: Set<String>]
    ) {
        for (key, fields) in records.read(query, keying: keying).dependencyLists {
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
    /// - Complexity: O(*r*) for the records newly marked and their values.
    mutating func markWritten(_ entries: [StoreNormalizer.Entry], in records: StoreRecords) {
        guard var running = cycle, !entries.isEmpty else { return }
        var pending: [CacheKey] = []
        Self.roots(of: entries, into: &pending, rootFields: &running.keptRootFields)
        cycle = running
        records.markReach(from: pending, epoch: markEpoch)
    }

    /// During a collection, keeps what a new retain or watch reaches.
    /// - Complexity: O(1) when no collection runs; else a read of the
    ///   selection, and O(*r*) for the records newly marked.
    mutating func markNewRoot(
        keys: [CacheKey] = [], query: StoreQuery? = nil, keying: StoreKeying, in records: StoreRecords
    ) {
        guard var running = cycle else { return }
        var pending = keys
        if let query {
            Self.roots(
                of: query, in: records, keying: keying, into: &pending, rootFields: &running.keptRootFields)
        }
        cycle = running
        records.markReach(from: pending, epoch: markEpoch)
    }

    /// What `spared` wrote and the live selections (watches, retained
    /// operations) read: the fields of root records they keep, and the
    /// records they reach first.
    private func liveRoots(
        in held: StoreRecords, watchQueries: some Sequence<StoreQuery>, keying: StoreKeying,
        sparing spared: [StoreNormalizer.Entry]
    ) -> (rootFields: [CacheKey: Set<String>], records: [CacheKey]) {
        var rootFields: [CacheKey: Set<String>] = [:]
        var records: [CacheKey] = []
        Self.roots(of: spared, into: &records, rootFields: &rootFields)
        for query in watchQueries {
            Self.roots(of: query, in: held, keying: keying, into: &records, rootFields: &rootFields)
        }
        for query in retainedQueries.values {
            Self.roots(of: query, in: held, keying: keying, into: &records, rootFields: &rootFields)
        }
        return (rootFields, records)
    }

    /// Marks what is live: the selections of the watches and of retained
    /// operations, the retained records, and what `spared` wrote, each with
    /// everything it reaches. Returns the fields of root records to keep.
    private mutating func markLive(
        in records: StoreRecords, watchQueries: some Sequence<StoreQuery>, keying: StoreKeying,
        sparing spared: [StoreNormalizer.Entry]
    ) -> [CacheKey: Set<String>] {
        beginEpoch(in: records)
        let (keptRootFields, pending) = liveRoots(
            in: records, watchQueries: watchQueries, keying: keying, sparing: spared)
        records.markReach(from: pending, epoch: markEpoch)
        // Each retained list in place: gathered into one, they would be
        // copied whole for the length of the collection.
        for keys in retainedKeys.values { records.markReach(from: keys, epoch: markEpoch) }
        return keptRootFields
    }

    /// What a sweep removed.
    struct Swept {
        /// The change the removals make.
        var change = StoreChange()
        /// The records removed.
        var records: [CacheKey] = []
        /// The fields of root records removed.
        var rootFields: [StoreFieldKey] = []
    }

    /// Sweeps shards of the record table: removes the records not marked in
    /// this epoch, and the fields of root records not kept.
    /// - Complexity: O(*n*) for the *n* records of those shards.
    private func sweep(
        _ records: inout StoreRecords, shards: Range<Int>, keeping kept: [CacheKey: Set<String>],
        into swept: inout Swept
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
            records.remove(field: field.field, of: field.record, marking: marking)
            swept.change.insert(record: field.record, field: field.field)
            swept.change.insertStructural(record: field.record)
        }
        for key in removedRecords { records.remove(key, marking: marking) }
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
    mutating func collectIfOverLimit(
        _ records: inout StoreRecords, watchQueries: some Sequence<StoreQuery>, keying: StoreKeying,
        sparing spared: [StoreNormalizer.Entry] = []
    ) -> StoreChange {
        guard var automatic = automaticCollection else { return StoreChange() }
        if cycle == nil {
            guard records.count > automatic.threshold else {
                guard records.rootHeldObjects > automatic.rootThreshold else { return StoreChange() }
                let change = removeRootFieldsNotLive(
                    &records, watchQueries: watchQueries, keying: keying, sparing: spared)
                automatic.runs += 1
                automatic.rootThreshold = automatic.rootThreshold(afterKeeping: records.rootHeldObjects)
                automaticCollection = automatic
                return change
            }
            cycle = CollectionCycle(
                keptRootFields: markLive(
                    in: records, watchQueries: watchQueries, keying: keying, sparing: spared))
        } else {
            markWritten(spared, in: records)
        }
        guard let running = cycle else { return StoreChange() }
        let shards =
            running
            .nextShard..<min(running.nextShard + automatic.shardsPerCommit, StoreRecordTable.shardCount)
        var swept = Swept()
        sweep(&records, shards: shards, keeping: running.keptRootFields, into: &swept)
        cycle?.nextShard = shards.upperBound
        if shards.upperBound == StoreRecordTable.shardCount {
            cycle = nil
            automatic.runs += 1
            automatic.threshold = automatic.threshold(afterKeeping: records.count)
            automatic.rootThreshold = automatic.rootThreshold(afterKeeping: records.rootHeldObjects)
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
    private func removeRootFieldsNotLive(
        _ records: inout StoreRecords, watchQueries: some Sequence<StoreQuery>, keying: StoreKeying,
        sparing spared: [StoreNormalizer.Entry]
    ) -> StoreChange {
        let kept = liveRoots(in: records, watchQueries: watchQueries, keying: keying, sparing: spared)
            .rootFields
        var change = StoreChange()
        for root in [CacheKey.queryRoot, .mutationRoot, .subscriptionRoot] {
            guard let record = records[root] else { continue }
            guard let keep = kept[root] else {
                // As a full collection does: a root record nothing live reads goes.
                change.insert(record: root, fields: record.allNames)
                records.remove(root, marking: marking)
                continue
            }
            for field in record.allNames where !keep.contains(field) {
                records.remove(field: field, of: root, marking: marking)
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
    mutating func collect(
        _ records: inout StoreRecords, watchQueries: some Sequence<StoreQuery>, keying: StoreKeying,
        sparing spared: [StoreNormalizer.Entry] = []
    ) -> (change: StoreChange, removedRecords: [CacheKey], removedRootFields: [StoreFieldKey]) {
        var swept = Swept()
        if let running = cycle {
            sweep(
                &records, shards: running.nextShard..<StoreRecordTable.shardCount,
                keeping: running.keptRootFields, into: &swept)
            cycle = nil
            if var automatic = automaticCollection {
                automatic.runs += 1
                automaticCollection = automatic
            }
        }
        let kept = markLive(in: records, watchQueries: watchQueries, keying: keying, sparing: spared)
        sweep(&records, shards: 0..<StoreRecordTable.shardCount, keeping: kept, into: &swept)
        if var automatic = automaticCollection {
            automatic.rootThreshold = automatic.rootThreshold(afterKeeping: records.rootHeldObjects)
            automaticCollection = automatic
        }
        return (swept.change, swept.records, swept.rootFields)
    }
}
