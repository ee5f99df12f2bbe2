/// The fields one commit changed, as the commit left them: what a store on
/// disk writes for the commit, in one transaction.
///
/// A record the commit removed (deleted or collected) is listed with
/// `fields == nil`; a field it removed, with a `nil` value.
package struct StoreCommitSnapshot: Sendable {
    /// One record the commit touched.
    package struct Record: Sendable {
        /// The record's key.
        package let key: CacheKey
        /// The changed fields and their new values (`nil`: removed), or `nil`
        /// when the store no longer holds the record.
        package let fields: [(name: String, value: StoreValue?)]?
    }

    /// The records the commit touched.
    package let records: [Record]
    /// The store's commit count after this commit.
    package let count: Int

    /// Copies what `change` touched from the state it left.
    /// - Complexity: O(*f*) for *f* changed fields (values are copied on
    ///   write, so no value is walked).
    init(of change: StoreChange, in state: StoreState, count: Int) {
        var records: [Record] = []
        records.reserveCapacity(change.changed.count)
        for (key, names) in change.changed {
            guard let record = state.records[key] else {
                records.append(Record(key: key, fields: nil))
                continue
            }
            var seen: Set<String> = []
            var fields: [(name: String, value: StoreValue?)] = []
            fields.reserveCapacity(names.count)
            for name in names where seen.insert(name).inserted { fields.append((name, record[name])) }
            records.append(Record(key: key, fields: fields))
        }
        self.records = records
        self.count = count
    }
}

extension GraphQLStore {
    /// Fills an empty store with records from a store on disk and registers
    /// `sink` for every later commit, under one lock, so that no commit falls
    /// between the two. The records restored count as kept by a collection:
    /// the store does not collect them before something can make them live.
    /// - Parameters:
    ///   - records: the records.
    ///   - sink: takes a copy of each later commit's changed fields, under the
    ///     store's lock and so in commit order; it must return at once and
    ///     must not call the store.
    /// - Returns: the sink's registration, or `nil` when the store already
    ///   holds records (nothing is restored then).
    /// - Complexity: O(*n*) on average for *n* fields, plus the size of the
    ///   values that hold references.
    package func restore(
        _ records: [StoreRecord], thenCommitsTo sink: @escaping @Sendable (StoreCommitSnapshot) -> Void
    ) -> StoreObservation? {
        let restored = state.withLock { state -> (StoreDelivery, Int)? in
            guard state.records.count == 0 else { return nil }
            var change = StoreChange()
            for record in records {
                change.formUnion(state.modify(record.key, fields: record.fields.mapValues { Optional($0) }))
            }
            if var automatic = state.collector.automaticCollection {
                automatic.threshold = max(
                    automatic.threshold, automatic.threshold(afterKeeping: state.records.count))
                automatic.rootThreshold = max(
                    automatic.rootThreshold, automatic.rootThreshold(afterKeeping: state.rootHeldObjects))
                state.collector.automaticCollection = automatic
            }
            if !change.isEmpty { state.commits += 1 }
            let id = state.makeID()
            state.commitSinks[id] = sink
            return (state.delivery(of: change), id)
        }
        guard let (delivery, id) = restored else { return nil }
        delivery.run()
        return StoreObservation { [self] in
            _ = state.withLock { $0.commitSinks.removeValue(forKey: id) }
        }
    }
}
