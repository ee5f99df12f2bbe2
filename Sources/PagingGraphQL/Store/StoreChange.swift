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
public struct StoreChange: Hashable, Sendable {
    /// The changed fields' storage keys, by record. A record with an empty
    /// set was added or removed without fields.
    public private(set) var fieldsByRecord: [CacheKey: Set<String>]

    /// Creates a change.
    /// - Parameter fieldsByRecord: the changed fields' storage keys, by record.
    public init(fieldsByRecord: [CacheKey: Set<String>] = [:]) {
        self.fieldsByRecord = fieldsByRecord
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { fieldsByRecord.isEmpty }

    /// The keys of the records with a changed field, or that were added or
    /// removed.
    /// - Complexity: O(*r*), where *r* is the number of changed records.
    public var records: Set<CacheKey> { Set(fieldsByRecord.keys) }

    /// Every changed field.
    /// - Complexity: O(*f*), where *f* is the number of changed fields.
    public var fields: Set<StoreFieldKey> {
        var fields: Set<StoreFieldKey> = []
        for (record, names) in fieldsByRecord {
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
    /// - Complexity: O(1) on average.
    public func contains(record: CacheKey, field: String) -> Bool {
        guard let names = fieldsByRecord[record] else { return false }
        return names.isEmpty || names.contains(field)
    }

    /// Whether any of the given fields of a record changed.
    /// - Complexity: O(min(*m*, *n*)) on average for sets of sizes *m* and *n*.
    func touches(record: CacheKey, fields: Set<String>) -> Bool {
        guard let names = fieldsByRecord[record] else { return false }
        if names.isEmpty { return true }
        return names.count <= fields.count
            ? names.contains(where: fields.contains) : fields.contains(where: names.contains)
    }

    /// Records that a field of a record changed.
    mutating func insert(record: CacheKey, field: String) {
        fieldsByRecord[record, default: []].insert(field)
    }

    /// Records that a record was added or removed.
    mutating func insert(record: CacheKey) {
        if fieldsByRecord[record] == nil { fieldsByRecord[record] = [] }
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
