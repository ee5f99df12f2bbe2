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
    /// Calls `sink` with a copy of every later commit's changed fields,
    /// under the store's lock and so in commit order: a store on disk
    /// queues them for its writer. The sink must return at once and must
    /// not call the store.
    /// - Parameter sink: takes each commit.
    /// - Returns: the token that keeps the sink registered.
    /// - Complexity: O(1); each commit then costs O(*f*) more for *f*
    ///   changed fields.
    package func onCommit(_ sink: @escaping @Sendable (StoreCommitSnapshot) -> Void) -> StoreObservation {
        register(sink, in: \.commitSinks)
    }

    /// Sets records from a store on disk, in one commit: each record's
    /// fields as given, merged over what the store holds.
    /// - Parameter records: the records.
    /// - Returns: the change.
    /// - Complexity: O(*n*) on average for *n* fields, plus the size of the
    ///   values that hold references.
    @discardableResult
    package func restore(_ records: [StoreRecord]) -> StoreChange {
        commit { state in
            var change = StoreChange()
            for record in records {
                change.formUnion(state.modify(record.key, fields: record.fields.mapValues { Optional($0) }))
            }
            return change
        }
    }
}
