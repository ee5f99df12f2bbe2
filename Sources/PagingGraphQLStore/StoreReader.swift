/// Reads records back into response data for a selection, noting every
/// field it looks at; stops at the first missing field.
struct StoreReader {
    let records: StoreRecordTable
    let keying: StoreKeying
    let variables: [String: JSONValue]
    /// Where the object of a record sits in the data read, and the
    /// selection it was read with.
    struct Site {
        var path: [GraphQLPathSegment]
        var sets: [CompiledSelectionSet]
    }

    /// The fields looked at, by record; a name may repeat.
    private(set) var dependencies: [CacheKey: [String]] = [:]
    /// The sites of the records read, when asked for (a watch's read).
    private(set) var sites: [CacheKey: [Site]]?
    private var path: [GraphQLPathSegment] = []

    init(records: StoreRecordTable, keying: StoreKeying, variables: [String: JSONValue]) {
        self.records = records
        self.keying = keying
        self.variables = variables
    }

    /// Reads a query: the data, or the first miss, and the dependencies.
    static func read(
        _ query: StoreQuery, records: StoreRecordTable, keying: StoreKeying
    ) -> StoreReadResult {
        read(query, records: records, keying: keying, notingSites: false).result
    }

    /// Reads a query, and where each record's object sits in the data when
    /// `notingSites`.
    static func read(
        _ query: StoreQuery, records: StoreRecordTable, keying: StoreKeying, notingSites: Bool
    ) -> (result: StoreReadResult, sites: [CacheKey: [Site]]?) {
        var reader = StoreReader(records: records, keying: keying, variables: query.variables)
        if notingSites { reader.sites = [:] }
        do {
            let data = try reader.readObject(query.rootKey, sets: query.sets)
            return (
                StoreReadResult(data: data, miss: nil, dependencyLists: reader.dependencies), reader.sites
            )
        } catch {
            return (StoreReadResult(data: nil, miss: error, dependencyLists: reader.dependencies), nil)
        }
    }

    /// Reads again the records changed since a watch's last read, at the
    /// places its data shows them, and puts what they read now there.
    /// - Parameters:
    ///   - changed: the records whose values changed, none added or
    ///     removed, no reference changed.
    ///   - last: the last read's data, and its sites.
    ///   - variables: the query's variables.
    /// - Returns: the data, and the fields these reads looked at (a changed
    ///   `__typename` may apply other fragments); `nil` when a record has no
    ///   known site or a read misses: the caller reads the whole selection.
    /// - Complexity: O(*r*) for the *r* values the changed records' objects
    ///   hold, plus the containers on the paths to them; not the selection.
    static func reread(
        _ changed: Set<CacheKey>, in last: (data: JSONValue, sites: [CacheKey: [Site]]),
        records: StoreRecordTable, keying: StoreKeying, variables: [String: JSONValue]
    ) -> (data: JSONValue, dependencies: [CacheKey: [String]])? {
        var data = last.data
        var reader = StoreReader(records: records, keying: keying, variables: variables)
        for key in changed {
            guard let sites = last.sites[key], !sites.isEmpty else { return nil }
            for site in sites {
                reader.path = site.path
                guard let object = try? reader.readObject(key, sets: site.sets),
                    data.replace(at: site.path[...], with: object)
                else { return nil }
            }
        }
        return (data, reader.dependencies)
    }

    mutating func readObject(_ key: CacheKey, sets: [CompiledSelectionSet]) throws(StoreMiss) -> JSONValue {
        guard let record = records[key] else {
            // Any field of the selection may come with the record: depend on
            // each, so that the record's arrival wakes a watch.
            var fields: [String] = []
            Self.fieldKeys(of: sets, variables: variables, into: &fields)
            dependencies[key, default: []].append(contentsOf: fields.isEmpty ? ["__typename"] : fields)
            throw StoreMiss(path: path, record: key, field: fields.first ?? "", recordIsMissing: true)
        }
        sites?[key, default: []].append(Site(path: path, sets: sets))
        return try readObject(record, at: key, sets: sets, noting: true)
    }

