/// A record as the store keeps it: its fields, and the fields of other
/// records that reference it (so that a delete finds the lists holding it
/// without a scan).
///
/// One allocation per record: a header of four words and the values
/// inline after it (a `ManagedBuffer`), their names a list shared with the
/// selection that wrote the record. A record made with room for the fields
/// its first write brought keeps them in place for good; a field another
/// document adds later goes to an overflow of its own, so the record never
/// moves and the table's pointer to it stays valid. A class, so that the
/// store's table holds one pointer per record: the table stays small in
/// memory, and growing it moves little. Only the store's state, under its
/// lock, holds these.
final class StoredRecord: ManagedBuffer<StoredRecord.Header, StoreValue> {
    /// A field that holds references, boxed: the records of one page are
    /// all held by the same field, and share one box.
    final class Holder {
        let key: StoreFieldKey

        init(_ key: StoreFieldKey) {
            self.key = key
        }
    }

    /// The fields of other records whose value references a record. Most
    /// records have one referrer (the list or field that brought them), so
    /// that case is one pointer, to a box the page's records share, without
    /// a set.
    enum Referrers {
        case none
        case one(Holder)
        case many(Set<StoreFieldKey>)

        mutating func insert(_ holder: StoreFieldKey) {
            insert(Holder(holder))
        }

        mutating func insert(_ holder: Holder) {
            switch self {
            case .none:
                self = .one(holder)
            case .one(let existing):
                if existing.key != holder.key { self = .many([existing.key, holder.key]) }
            case .many(var holders):
                self = .none  // keeps the set uniquely referenced, so it grows in place
                holders.insert(holder.key)
                self = .many(holders)
            }
        }

        mutating func remove(_ holder: StoreFieldKey) {
            switch self {
            case .none:
                break
            case .one(let existing):
                if existing.key == holder { self = .none }
            case .many(var holders):
                self = .none
                holders.remove(holder)
                // Back to one pointer when one referrer is left: a record referenced by two
                // fields for a while (a list and an event's payload) does not keep a set.
                if holders.count == 1, let only = holders.first {
                    self = .one(Holder(only))
                } else {
                    self = holders.isEmpty ? .none : .many(holders)
                }
            }
        }

        var all: [StoreFieldKey] {
            switch self {
            case .none: []
            case .one(let holder): [holder.key]
            case .many(let holders): Array(holders)
            }
        }

        var isEmpty: Bool {
            if case .none = self { true } else { false }
        }
    }

    /// What a record keeps beside its values: the names of the values it
    /// holds inline (shared with the selection that wrote it, until its
    /// fields differ), the fields that did not fit inline, what references
    /// it, and the collector's mark. Four words.
    struct Header {
        /// The names of the inline values, in order: `names.count == count`.
        var names: [String]
        /// The fields added after the record was made, past its inline
        /// slots.
        var overflow: Overflow?
        /// The fields that reference this record.
        var referrers: Referrers
        /// The number of inline values.
        var count: UInt8
        /// The number of inline slots.
        var slots: UInt8
        /// The epoch of the collection that last marked it live.
        var mark: UInt8
    }

    /// The fields of a record past its inline slots (a second document
    /// wrote more fields than the first).
    final class Overflow {
        var fields: StoreFields

        init(_ fields: StoreFields) {
            self.fields = fields
        }
    }

    /// A record holding `fields` inline, in their order, sharing
    /// `sharedNames` when it lists the same names.
    /// - Complexity: O(*f*) for *f* fields.
    static func make(adopting fields: [(name: String, value: StoreValue)], sharedNames: [String]? = nil)
        -> StoredRecord
    {
        guard fields.count <= StoreFields.smallLimit else {
            let record = make(capacity: 0)
            record.header.overflow = Overflow(StoreFields(adopting: fields))
            return record
        }
        let names = sharedNames.flatMap { $0.count == fields.count ? $0 : nil } ?? fields.map(\.name)
        let record = make(capacity: fields.count, names: names)
        record.withUnsafeMutablePointerToElements { values in
            for (index, field) in fields.enumerated() { (values + index).initialize(to: field.value) }
        }
        record.header.count = UInt8(fields.count)
        return record
    }

