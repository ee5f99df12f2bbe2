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
    /// The fields, names and values, in one allocation: an object is held
    /// by a value of its parent (an edge by its connection's list), so one
    /// pointer here keeps every ``StoreValue`` small without boxing it.
    /// (`ManagedBuffer` is not `Sendable`; this one is never changed once
    /// made, so sharing it across threads is safe.)
    nonisolated(unsafe) let buffer: InlineFields

    /// An object of fields, by storage key.
    /// - Parameter fields: the fields.
    /// - Complexity: O(*n*) for *n* fields.
    public init(_ fields: [String: StoreValue]) {
        self.init(adopting: fields.map { ($0.key, $0.value) })
    }

    /// An object of fields given as a list of distinct names; `sharedNames`
    /// lists them in order when the selection that wrote them does, and is
    /// then held instead of a list of the object's own.
    init(adopting fields: [(name: String, value: StoreValue)], sharedNames: [String]? = nil) {
        let names = sharedNames.flatMap { $0.count == fields.count ? $0 : nil } ?? fields.map(\.name)
        self.buffer = InlineFields.make(names: names, values: fields.lazy.map(\.value))
    }

    /// The value of a field, by storage key.
    /// - Complexity: O(1) on average; O(12) at most.
    public subscript(name: String) -> StoreValue? { buffer[name] }

    /// The fields, by storage key.
    /// - Complexity: O(*n*) for *n* fields.
    public var fields: [String: StoreValue] { buffer.dictionary }

    /// The number of fields.
    /// - Complexity: O(1).
    public var count: Int { buffer.count }

    /// Calls `body` with every field, in the order they were written.
    /// - Complexity: O(*n*) for *n* fields.
    func forEach(_ body: (_ name: String, _ value: StoreValue) -> Void) {
        buffer.forEach(body)
    }

    /// Whether any value satisfies `predicate`.
    /// - Complexity: O(*n*) for *n* fields.
    func containsValue(where predicate: (StoreValue) -> Bool) -> Bool {
        buffer.containsValue(where: predicate)
    }

    /// The object with each value replaced by `transform`'s result, or the
    /// object itself when no value changed.
    /// - Complexity: O(*n*) for *n* fields.
    func mapValues(_ transform: (StoreValue) -> StoreValue) -> StoreObject {
        var changed = false
        var values: [StoreValue] = []
        values.reserveCapacity(count)
        buffer.forEach { _, value in
            let new = transform(value)
            if new != value { changed = true }
            values.append(new)
        }
        guard changed else { return self }
        return StoreObject(buffer: InlineFields.make(names: buffer.header.names, values: values))
    }

    private init(buffer: InlineFields) {
        self.buffer = buffer
    }

    /// The object with `newer`'s fields written over it: fields of both take
    /// `newer`'s value, merged in turn where both are objects, or lists of
    /// objects (element by element), as a second response's fields merge
    /// into a record.
    /// - Complexity: O(*n* + *m*) for the *n* values of this object and
    ///   the *m* values of `newer`, at every depth.
    func merging(_ newer: StoreObject) -> StoreObject {
        if newer.buffer.header.names == buffer.header.names {
            // The common case: the same selection wrote both, so the fields
            // pair up in order and the shared names stay shared.
            var values: [StoreValue] = []
            values.reserveCapacity(count)
            buffer.withValues { old in
                newer.buffer.withValues { new in
                    for index in new.indices { values.append(new[index].merged(over: old[index])) }
                }
            }
            return StoreObject(buffer: InlineFields.make(names: newer.buffer.header.names, values: values))
        }
        var merged: [(name: String, value: StoreValue)] = []
        merged.reserveCapacity(count + newer.count)
        buffer.forEach { name, value in
            merged.append((name, newer[name].map { $0.merged(over: value) } ?? value))
        }
        newer.buffer.forEach { name, value in
            if buffer[name] == nil { merged.append((name, value)) }
        }
        return StoreObject(adopting: merged)
    }
}

/// The fields of a ``StoreObject``: a header naming them (a list shared
/// with the other objects written by the same selection) and the values
/// inline after it, one allocation an object. Never changed once made, so
/// objects that share it are values still, and it may cross threads.
final class InlineFields: ManagedBuffer<InlineFields.Header, StoreValue> {
    /// The names of the values, in order, and for an object of more than
    /// ``StoreFields/smallLimit`` fields their positions, so that no lookup
    /// scans more than that many names.
    struct Header {
        let names: [String]
        let positions: [String: Int]?
    }

    /// Fields of the given names and values, in the same order.
    /// - Complexity: O(*n*) for *n* fields.
    static func make(names: [String], values: some Collection<StoreValue>) -> InlineFields {
        let positions =
            names.count > StoreFields.smallLimit
            ? Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last }) : nil
        let buffer = create(minimumCapacity: names.count) { _ in Header(names: names, positions: positions) }
        buffer.withUnsafeMutablePointerToElements { elements in
            var index = 0
            for value in values.prefix(names.count) {
                (elements + index).initialize(to: value)
                index += 1
            }
            // A caller gives as many values as names; should it give fewer,
            // the rest are `null` rather than uninitialized memory.
            while index < names.count {
                (elements + index).initialize(to: .scalar(.null))
                index += 1
            }
        }
        return unsafeDowncast(buffer, to: InlineFields.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { header, values in
            values.deinitialize(count: header.pointee.names.count)
        }
    }

    /// The number of fields.
    var count: Int { header.names.count }

    /// The value of a field.
    /// - Complexity: O(1) on average; O(``StoreFields/smallLimit``) at most.
    subscript(name: String) -> StoreValue? {
        let header = self.header
        let position = header.positions.map { $0[name] } ?? header.names.firstIndex(of: name)
        guard let position else { return nil }
        return withUnsafeMutablePointerToElements { $0[position] }
    }

    /// Calls `body` with the values, in order.
    func withValues<Result>(_ body: (UnsafeBufferPointer<StoreValue>) -> Result) -> Result {
        let count = header.names.count
        return withUnsafeMutablePointerToElements { body(UnsafeBufferPointer(start: $0, count: count)) }
    }

    /// Calls `body` with every field, in order.
    func forEach(_ body: (_ name: String, _ value: StoreValue) -> Void) {
        let names = header.names
        withValues { values in
            for index in values.indices { body(names[index], values[index]) }
        }
    }

    /// Whether any value satisfies `predicate`.
    func containsValue(where predicate: (StoreValue) -> Bool) -> Bool {
        withValues { $0.contains(where: predicate) }
    }

    /// The fields as a dictionary.
    var dictionary: [String: StoreValue] {
        var dictionary: [String: StoreValue] = Dictionary(minimumCapacity: count)
        forEach { name, value in dictionary[name] = value }
        return dictionary
    }
}

extension StoreObject: Hashable {
    /// Whether two objects have the same fields with the same values, in any order.
    /// - Complexity: O(*n*) on average for *n* fields.
    public static func == (lhs: StoreObject, rhs: StoreObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var equal = true
        lhs.forEach { name, value in
            if equal, rhs[name] != value { equal = false }
        }
        return equal
    }

    /// Hashes the fields, in any order.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        forEach { name, value in
            var field = Hasher()
            field.combine(name)
            field.combine(value)
            sum &+= field.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
