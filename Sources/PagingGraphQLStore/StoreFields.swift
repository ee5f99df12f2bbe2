/// The fields of a stored record (or of an object held in place), by
/// storage key.
///
/// Most records hold a handful of fields, and for those two short arrays
/// searched in order beat a dictionary: no hashing. The names are a list
/// that every record written by the same selection shares (the compiled
/// selection's own), so a record pays for its values alone: its *shape* is
/// shared. A record whose fields differ from its selection's (a second
/// document wrote other fields) gets a list of names of its own, copied on
/// its first change. A record that grows past ``smallLimit`` fields (a root
/// record with many pages, say) switches to a dictionary, so no lookup is
/// ever worse than O(``smallLimit``).
struct StoreFields: Sendable {
    static let smallLimit = 12

    /// The names of the small form, shared with records of the same shape.
    private var names: [String]
    /// The values of the small form, in the order of ``names``.
    private var values: [StoreValue]
    private var large: [String: StoreValue]?

    init(minimumCapacity: Int = 0) {
        names = []
        values = []
        if minimumCapacity > Self.smallLimit {
            large = Dictionary(minimumCapacity: minimumCapacity)
        } else {
            names.reserveCapacity(minimumCapacity)
            values.reserveCapacity(minimumCapacity)
        }
    }

    /// Fields given as a list of distinct names, adopted without a copy of
    /// the names when `sharedNames` lists them in the same order.
    /// - Parameters:
    ///   - fields: the fields.
    ///   - sharedNames: the names of `fields`, in order, as a list shared
    ///     with other records, if there is one.
    init(adopting fields: [(name: String, value: StoreValue)], sharedNames: [String]? = nil) {
        if fields.count > Self.smallLimit {
            names = []
            values = []
            large = Dictionary(fields, uniquingKeysWith: { _, last in last })
        } else {
            if let sharedNames, sharedNames.count == fields.count {
                names = sharedNames
            } else {
                names = fields.map(\.name)
            }
            values = fields.map(\.value)
        }
    }

    /// The number of fields.
    var count: Int { large?.count ?? values.count }

    /// Whether there is no field.
    var isEmpty: Bool { count == 0 }

    /// The value of a field.
    /// - Complexity: O(1) on average; O(``smallLimit``) at most.
    subscript(name: String) -> StoreValue? {
        if let large { return large[name] }
        guard let index = names.firstIndex(of: name) else { return nil }
        return values[index]
    }

    /// Sets a field; returns its old value.
    mutating func updateValue(_ value: StoreValue, forKey name: String) -> StoreValue? {
        if large != nil { return large?.updateValue(value, forKey: name) }
        if let index = names.firstIndex(of: name) {
            let old = values[index]
            values[index] = value
            return old
        }
        names.append(name)
        values.append(value)
        if values.count > Self.smallLimit {
            var dictionary: [String: StoreValue] = Dictionary(minimumCapacity: values.count * 2)
            for (name, value) in zip(names, values) { dictionary[name] = value }
            large = dictionary
            names = []
            values = []
        }
        return nil
    }

    /// Removes a field; returns its value.
    mutating func removeValue(forKey name: String) -> StoreValue? {
        if large != nil { return large?.removeValue(forKey: name) }
        guard let index = names.firstIndex(of: name) else { return nil }
        names.remove(at: index)
        return values.remove(at: index)
    }

    /// The fields' names.
    var allNames: [String] { large.map { Array($0.keys) } ?? names }

    /// The fields' values.
    var allValues: [StoreValue] { large.map { Array($0.values) } ?? values }

    /// The fields as a dictionary.
    var dictionary: [String: StoreValue] {
        if let large { return large }
        var dictionary: [String: StoreValue] = Dictionary(minimumCapacity: values.count)
        for (name, value) in zip(names, values) { dictionary[name] = value }
        return dictionary
    }

    /// Calls `body` with every field.
    func forEach(_ body: (_ name: String, _ value: StoreValue) -> Void) {
        if let large {
            for (name, value) in large { body(name, value) }
        } else {
            for index in values.indices { body(names[index], values[index]) }
        }
    }

    /// Whether any value satisfies `predicate`.
    func containsValue(where predicate: (StoreValue) -> Bool) -> Bool {
        if let large { return large.values.contains(where: predicate) }
        return values.contains(where: predicate)
    }
}
