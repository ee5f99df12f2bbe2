/// An object without an identity, kept inside the field that holds it
/// rather than as a record of its own: a connection, its edges, its
/// `pageInfo`, a launch's `rocket` when the rocket has no `id`.
///
/// Its fields are stored as a record's are, by storage key, objects with an
/// identity as references. It belongs to the record field that holds it: a
/// change to it is a change of that field, and it goes with that field.
///
/// ```swift
/// let root = store.record(for: .queryRoot)
/// if case .object(let connection)? = root?["launches(first:2)"] {
///     connection["pageInfo"] // another StoreValue.object
/// }
/// ```
public struct StoreObject: Sendable {
    var storage: StoreFields

    /// An object of fields, by storage key.
    /// - Parameter fields: the fields.
    /// - Complexity: O(*n*) for *n* fields.
    public init(_ fields: [String: StoreValue]) {
        storage = StoreFields(adopting: fields.map { ($0.key, $0.value) })
    }

    /// An object of fields given as a list of distinct names; `sharedNames`
    /// lists them in order when the selection that wrote them does.
    init(adopting fields: [(name: String, value: StoreValue)], sharedNames: [String]? = nil) {
        storage = StoreFields(adopting: fields, sharedNames: sharedNames)
    }

    init(storage: StoreFields) {
        self.storage = storage
    }

    /// The value of a field, by storage key.
    /// - Complexity: O(1) on average; O(12) at most.
    public subscript(name: String) -> StoreValue? { storage[name] }

    /// The fields, by storage key.
    /// - Complexity: O(*n*) for *n* fields.
    public var fields: [String: StoreValue] { storage.dictionary }

    /// The number of fields.
    /// - Complexity: O(1).
    public var count: Int { storage.count }

    /// The object with `newer`'s fields written over it: fields of both take
    /// `newer`'s value, merged in turn where both are objects, or lists of
    /// objects (element by element), as a second response's fields merge
    /// into a record.
    /// - Complexity: O(*n*) for the *n* values of `newer`, at every depth.
    func merging(_ newer: StoreObject) -> StoreObject {
        var merged = storage
        newer.storage.forEach { name, value in
            _ = merged.updateValue(value.merged(over: merged[name]), forKey: name)
        }
        return StoreObject(storage: merged)
    }
}

extension StoreObject: Hashable {
    /// Whether two objects have the same fields with the same values, in any order.
    /// - Complexity: O(*n*) on average for *n* fields.
    public static func == (lhs: StoreObject, rhs: StoreObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var equal = true
        lhs.storage.forEach { name, value in
            if equal, rhs.storage[name] != value { equal = false }
        }
        return equal
    }

    /// Hashes the fields, in any order.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        storage.forEach { name, value in
            var field = Hasher()
            field.combine(name)
            field.combine(value)
            sum &+= field.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
