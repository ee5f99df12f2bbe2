/// Why a read of a ``GraphQLStore`` is incomplete: the first field it needed
/// and did not find.
///
/// ```swift
/// let result = store.read(operation)
/// if let miss = result.miss {
///     print(miss) // No value for launches(first:2) in record QUERY_ROOT, at launches.
/// }
/// ```
public struct StoreMiss: Hashable, Sendable, Error {
    /// Where the missing value sits in the response, by response keys
    /// (aliases) and list indices.
    public var path: [GraphQLPathSegment]
    /// The record that lacks the field.
    public var record: CacheKey
    /// The missing field's storage key; empty when the record itself is
    /// missing and the selection asks for no field.
    public var field: String
    /// Whether the record itself is missing, as for a reference to a deleted
    /// record; `false` when the record exists without the field.
    public var recordIsMissing: Bool

    /// Creates a miss.
    /// - Parameters:
    ///   - path: where the missing value sits in the response.
    ///   - record: the record that lacks the field.
    ///   - field: the missing field's storage key.
    ///   - recordIsMissing: whether the record itself is missing.
    public init(path: [GraphQLPathSegment], record: CacheKey, field: String, recordIsMissing: Bool = false) {
        self.path = path
        self.record = record
        self.field = field
        self.recordIsMissing = recordIsMissing
    }
}

extension StoreMiss: CustomStringConvertible {
    /// The miss as a sentence naming the field, the record and the path.
    public var description: String {
        let place = GraphQLPathSegment.describe(path)
        if recordIsMissing {
            return
                "The record \(record.rawValue) is not in the store (reading \(field.isEmpty ? "it" : field)), at \(place)."
        }
        return "No value for \(field) in record \(record.rawValue), at \(place)."
    }
}
