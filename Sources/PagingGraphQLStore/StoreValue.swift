/// The value of one field of a record in a ``GraphQLStore``.
///
/// A field that selects no subfields holds its JSON value as it came
/// (``scalar(_:)``, which also covers `null` and custom scalars that are JSON
/// objects); a field that selects subfields holds a ``reference(_:)`` to the
/// record of its object, `null`, or a ``list(_:)`` of either, nested as deep
/// as the field's type.
public enum StoreValue: Hashable, Sendable {
    /// A leaf value, or `null`.
    case scalar(JSONValue)
    /// A reference to another record.
    case reference(CacheKey)
    /// A list; its elements are values of any kind, lists for a list of lists.
    case list([StoreValue])
}

extension StoreValue {
    /// Calls `body` for every reference in the value, in order, lists included.
    /// - Complexity: O(*n*), where *n* is the number of elements at every depth.
    func forEachReference(_ body: (CacheKey) -> Void) {
        switch self {
        case .scalar: break
        case .reference(let key): body(key)
        case .list(let elements):
            for element in elements { element.forEachReference(body) }
        }
    }

    /// Whether the value holds any reference.
    var hasReferences: Bool {
        switch self {
        case .scalar: false
        case .reference: true
        case .list(let elements): elements.contains { $0.hasReferences }
        }
    }

    /// The value with every list element that is a reference to `key`
    /// removed, at any depth; a direct reference is kept.
    func removingListElements(referencing key: CacheKey) -> StoreValue {
        guard case .list(let elements) = self else { return self }
        return .list(
            elements.compactMap { element in
                if case .reference(key) = element { return nil }
                return element.removingListElements(referencing: key)
            })
    }
}

extension StoreValue: CustomStringConvertible {
    /// The value as text: JSON for a scalar, `->Key` for a reference,
    /// brackets for a list.
    public var description: String {
        switch self {
        case .scalar(let value): value.canonicalText
        case .reference(let key): "->\(key.rawValue)"
        case .list(let elements): "[" + elements.map(\.description).joined(separator: ",") + "]"
        }
    }
}
