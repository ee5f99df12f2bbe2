/// What a read of a ``GraphQLStore`` found: the data, or the first missing
/// field; and in both cases the fields the read looked at.
///
/// A read is all or nothing: when a single field is missing, ``data`` is
/// `nil` and ``miss`` names the field, never a partial or guessed value.
///
/// ```swift
/// let result = store.read(operation)
/// if let data = result.data {
///     show(data)
/// } else if let miss = result.miss {
///     fetch(because: miss)
/// }
/// ```
public struct StoreReadResult: Sendable {
    /// The data, shaped as the server returned it for the document (response
    /// keys are aliases, nulls kept); `nil` when a field was missing.
    public var data: JSONValue?
    /// The first missing field; `nil` when the read is complete.
    public var miss: StoreMiss?
    /// The storage keys of the fields the read looked at, by record; a name
    /// may repeat.
    package let dependencyLists: [CacheKey: [String]]

    /// Creates a read result.
    /// - Parameters:
    ///   - data: the data, or `nil` for a miss.
    ///   - miss: the first missing field, or `nil` for complete data.
    ///   - dependenciesByRecord: the fields the read looked at, by record.
    public init(data: JSONValue?, miss: StoreMiss?, dependenciesByRecord: [CacheKey: Set<String>]) {
        self.init(data: data, miss: miss, dependencyLists: dependenciesByRecord.mapValues { Array($0) })
    }

    init(data: JSONValue?, miss: StoreMiss?, dependencyLists: [CacheKey: [String]]) {
        self.data = data
        self.miss = miss
        self.dependencyLists = dependencyLists
    }

    /// The fields the read looked at, by record, as storage keys; on a miss,
    /// at least up to and including the missing one.
    /// - Complexity: O(*d*), where *d* is the number of fields read.
    public var dependenciesByRecord: [CacheKey: Set<String>] {
        dependencyLists.mapValues { Set($0) }
    }

    /// Whether the read found every field.
    public var isComplete: Bool { data != nil }

    /// Every field the read looked at.
    /// - Complexity: O(*d*), where *d* is the number of fields read.
    public var dependencies: Set<StoreFieldKey> {
        var fields: Set<StoreFieldKey> = []
        for (record, names) in dependencyLists {
            for name in names { fields.insert(StoreFieldKey(record: record, field: name)) }
        }
        return fields
    }

    /// Whether a change touches a field this read looked at, so that reading
    /// again may give another result.
    /// - Parameter change: a change of the store.
    /// - Returns: `true` when a changed field is among the dependencies.
    /// - Complexity: O(*c* × *k*) on average, where *c* is the number of
    ///   changed fields and *k* the number of fields read per record.
    public func isAffected(by change: StoreChange) -> Bool {
        for (record, fields) in change.changed {
            guard let read = dependencyLists[record] else { continue }
            if fields.isEmpty || fields.contains(where: read.contains) { return true }
        }
        return false
    }
}

extension StoreReadResult: Hashable {
    /// Whether two results have the same data, miss and dependencies.
    public static func == (lhs: StoreReadResult, rhs: StoreReadResult) -> Bool {
        lhs.data == rhs.data && lhs.miss == rhs.miss && lhs.dependenciesByRecord == rhs.dependenciesByRecord
    }

    /// Hashes the data, the miss and the dependencies.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(data)
        hasher.combine(miss)
        hasher.combine(dependenciesByRecord)
    }
}
