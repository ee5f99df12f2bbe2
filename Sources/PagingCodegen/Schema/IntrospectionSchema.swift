public import Foundation

/// A schema as an introspection query answers it (``IntrospectionQuery``):
/// what `paging schema` downloads, and what the generator reads when it is
/// given JSON instead of SDL.
///
/// It decodes either the whole response (`{"data": {"__schema": ...}}`),
/// its data (`{"__schema": ...}`), or the `__schema` object alone, the three
/// shapes tools save.
///
/// ```swift
/// let schema = try IntrospectionSchema(json: data)
/// print(schema.sdl)  // the schema as SDL, types in order of name
/// ```
public struct IntrospectionSchema: Sendable, Hashable {
    /// The schema's description.
    public var description: String?
    /// The name of the query type.
    public var queryType: String
    /// The name of the mutation type, if any.
    public var mutationType: String?
    /// The name of the subscription type, if any.
    public var subscriptionType: String?
    /// The types, introspection's and the built-in scalars included.
    public var types: [NamedType]
    /// The directives, the built-in ones included.
    public var directives: [Directive]

    /// A named type.
    public struct NamedType: Sendable, Hashable {
        /// `SCALAR`, `OBJECT`, `INTERFACE`, `UNION`, `ENUM` or `INPUT_OBJECT`.
        public var kind: Kind
        /// The type's name.
        public var name: String
        /// Its description.
        public var description: String?
        /// A scalar's specification URL.
        public var specifiedByURL: String?
        /// An object's or interface's fields, in the server's order.
        public var fields: [Field]
        /// An input object's fields, in the server's order.
        public var inputFields: [InputValue]
        /// The interfaces an object or interface implements.
        public var interfaces: [String]
        /// An enum's values, in the server's order.
        public var enumValues: [EnumValue]
        /// A union's members (or an interface's implementations), in the server's order.
        public var possibleTypes: [String]

        /// Creates a named type; give the members its kind has.
        /// - Parameters:
        ///   - kind: its kind.
        ///   - name: its name.
        ///   - description: its description.
        ///   - specifiedByURL: a scalar's specification URL.
        ///   - fields: an object's or interface's fields.
        ///   - inputFields: an input object's fields.
        ///   - interfaces: the interfaces an object or interface implements.
        ///   - enumValues: an enum's values.
        ///   - possibleTypes: a union's members.
        public init(
            kind: Kind, name: String, description: String? = nil, specifiedByURL: String? = nil,
            fields: [Field] = [], inputFields: [InputValue] = [], interfaces: [String] = [],
            enumValues: [EnumValue] = [], possibleTypes: [String] = []
        ) {
            self.kind = kind
            self.name = name
            self.description = description
            self.specifiedByURL = specifiedByURL
            self.fields = fields
            self.inputFields = inputFields
            self.interfaces = interfaces
            self.enumValues = enumValues
            self.possibleTypes = possibleTypes
        }
    }

