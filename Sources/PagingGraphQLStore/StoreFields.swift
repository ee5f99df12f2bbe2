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

    /// Two words: a record holds one.
    private enum Storage: Sendable {
        /// The names, shared with records of the same shape, and the values
        /// in their order.
        case small(names: [String], values: [StoreValue])
        case large([String: StoreValue])
    }

    private var storage: Storage

    /// No fields.
    init() {
        storage = .small(names: [], values: [])
    }

    /// Fields given as a list of distinct names, adopted without a copy of
    /// the names when `sharedNames` lists them in the same order.
    /// - Parameters:
    ///   - fields: the fields.
    ///   - sharedNames: the names of `fields`, in order, as a list shared
    ///     with other records, if there is one.
    init(adopting fields: [(name: String, value: StoreValue)], sharedNames: [String]? = nil) {
        if fields.count > Self.smallLimit {
            storage = .large(Dictionary(fields, uniquingKeysWith: { _, last in last }))
        } else if let sharedNames, sharedNames.count == fields.count {
            storage = .small(names: sharedNames, values: fields.map(\.value))
        } else {
            storage = .small(names: fields.map(\.name), values: fields.map(\.value))
        }
    }

    /// The number of fields.
    var count: Int {
        switch storage {
        case .small(_, let values): values.count
        case .large(let large): large.count
        }
    }

    /// Whether there is no field.
    var isEmpty: Bool { count == 0 }

    /// The value of a field.
    /// - Complexity: O(1) on average; O(``smallLimit``) at most.
    subscript(name: String) -> StoreValue? {
        switch storage {
        case .small(let names, let values):
            guard let index = names.firstIndex(of: name) else { return nil }
            return values[index]
        case .large(let large):
            return large[name]
        }
    }

    /// Sets a field; returns its old value.
    mutating func updateValue(_ value: StoreValue, forKey name: String) -> StoreValue? {
        switch storage {
        case .large(var large):
            storage = .small(names: [], values: [])  // keeps the dictionary uniquely referenced
            let old = large.updateValue(value, forKey: name)
            storage = .large(large)
            return old
        case .small(var names, var values):
            storage = .small(names: [], values: [])  // keeps the arrays uniquely referenced
            defer {
                if values.count > Self.smallLimit {
                    var dictionary: [String: StoreValue] = Dictionary(minimumCapacity: values.count * 2)
                    for (name, value) in zip(names, values) { dictionary[name] = value }
                    storage = .large(dictionary)
                } else {
                    storage = .small(names: names, values: values)
                }
            }
            if let index = names.firstIndex(of: name) {
                let old = values[index]
                values[index] = value
                return old
            }
            names.append(name)
            values.append(value)
            return nil
        }
    }

    /// Removes a field; returns its value.
    mutating func removeValue(forKey name: String) -> StoreValue? {
        switch storage {
        case .large(var large):
            storage = .small(names: [], values: [])
            defer { storage = .large(large) }
            return large.removeValue(forKey: name)
        case .small(var names, var values):
            guard let index = names.firstIndex(of: name) else { return nil }
            storage = .small(names: [], values: [])
            names.remove(at: index)
            let old = values.remove(at: index)
            storage = .small(names: names, values: values)
            return old
        }
    }

    /// The fields' names.
    var allNames: [String] {
        switch storage {
        case .small(let names, _): names
        case .large(let large): Array(large.keys)
        }
    }

    /// The fields as a dictionary.
    var dictionary: [String: StoreValue] {
        switch storage {
        case .large(let large): return large
        case .small(let names, let values):
            var dictionary: [String: StoreValue] = Dictionary(minimumCapacity: values.count)
            for (name, value) in zip(names, values) { dictionary[name] = value }
            return dictionary
        }
    }

    /// Calls `body` with every field.
    func forEach(_ body: (_ name: String, _ value: StoreValue) -> Void) {
        switch storage {
        case .large(let large):
            for (name, value) in large { body(name, value) }
        case .small(let names, let values):
            for index in values.indices { body(names[index], values[index]) }
        }
    }

    /// Whether any value satisfies `predicate`.
    func containsValue(where predicate: (StoreValue) -> Bool) -> Bool {
        switch storage {
        case .large(let large): large.values.contains(where: predicate)
        case .small(_, let values): values.contains(where: predicate)
        }
    }
}
