/// One field of one record: what a ``StoreChange`` reports and what a read
/// depends on.
///
/// The field is named by its storage key: the field's name followed by its
/// arguments, sorted by name, with variables resolved, such as
/// `launches(after:"abc",pageSize:20)`; just the name when it has none.
public struct StoreFieldKey: Hashable, Sendable {
    /// The record's key.
    public var record: CacheKey
    /// The field's storage key.
    public var field: String

    /// Creates a field key.
    /// - Parameters:
    ///   - record: the record's key.
    ///   - field: the field's storage key.
    public init(record: CacheKey, field: String) {
        self.record = record
        self.field = field
    }
}

extension StoreFieldKey: CustomStringConvertible {
    /// The record and the field, such as `QUERY_ROOT.launches(first:2)`.
    public var description: String { "\(record.rawValue).\(field)" }
}