    /// The kind of a named type.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A scalar.
        case scalar = "SCALAR"
        /// An object type.
        case object = "OBJECT"
        /// An interface.
        case interface = "INTERFACE"
        /// A union.
        case union = "UNION"
        /// An enum.
        case `enum` = "ENUM"
        /// An input object.
        case inputObject = "INPUT_OBJECT"
    }

    /// A field of an object or interface.
    public struct Field: Sendable, Hashable {
        /// Its name.
        public var name: String
        /// Its description.
        public var description: String?
        /// Its arguments, in the server's order.
        public var arguments: [InputValue]
        /// Its type.
        public var type: TypeReference
        /// Why it is deprecated, when it is (`""` when no reason was given).
        public var deprecationReason: String?

        /// Creates a field.
        /// - Parameters:
        ///   - name: its name.
        ///   - description: its description.
        ///   - arguments: its arguments.
        ///   - type: its type.
        ///   - deprecationReason: why it is deprecated, `nil` when it is not.
        public init(
            name: String, description: String? = nil, arguments: [InputValue] = [], type: TypeReference,
            deprecationReason: String? = nil
        ) {
            self.name = name
            self.description = description
            self.arguments = arguments
            self.type = type
            self.deprecationReason = deprecationReason
        }
    }

    /// An argument, or a field of an input object.
    public struct InputValue: Sendable, Hashable {
        /// Its name.
        public var name: String
        /// Its description.
        public var description: String?
        /// Its type.
        public var type: TypeReference
        /// Its default value as a GraphQL literal (`10`, `"x"`, `[A, B]`), if any.
        public var defaultValue: String?

        /// Creates an argument or input field.
        /// - Parameters:
        ///   - name: its name.
        ///   - description: its description.
        ///   - type: its type.
        ///   - defaultValue: its default as a GraphQL literal.
        public init(
            name: String, description: String? = nil, type: TypeReference, defaultValue: String? = nil
        ) {
            self.name = name
            self.description = description
            self.type = type
            self.defaultValue = defaultValue
        }
    }

    /// A value of an enum.
    public struct EnumValue: Sendable, Hashable {
        /// Its name.
        public var name: String
        /// Its description.
        public var description: String?
        /// Why it is deprecated, when it is (`""` when no reason was given).
        public var deprecationReason: String?

        /// Creates an enum value.
        /// - Parameters:
        ///   - name: its name.
        ///   - description: its description.
        ///   - deprecationReason: why it is deprecated, `nil` when it is not.
        public init(name: String, description: String? = nil, deprecationReason: String? = nil) {
            self.name = name
            self.description = description
            self.deprecationReason = deprecationReason
        }
    }

    /// A directive.
    public struct Directive: Sendable, Hashable {
        /// Its name, without `@`.
        public var name: String
        /// Its description.
        public var description: String?
        /// Where it may appear (`FIELD`, `FRAGMENT_SPREAD`, ...).
        public var locations: [String]
        /// Whether it may appear more than once at a place.
        public var isRepeatable: Bool
        /// Its arguments, in the server's order.
        public var arguments: [InputValue]
    }

    /// The type of a field or input value: a named type, wrapped in lists
    /// and non-nulls.
    public indirect enum TypeReference: Sendable, Hashable, CustomStringConvertible {
        /// A named type.
        case named(String)
        /// A list of the wrapped type.
        case list(TypeReference)
        /// The wrapped type, never null.
        case nonNull(TypeReference)

        /// The type as GraphQL writes it: `[Launch!]!`.
        public var description: String {
            switch self {
            case .named(let name): name
            case .list(let element): "[\(element)]"
            case .nonNull(let wrapped): "\(wrapped)!"
            }
        }

        /// The named type inside the wrappers.
        public var namedType: String {
            switch self {
            case .named(let name): name
            case .list(let wrapped), .nonNull(let wrapped): wrapped.namedType
            }
        }
    }

    /// Reads an introspection result.
    /// - Parameter json: the response, its `data`, or its `__schema` object, as JSON.
    /// - Throws: ``IntrospectionSchema/ReadError`` naming what is missing or wrong, and where.
    /// - Complexity: O(*n*) for *n* bytes.
    public init(json: Data) throws(ReadError) {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: json)
        } catch {
            throw ReadError("it is not JSON (\(error.localizedDescription))")
        }
        var object = try Reader.object(root, at: "the document")
        if object["__schema"] == nil, let data = object["data"] {
            if let errors = object["errors"] as? [Any], data is NSNull {
                throw ReadError("it is an error response: \(Reader.messages(errors))")
            }
            object = try Reader.object(data, at: "data")
        }
        let schema =
            try object["__schema"].map { value throws(ReadError) in
                try Reader.object(value, at: "__schema")
            } ?? object
        try self.init(reading: Reader(schema, at: "__schema"))
    }

    private init(reading schema: Reader) throws(ReadError) {
        description = try schema.optionalString("description")
        queryType = try schema.child("queryType").string("name")
        mutationType = try schema.optionalChild("mutationType")?.string("name")
        subscriptionType = try schema.optionalChild("subscriptionType")?.string("name")
        types = try schema.children("types").map { type throws(ReadError) in try NamedType(reading: type) }
        directives = try schema.optionalChildren("directives").map { directive throws(ReadError) in
            Directive(
                name: try directive.string("name"),
                description: try directive.optionalString("description"),
                locations: try directive.strings("locations"),
                isRepeatable: try directive.optionalBool("isRepeatable") ?? false,
                arguments: try directive.optionalChildren("args").map {
                    value throws(IntrospectionSchema.ReadError) in try InputValue(reading: value)
                })
        }
    }

    /// An introspection result that cannot be read: what is wrong, and where.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, such as `__schema.types[3].name is missing`.
        public let message: String

        init(_ message: String) {
            self.message = message
        }

        /// The message.
        public var description: String { message }
    }
}

extension IntrospectionSchema.NamedType {
    fileprivate init(reading type: Reader) throws(IntrospectionSchema.ReadError) {
        let kindName = try type.string("kind")
        guard let kind = IntrospectionSchema.Kind(rawValue: kindName) else {
            throw .init("\(type.path).kind is \(kindName), not the kind of a named type")
        }
        self.kind = kind
        name = try type.string("name")
        description = try type.optionalString("description")
        specifiedByURL = try type.optionalString("specifiedByURL")
        fields = try type.optionalChildren("fields").map { field throws(IntrospectionSchema.ReadError) in
            IntrospectionSchema.Field(
                name: try field.string("name"),
                description: try field.optionalString("description"),
                arguments: try field.optionalChildren("args").map {
                    value throws(IntrospectionSchema.ReadError) in
                    try IntrospectionSchema.InputValue(reading: value)
                },
                type: try IntrospectionSchema.TypeReference(reading: field.child("type")),
                deprecationReason: try field.deprecation())
        }
        inputFields = try type.optionalChildren("inputFields").map {
            value throws(IntrospectionSchema.ReadError) in
            try IntrospectionSchema.InputValue(reading: value)
        }
        interfaces = try type.optionalChildren("interfaces").map {
            reference throws(IntrospectionSchema.ReadError) in try reference.string("name")
        }
        enumValues = try type.optionalChildren("enumValues").map {
            value throws(IntrospectionSchema.ReadError) in
            IntrospectionSchema.EnumValue(
                name: try value.string("name"), description: try value.optionalString("description"),
                deprecationReason: try value.deprecation())
        }
        possibleTypes = try type.optionalChildren("possibleTypes").map {
            reference throws(IntrospectionSchema.ReadError) in try reference.string("name")
        }
    }
}

