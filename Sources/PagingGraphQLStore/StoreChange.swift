/// What one call that edits a ``GraphQLStore`` changed: the fields whose
/// value is now different, by record.
///
/// A write reports only the fields whose value really changed; writing the
/// same data twice reports nothing the second time. A record that was added
/// or removed reports all of its fields.
///
/// ```swift
/// let change = try store.write(data: response, for: operation)
/// if change.contains(record: "Launch:109", field: "site") { ... }
/// ```
public struct StoreChange: Sendable {
    /// The changed fields' storage keys by record, in the order they
    /// changed; a name may repeat. An empty list means the record was added
    /// or removed without fields.
    private(set) var changed: [CacheKey: [String]]
    /// The records this change deleted.
    public internal(set) var deletedRecords: Set<CacheKey> = []
    /// What the change asks of the connections that lists show: items to
    /// append, prepend or remove, from a mutation's `@appendEdge`,
    /// `@prependEdge`, `@appendNode`, `@prependNode` or `@deleteEdge`; in
    /// the order of the response.
    public internal(set) var connectionEdits: [StoreConnectionEdit] = []
    /// The records whose shape changed: added, removed, or with a changed
    /// field that held or now holds a reference. A watch that read such a
    /// record reads its whole selection again; for the others it reads
    /// again only the records that changed.
    private(set) var structural: Set<CacheKey> = []

    /// Creates a change.
    /// - Parameter fieldsByRecord: the changed fields' storage keys, by record.
    public init(fieldsByRecord: [CacheKey: Set<String>] = [:]) {
        changed = fieldsByRecord.mapValues { Array($0) }
    }

    /// An empty change with room for a number of records.
    init(reservingCapacity capacity: Int) {
        changed = Dictionary(minimumCapacity: capacity)
    }

    /// The changed fields' storage keys, by record. A record with an empty
    /// set was added or removed without fields.
    /// - Complexity: O(*f*), where *f* is the number of changed fields.
    public var fieldsByRecord: [CacheKey: Set<String>] {
        changed.mapValues { Set($0) }
    }

    /// Whether nothing changed.
    /// - Complexity: O(1).
    public var isEmpty: Bool { changed.isEmpty && connectionEdits.isEmpty }

    /// The keys of the records with a changed field, or that were added or
    /// removed.
    /// - Complexity: O(*r*), where *r* is the number of changed records.
    public var records: Set<CacheKey> { Set(changed.keys) }

    /// The keys of the changed records, as ``records`` without building a
    /// set: for a follower that looks each up.
    /// - Complexity: O(1).
    package var changedRecords: Dictionary<CacheKey, [String]>.Keys { changed.keys }

    /// Every changed field.
    /// - Complexity: O(*f*), where *f* is the number of changed fields.
    public var fields: Set<StoreFieldKey> {
        var fields: Set<StoreFieldKey> = []
        for (record, names) in changed {
            for name in names { fields.insert(StoreFieldKey(record: record, field: name)) }
        }
        return fields
    }

    /// Whether a field of a record changed.
    /// - Parameters:
    ///   - record: the record's key.
    ///   - field: the field's storage key.
    /// - Returns: `true` when the field changed, or when the record was added
    ///   or removed without fields.
    /// - Complexity: O(*k*) on average, where *k* is the number of changed
    ///   fields of the record.
    public func contains(record: CacheKey, field: String) -> Bool {
        guard let names = changed[record] else { return false }
        return names.isEmpty || names.contains(field)
    }

    /// Records that a field of a record changed.
    mutating func insert(record: CacheKey, field: String) {
        changed[record, default: []].append(field)
    }

    /// Records that a record was added or removed.
    mutating func insert(record: CacheKey) {
        if changed[record] == nil { changed[record] = [] }
        structural.insert(record)
    }

    /// Records that a field that holds (or held) references changed.
    mutating func insertStructural(record: CacheKey) {
        structural.insert(record)
    }

    /// Adds what another change of the same call changed: its fields,
    /// deleted records and connection edits (after this change's).
    /// - Complexity: O(*f*) for *f* fields changed by `other`.
    mutating func formUnion(_ other: StoreChange) {
        for (record, names) in other.changed { merge(record: record, fields: names) }
        structural.formUnion(other.structural)
        deletedRecords.formUnion(other.deletedRecords)
        connectionEdits += other.connectionEdits
    }

    /// Records that a record was added with these fields; the list is shared,
    /// not copied.
    mutating func insert(record: CacheKey, fields: [String]) {
        merge(record: record, fields: fields)
        structural.insert(record)
    }

    private mutating func merge(record: CacheKey, fields: [String]) {
        if let existing = changed.updateValue(fields, forKey: record), !existing.isEmpty {
            changed[record] = existing + fields
        }
    }
}

extension StoreChange: Hashable {
    /// Whether two changes name the same fields of the same records.
    public static func == (lhs: StoreChange, rhs: StoreChange) -> Bool {
        lhs.fieldsByRecord == rhs.fieldsByRecord && lhs.deletedRecords == rhs.deletedRecords
            && lhs.connectionEdits == rhs.connectionEdits
    }

    /// Hashes the changed fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fieldsByRecord)
        hasher.combine(deletedRecords)
        hasher.combine(connectionEdits)
    }
}

extension StoreChange: CustomStringConvertible {
    /// The changed fields, sorted, such as `[Launch:1.site, QUERY_ROOT.launch(id:"1")]`.
    public var description: String {
        let names = fieldsByRecord.flatMap { record, fields in
            fields.isEmpty ? [record.rawValue] : fields.map { "\(record.rawValue).\($0)" }
        }
        return "[" + names.sorted().joined(separator: ", ") + "]"
    }
}
