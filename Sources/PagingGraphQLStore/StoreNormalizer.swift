/// Turns response data into records: each object with an identity becomes
/// its own record, held by its parent as a reference; an object without
/// one stays in its parent's field (``StoreValue/object(_:)``). Fields are
/// stored by storage key.
///
/// It works on data alone, without the store's records, so a write runs it
/// before taking the store's lock.
struct StoreNormalizer {
    /// The fields written to one record, in order.
    struct Entry {
        var key: CacheKey
        var fields: [(name: String, value: StoreValue)]
        /// The fields' names, when the compiled selection knows them (a
        /// simple set without variables): shared, not built per record.
        var names: [String]?
    }

    /// A field with mutation directives, met while normalizing, and the
    /// value stored for it.
    struct DirectiveSite {
        var directives: [StoreMutationDirective]
        var value: StoreValue
        /// Where the field sits in the data.
        var path: [GraphQLPathSegment]
    }

    let keying: StoreKeying
    let variables: [String: JSONValue]
    /// The records written, each object once, children before parents.
    private(set) var entries: [Entry] = []
    /// The fields with mutation directives, in the order of the data.
    private(set) var directiveSites: [DirectiveSite] = []
    private var path: [GraphQLPathSegment] = []

    init(keying: StoreKeying, variables: [String: JSONValue]) {
        self.keying = keying
        self.variables = variables
    }

    /// Normalizes an object selected by `sets` into the record `key`.
    /// - Throws: ``GraphQLStoreError/Code/data`` when the data lacks a field
    ///   the selection needs, or holds a scalar where it selects subfields.
    mutating func write(
        _ object: [String: JSONValue], sets: [CompiledSelectionSet], at key: CacheKey
    ) throws(GraphQLStoreError) {
        let (fields, names) = try fields(of: object, sets: sets)
        entries.append(Entry(key: key, fields: fields, names: names))
    }

    /// The fields of an object selected by `sets`, normalized; their names
    /// too when the compiled selection knows them.
    private mutating func fields(of object: [String: JSONValue], sets: [CompiledSelectionSet])
        throws(GraphQLStoreError) -> (fields: [(name: String, value: StoreValue)], names: [String]?)
    {
        var fields: [(name: String, value: StoreValue)] = []
        var names: [String]?
        if sets.count == 1, let simple = sets[0].simpleFields {
            names = sets[0].fixedStorageKeys
            fields.reserveCapacity(simple.count)
            for field in simple {
                try write(
                    field, childSets: field.childSets, directives: field.directives, definite: true,
                    of: object, into: &fields)
            }
        } else {
            var collector = StoreFieldCollector(
                keying: keying, variables: variables, typename: object["__typename"]?.stringValue)
            collector.collect(sets)
            fields.reserveCapacity(collector.groups.count)
            for group in collector.groups {
                try write(
                    group.field, childSets: group.childSets, directives: group.directives,
                    definite: group.definite, of: object, into: &fields)
            }
        }
        return (fields, names)
    }

    private mutating func write(
        _ field: CompiledField, childSets: [CompiledSelectionSet], directives: [StoreMutationDirective],
        definite: Bool,
        of object: [String: JSONValue],
        into fields: inout [(name: String, value: StoreValue)]
    ) throws(GraphQLStoreError) {
        path.append(.key(field.responseKey))
        defer { path.removeLast() }
        guard let value = object[field.responseKey] else {
            guard definite else { return }
            throw GraphQLStoreError(
                .data,
                "The data lacks the field \"\(field.responseKey)\" that the document selects, at \(GraphQLPathSegment.describe(path)); write the data the server returned for this document.",
                path: path)
        }
        let storageKey = field.storageKey(variables)
        // A site is recorded before the children, so that the sites stay in
        // the order of the data; its value is filled in below.
        var site: Int?
        if !directives.isEmpty {
            site = directiveSites.count
            directiveSites.append(
                DirectiveSite(directives: directives, value: .scalar(.null), path: path))
        }
        if childSets.isEmpty {
            fields.append((storageKey, .scalar(value)))
            if let site { directiveSites[site].value = .scalar(value) }
        } else {
            let stored = try normalize(value, childSets: childSets)
            fields.append((storageKey, stored))
            if let site { directiveSites[site].value = stored }
        }
    }

    /// Normalizes the value of an object field.
    private mutating func normalize(_ value: JSONValue, childSets: [CompiledSelectionSet])
        throws(GraphQLStoreError) -> StoreValue
    {
        switch value {
        case .null:
            return .scalar(.null)
        case .object(let object):
            // Without key fields or a closure, an object can have an identity
            // only if the selection asks for `id`.
            let identity =
                keying.usesIDOnly && !childSets.contains(where: \.mayHaveID) ? nil : keying.key(for: object)
            guard let key = identity else {
                let (fields, names) = try fields(of: object, sets: childSets)
                return .object(StoreObject(adopting: fields, sharedNames: names))
            }
            try write(object, sets: childSets, at: key)
            return .reference(key)
        case .array(let elements):
            var stored: [StoreValue] = []
            stored.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                defer { path.removeLast() }
                stored.append(try normalize(element, childSets: childSets))
            }
            return .list(stored)
        default:
            throw GraphQLStoreError(
                .data,
                "The data does not match the document at \(GraphQLPathSegment.describe(path)): the field selects subfields, so its value must be an object, a list or null, not \(value.canonicalText).",
                path: path)
        }
    }
}