extension IntrospectionSchema.InputValue {
    fileprivate init(reading value: Reader) throws(IntrospectionSchema.ReadError) {
        name = try value.string("name")
        description = try value.optionalString("description")
        type = try IntrospectionSchema.TypeReference(reading: value.child("type"))
        defaultValue = try value.optionalString("defaultValue")
    }
}

extension IntrospectionSchema.TypeReference {
    fileprivate init(reading reference: Reader) throws(IntrospectionSchema.ReadError) {
        switch try reference.string("kind") {
        case "LIST": self = .list(try Self(reading: reference.child("ofType")))
        case "NON_NULL": self = .nonNull(try Self(reading: reference.child("ofType")))
        default: self = .named(try reference.string("name"))
        }
    }
}

/// Reads one object of an introspection result, naming its path in errors.
private struct Reader {
    let object: [String: Any]
    let path: String

    init(_ object: [String: Any], at path: String) {
        self.object = object
        self.path = path
    }

    static func object(_ value: Any, at path: String) throws(IntrospectionSchema.ReadError) -> [String: Any] {
        guard let object = value as? [String: Any] else { throw .init("\(path) is not an object") }
        return object
    }

    static func messages(_ errors: [Any]) -> String {
        errors.compactMap { ($0 as? [String: Any])?["message"] as? String }.joined(separator: "; ")
    }

    func string(_ key: String) throws(IntrospectionSchema.ReadError) -> String {
        guard let value = try optionalString(key) else { throw .init("\(path).\(key) is missing") }
        return value
    }

    func optionalString(_ key: String) throws(IntrospectionSchema.ReadError) -> String? {
        switch object[key] {
        case nil, is NSNull: return nil
        case let value as String: return value
        default: throw .init("\(path).\(key) is not a string")
        }
    }

    func optionalBool(_ key: String) throws(IntrospectionSchema.ReadError) -> Bool? {
        switch object[key] {
        case nil, is NSNull: return nil
        case let value as Bool: return value
        default: throw .init("\(path).\(key) is not true or false")
        }
    }

    func strings(_ key: String) throws(IntrospectionSchema.ReadError) -> [String] {
        guard let values = object[key] as? [Any] else { throw .init("\(path).\(key) is not a list") }
        var strings: [String] = []
        for (index, value) in values.enumerated() {
            guard let string = value as? String else {
                throw .init("\(path).\(key)[\(index)] is not a string")
            }
            strings.append(string)
        }
        return strings
    }

    func child(_ key: String) throws(IntrospectionSchema.ReadError) -> Reader {
        guard let child = try optionalChild(key) else { throw .init("\(path).\(key) is missing") }
        return child
    }

    func optionalChild(_ key: String) throws(IntrospectionSchema.ReadError) -> Reader? {
        switch object[key] {
        case nil, is NSNull: return nil
        case let value?: return Reader(try Self.object(value, at: "\(path).\(key)"), at: "\(path).\(key)")
        }
    }

    func children(_ key: String) throws(IntrospectionSchema.ReadError) -> [Reader] {
        guard object[key] != nil, !(object[key] is NSNull) else { throw .init("\(path).\(key) is missing") }
        return try optionalChildren(key)
    }

    func optionalChildren(_ key: String) throws(IntrospectionSchema.ReadError) -> [Reader] {
        switch object[key] {
        case nil, is NSNull: return []
        case let values as [Any]:
            var children: [Reader] = []
            for (index, value) in values.enumerated() {
                let childPath = "\(path).\(key)[\(index)]"
                children.append(Reader(try Self.object(value, at: childPath), at: childPath))
            }
            return children
        default: throw .init("\(path).\(key) is not a list")
        }
    }

    /// The deprecation reason of a field or enum value: `nil` unless
    /// `isDeprecated`, `""` when deprecated without a reason.
    func deprecation() throws(IntrospectionSchema.ReadError) -> String? {
        guard try optionalBool("isDeprecated") == true else { return nil }
        return try optionalString("deprecationReason") ?? ""
    }
}
