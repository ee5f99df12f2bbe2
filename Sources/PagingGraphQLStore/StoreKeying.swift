/// The identity rules of a ``GraphQLStore/Configuration``, prepared for
/// fast lookups: key fields expanded to every concrete type.
package struct StoreKeying: Sendable {
    private let keyFields: [String: [String]]
    private let cacheKey: (@Sendable (_ typename: String?, _ object: [String: JSONValue]) -> String?)?
    let possibleTypes: [String: Set<String>]
    /// Whether only the default rule (`__typename` and `id`) applies.
    let usesIDOnly: Bool

    init(_ configuration: GraphQLStore.Configuration) {
        let possibleTypes = configuration.allPossibleTypes
        var keyFields: [String: [String]] = [:]
        for (type, fields) in configuration.keyFields.sorted(by: { $0.key < $1.key }) {
            for concrete in possibleTypes[type] ?? [] where configuration.keyFields[concrete] == nil {
                keyFields[concrete] = keyFields[concrete] ?? fields
            }
        }
        for (type, fields) in configuration.keyFields { keyFields[type] = fields }
        self.keyFields = keyFields
        self.cacheKey = configuration.cacheKey
        self.possibleTypes = possibleTypes
        self.usesIDOnly = keyFields.isEmpty && configuration.cacheKey == nil
    }

    /// The key of an object with an identity, or `nil`.
    /// - Complexity: O(*k*) for *k* key fields, plus the `cacheKey` closure.
    package func key(for object: [String: JSONValue]) -> CacheKey? {
        let typename = object["__typename"]?.stringValue
        if !keyFields.isEmpty, let typename, let fields = keyFields[typename] {
            var text = typename + ":"
            for (index, field) in fields.enumerated() {
                guard let value = object[field], !value.isNull else { return nil }
                if index > 0 { text += "/" }
                Self.append(value, to: &text)
            }
            return CacheKey(text)
        }
        if let cacheKey {
            return cacheKey(typename, object).map { CacheKey($0) }
        }
        guard let id = object["id"], !id.isNull else { return nil }
        var text = typename.map { $0 + ":" } ?? ""
        Self.append(id, to: &text)
        return CacheKey(text)
    }

    private static func append(_ value: JSONValue, to text: inout String) {
        switch value {
        case .string(let string): text += string
        case .int(let int): text += String(int)
        default: value.appendCanonicalText(to: &text)
        }
    }

    /// Whether a fragment with a type condition applies to an object of a
    /// type: always when the type is unknown.
    func applies(_ condition: String?, to typename: String?) -> Bool {
        guard let condition, let typename, condition != typename else { return true }
        return possibleTypes[condition]?.contains(typename) ?? false
    }
}
