/// The fields of a stored record, by storage key.
///
/// Most records hold a handful of fields, and for those a short array
/// searched in order beats a dictionary: no hashing, one allocation. A
/// record that grows past ``smallLimit`` fields (a root record with many
/// pages, say) switches to a dictionary, so no lookup is ever worse than
/// O(``smallLimit``).
struct StoreFields: Sendable {
    static let smallLimit = 12

    private var small: [(name: String, value: StoreValue)]
    private var large: [String: StoreValue]?

    init(minimumCapacity: Int = 0) {
        small = []
        if minimumCapacity > Self.smallLimit {
            large = Dictionary(minimumCapacity: minimumCapacity)
        } else {
            small.reserveCapacity(minimumCapacity)
        }
    }

    /// Fields given as a list of distinct names, adopted without a copy.
    init(adopting fields: [(name: String, value: StoreValue)]) {
        if fields.count > Self.smallLimit {
            small = []
            large = Dictionary(fields, uniquingKeysWith: { _, last in last })
        } else {
            small = fields
        }
    }

    /// The number of fields.
    var count: Int { large?.count ?? small.count }

    /// Whether there is no field.
    var isEmpty: Bool { count == 0 }

    /// The value of a field.
    /// - Complexity: O(1) on average; O(``smallLimit``) at most.
    subscript(name: String) -> StoreValue? {
        if let large { return large[name] }
        for field in small where field.name == name { return field.value }
        return nil
    }

    /// Sets a field; returns its old value.
    mutating func updateValue(_ value: StoreValue, forKey name: String) -> StoreValue? {
        if large != nil { return large?.updateValue(value, forKey: name) }
        for index in small.indices where small[index].name == name {
            let old = small[index].value
            small[index].value = value
            return old
        }
        small.append((name, value))
        if small.count > Self.smallLimit {
            var dictionary: [String: StoreValue] = Dictionary(minimumCapacity: small.count * 2)
            for field in small { dictionary[field.name] = field.value }
            large = dictionary
            small = []
        }
        return nil
    }

    /// Removes a field; returns its value.
    mutating func removeValue(forKey name: String) -> StoreValue? {
        if large != nil { return large?.removeValue(forKey: name) }
        guard let index = small.firstIndex(where: { $0.name == name }) else { return nil }
        return small.remove(at: index).value
    }

    /// The fields' names.
    var names: [String] { large.map { Array($0.keys) } ?? small.map(\.name) }

    /// The fields' values.
    var values: [StoreValue] { large.map { Array($0.values) } ?? small.map(\.value) }

    /// The fields as a dictionary.
    var dictionary: [String: StoreValue] {
        if let large { return large }
        var dictionary: [String: StoreValue] = Dictionary(minimumCapacity: small.count)
        for field in small { dictionary[field.name] = field.value }
        return dictionary
    }

    /// Calls `body` with every field.
    func forEach(_ body: (_ name: String, _ value: StoreValue) -> Void) {
        if let large {
            for (name, value) in large { body(name, value) }
        } else {
            for field in small { body(field.name, field.value) }
        }
    }
}