    /// An empty record with room for `capacity` values inline.
    static func make(capacity: Int, names: [String] = []) -> StoredRecord {
        let slots = min(capacity, StoreFields.smallLimit)
        let buffer = create(minimumCapacity: slots) { _ in
            Header(names: names, overflow: nil, referrers: .none, count: 0, slots: UInt8(slots), mark: 0)
        }
        return unsafeDowncast(buffer, to: StoredRecord.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { header, values in
            values.deinitialize(count: Int(header.pointee.count))
        }
    }

    /// The fields that reference this record.
    var referrers: Referrers {
        get { header.referrers }
        _modify { yield &header.referrers }
    }

    /// The epoch of the collection that last marked it live.
    var mark: UInt8 {
        get { header.mark }
        set { header.mark = newValue }
    }

    /// The number of fields.
    var count: Int { Int(header.count) + (header.overflow?.fields.count ?? 0) }

    /// The value of a field.
    /// - Complexity: O(``StoreFields/smallLimit``) at most.
    subscript(name: String) -> StoreValue? {
        if let index = header.names.firstIndex(of: name) {
            return withUnsafeMutablePointerToElements { $0[index] }
        }
        return header.overflow?.fields[name]
    }

    /// Sets a field; returns its old value.
    /// - Complexity: O(``StoreFields/smallLimit``) at most, plus a copy of
    ///   the shared names on the first new field.
    @discardableResult
    func updateValue(_ value: StoreValue, forKey name: String) -> StoreValue? {
        if let index = header.names.firstIndex(of: name) {
            return withUnsafeMutablePointerToElements { values in
                let old = values[index]
                values[index] = value
                return old
            }
        }
        if let overflow = header.overflow {
            return overflow.fields.updateValue(value, forKey: name)
        }
        if header.count < header.slots {
            let index = Int(header.count)
            withUnsafeMutablePointerToElements { (($0 + index)).initialize(to: value) }
            header.names.append(name)
            header.count += 1
            return nil
        }
        var fields = StoreFields()
        _ = fields.updateValue(value, forKey: name)
        header.overflow = Overflow(fields)
        return nil
    }

    /// Removes a field; returns its value.
    /// - Complexity: O(``StoreFields/smallLimit``) at most.
    @discardableResult
    func removeValue(forKey name: String) -> StoreValue? {
        if let index = header.names.firstIndex(of: name) {
            let count = Int(header.count)
            let old = withUnsafeMutablePointerToElements { values in
                let old = (values + index).move()
                (values + index).moveInitialize(from: values + index + 1, count: count - index - 1)
                return old
            }
            header.names.remove(at: index)
            header.count -= 1
            return old
        }
        guard let overflow = header.overflow else { return nil }
        let old = overflow.fields.removeValue(forKey: name)
        if overflow.fields.isEmpty { header.overflow = nil }
        return old
    }

    /// The fields' names.
    var allNames: [String] {
        guard let overflow = header.overflow else { return header.names }
        return header.names + overflow.fields.allNames
    }

    /// The fields as a dictionary.
    var dictionary: [String: StoreValue] {
        var dictionary: [String: StoreValue] = header.overflow?.fields.dictionary ?? [:]
        forEachInline { name, value in dictionary[name] = value }
        return dictionary
    }

    /// Calls `body` with every field.
    func forEach(_ body: (_ name: String, _ value: StoreValue) -> Void) {
        forEachInline(body)
        header.overflow?.fields.forEach(body)
    }

    /// Whether any value satisfies `predicate`.
    func containsValue(where predicate: (StoreValue) -> Bool) -> Bool {
        let count = Int(header.count)
        let inline = withUnsafeMutablePointerToElements { values in
            UnsafeBufferPointer(start: values, count: count).contains(where: predicate)
        }
        return inline || header.overflow?.fields.containsValue(where: predicate) == true
    }

    private func forEachInline(_ body: (_ name: String, _ value: StoreValue) -> Void) {
        let names = header.names
        withUnsafeMutablePointerToElements { values in
            for index in names.indices { body(names[index], values[index]) }
        }
    }
}

/// Reads a field by name: a record's, or an object's held in place.
protocol StoreFieldReading {
    /// The value of a field.
    subscript(name: String) -> StoreValue? { get }
}

extension StoredRecord: StoreFieldReading {}
extension StoreFields: StoreFieldReading {}
extension StoreObject: StoreFieldReading {}
