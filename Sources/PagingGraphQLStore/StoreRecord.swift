/// A snapshot of one record of a ``GraphQLStore``: its fields by storage key.
///
/// ```swift
/// if let launch = store.record(for: "Launch:109") {
///     print(launch["site"] ?? "no site") // "KSC LC 39A"
/// }
/// ```
public struct StoreRecord: Hashable, Sendable {
    /// The record's key.
    public var key: CacheKey
    /// The fields, by storage key (see ``StoreFieldKey``).
    public var fields: [String: StoreValue]

    /// Creates a record.
    /// - Parameters:
    ///   - key: the record's key.
    ///   - fields: the fields, by storage key.
    public init(key: CacheKey, fields: [String: StoreValue] = [:]) {
        self.key = key
        self.fields = fields
    }

    /// The value of a field, or `nil` when the record does not hold it.
    /// - Parameter field: the field's storage key, such as `name` or
    ///   `launches(first:2)`.
    /// - Complexity: O(1) on average.
    public subscript(field: String) -> StoreValue? {
        fields[field]
    }
}