    /// Reads a selection from an object's fields: a record's, noting what
    /// it looks at, or those of an object held in a field of the record
    /// `key`, which depends on that field alone (already noted).
    private mutating func readObject(
        _ record: some StoreFieldReading, at key: CacheKey, sets: [CompiledSelectionSet], noting: Bool
    ) throws(StoreMiss) -> JSONValue {
        if sets.count == 1, let simple = sets[0].simpleFields {
            if noting, let storageKeys = sets[0].fixedStorageKeys {
                // The common case: depend on every field at once, sharing the
                // compiled list (a miss then depends on fields after it too).
                if dependencies[key] == nil {
                    dependencies[key] = storageKeys
                } else {
                    dependencies[key]?.append(contentsOf: storageKeys)
                }
            }
            var object: [String: JSONValue] = [:]
            object.reserveCapacity(simple.count)
            for field in simple {
                object[field.responseKey] = try read(
                    field, childSets: field.childSets, in: record, at: key,
                    noting: noting && sets[0].fixedStorageKeys == nil)
            }
            return .object(object)
        }
        let typename = record["__typename"]?.scalarString
        var collector = StoreFieldCollector(keying: keying, variables: variables, typename: typename)
        collector.collect(sets)
        if noting, collector.usedTypename { dependencies[key, default: []].append("__typename") }
        var object: [String: JSONValue] = [:]
        object.reserveCapacity(collector.groups.count)
        for group in collector.groups {
            object[group.field.responseKey] = try read(
                group.field, childSets: group.childSets, in: record, at: key, noting: noting)
        }
        return .object(object)
    }

    /// Reads one field; `noting` adds it to the dependencies (unless the
    /// caller added the whole set's).
    private mutating func read(
        _ field: CompiledField, childSets: [CompiledSelectionSet], in record: some StoreFieldReading,
        at key: CacheKey, noting: Bool
    ) throws(StoreMiss) -> JSONValue {
        let storageKey = field.storageKey(variables)
        if noting { dependencies[key, default: []].append(storageKey) }
        path.append(.key(field.responseKey))
        defer { path.removeLast() }
        guard let value = record[storageKey] else {
            throw StoreMiss(path: path, record: key, field: storageKey)
        }
        return try denormalize(value, childSets: childSets, record: key, field: storageKey)
    }

    private mutating func denormalize(
        _ value: StoreValue, childSets: [CompiledSelectionSet], record: CacheKey, field: String
    ) throws(StoreMiss) -> JSONValue {
        switch value {
        case .scalar(let scalar):
            // A leaf, or null; an object field holding a scalar was written
            // by another document and cannot answer this one.
            guard childSets.isEmpty || scalar.isNull else {
                throw StoreMiss(path: path, record: record, field: field)
            }
            return scalar
        case .reference(let key):
            guard !childSets.isEmpty else { throw StoreMiss(path: path, record: record, field: field) }
            return try readObject(key, sets: childSets)
        case .object(let object):
            guard !childSets.isEmpty else { throw StoreMiss(path: path, record: record, field: field) }
            return try readObject(object, at: record, sets: childSets, noting: false)
        case .list(let elements):
            var values: [JSONValue] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                defer { path.removeLast() }
                values.append(try denormalize(element, childSets: childSets, record: record, field: field))
            }
            return .array(values)
        }
    }

    /// The storage keys of the fields a selection names at its record,
    /// through fragments and ignoring conditions, in order.
    private static func fieldKeys(
        of sets: [CompiledSelectionSet], variables: [String: JSONValue], into keys: inout [String]
    ) {
        for set in sets {
            for selection in set.selections {
                switch selection {
                case .field(let field): keys.append(field.storageKey(variables))
                case .fragment(_, _, let child): fieldKeys(of: [child], variables: variables, into: &keys)
                }
            }
        }
    }
}

extension StoreValue {
    /// The string of a scalar string value.
    var scalarString: String? {
        if case .scalar(.string(let string)) = self { string } else { nil }
    }
}

extension JSONValue {
    /// Puts a value at a path inside this value.
    /// - Returns: whether the path led somewhere: every key an object's,
    ///   every index inside its list.
    /// - Complexity: O(*c*) for the containers along the path, copied when
    ///   shared.
    mutating func replace(at path: ArraySlice<GraphQLPathSegment>, with value: JSONValue) -> Bool {
        guard let first = path.first else {
            self = value
            return true
        }
        switch (self, first) {
        case (.object(var object), .key(let key)):
            guard var child = object[key] else { return false }
            self = .null  // keeps the object uniquely referenced
            object[key] = nil
            let replaced = child.replace(at: path.dropFirst(), with: value)
            object[key] = child
            self = .object(object)
            return replaced
        case (.array(var array), .index(let index)):
            guard array.indices.contains(index) else { return false }
            self = .null
            let replaced = array[index].replace(at: path.dropFirst(), with: value)
            self = .array(array)
            return replaced
        default:
            return false
        }
    }
}
