/// The value of one field of a record in a ``GraphQLStore``.
///
/// A field that selects no subfields holds its JSON value as it came
/// (``scalar(_:)``, which also covers `null` and custom scalars that are JSON
/// objects); a field that selects subfields holds a ``reference(_:)`` to the
/// record of its object when the object has an identity, the object itself
/// (``object(_:)``) when it has none, `null`, or a ``list(_:)`` of these,
/// nested as deep as the field's type.
public enum StoreValue: Hashable, Sendable {
    /// A leaf value, or `null`.
    case scalar(JSONValue)
    /// A reference to another record.
    case reference(CacheKey)
    /// An object without an identity, held in place. (One pointer: a value
    /// is stored once per field of every record, and an object's fields
    /// inline would make every one of them larger.)
    case object(StoreObject)
    /// A list; its elements are values of any kind, lists for a list of lists.
    case list([StoreValue])
}

extension StoreValue {
    /// Calls `body` for every reference in the value, in order, lists and
    /// objects included.
    /// - Complexity: O(*n*), where *n* is the number of values at every depth.
    func forEachReference(_ body: (CacheKey) -> Void) {
        switch self {
        case .scalar: break
        case .reference(let key): body(key)
        case .object(let object):
            object.forEach { _, value in value.forEachReference(body) }
        case .list(let elements):
            for element in elements { element.forEachReference(body) }
        }
    }

    /// Whether the value holds any reference.
    var hasReferences: Bool {
        switch self {
        case .scalar: false
        case .reference: true
        case .object(let object):
            object.containsValue { $0.hasReferences }
        case .list(let elements): elements.contains { $0.hasReferences }
        }
    }

    /// The objects without identity the value holds, itself included, at
    /// any depth: what a field of a root record holds counts toward the
    /// store's limit as records do (a connection's edges, its `pageInfo`).
    /// - Complexity: O(*n*), where *n* is the number of values at every depth.
    var heldObjectCount: Int {
        switch self {
        case .scalar, .reference:
            return 0
        case .object(let object):
            var count = 1
            object.forEach { _, value in count += value.heldObjectCount }
            return count
        case .list(let elements):
            return elements.reduce(0) { $0 + $1.heldObjectCount }
        }
    }

    /// Whether the value references `key`, at any depth.
    func references(_ key: CacheKey) -> Bool {
        var found = false
        forEachReference { if $0 == key { found = true } }
        return found
    }

    /// The value with every list element that references `key` removed, at
    /// any depth: a reference to it, and an object (an edge) with a field
    /// that is a reference to it. A reference outside a list is kept.
    /// - Complexity: O(*n*), where *n* is the number of values at every depth.
    func removingListElements(referencing key: CacheKey) -> StoreValue {
        switch self {
        case .scalar, .reference:
            return self
        case .object(let object):
            return .object(object.mapValues { $0.removingListElements(referencing: key) })
        case .list(let elements):
            return .list(
                elements.compactMap { element in
                    switch element {
                    case .reference(key): return nil
                    case .object(let edge) where edge.holdsDirectly(key): return nil
                    default: return element.removingListElements(referencing: key)
                    }
                })
        }
    }

    /// The value a write stores over `old`: this value, with an object
    /// merged over an old object (and a list of objects element by element
    /// over an old list), as a record's fields merge.
    /// - Complexity: O(*n*) for the *n* values of this value, at every depth.
    func merged(over old: StoreValue?) -> StoreValue {
        switch (self, old) {
        case (.object(let new), .object(let previous)?):
            return .object(previous.merging(new))
        case (.list(let new), .list(let previous)?):
            guard new.contains(where: \.isMergeable) else { return self }
            return .list(
                new.indices.map { index in
                    index < previous.count ? new[index].merged(over: previous[index]) : new[index]
                })
        default:
            return self
        }
    }

    /// Whether the value is an object or a list, which a write may merge
    /// over what a field holds.
    var holdsObjectsOrLists: Bool {
        switch self {
        case .object, .list: true
        case .scalar, .reference: false
        }
    }

    /// Whether the value holds objects that a write merges.
    private var isMergeable: Bool {
        switch self {
        case .object: true
        case .list(let elements): elements.contains(where: \.isMergeable)
        case .scalar, .reference: false
        }
    }
}

extension StoreObject {
    /// Whether a field of the object is a reference to `key` (an edge that
    /// holds a node).
    func holdsDirectly(_ key: CacheKey) -> Bool {
        containsValue { $0 == .reference(key) }
    }
}

extension StoreValue: CustomStringConvertible {
    /// The value as text: JSON for a scalar, `->Key` for a reference,
    /// braces for an object (fields sorted by name), brackets for a list.
    public var description: String {
        switch self {
        case .scalar(let value): value.canonicalText
        case .reference(let key): "->\(key.rawValue)"
        case .object(let object):
            "{"
                + object.fields.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(
                    separator: ",")
                + "}"
        case .list(let elements): "[" + elements.map(\.description).joined(separator: ",") + "]"
        }
    }
}
