/// A stored property of a generated type: a field's, a fragment's or a
/// type case's.
struct Property {
    /// What the property holds, which says how it decodes.
    enum Kind {
        /// A field's value, under its key.
        case field
        /// A fragment's fields, from the same object.
        case fragment
        /// A type case, from the same object when `__typename` is one of these.
        case typeCase([String])
    }

    /// The property's name, unescaped: for a field, its response key
    /// (``SwiftNames/propertyName(_:)``).
    let name: String
    /// Its Swift type.
    let type: String
    /// The lines of its documentation.
    let doc: [String]
    /// For a field, the key of its value in the JSON.
    let key: String

    init(name: String, type: String, doc: [String], key: String? = nil) {
        self.name = name
        self.type = type
        self.doc = doc
        self.key = key ?? name
    }
}

// Types of stored properties with a memberwise initializer, and their coding.
extension SwiftGenerator {
    /// Key names a `CodingKey` enum's own members have.
    static let reservedKeyNames: Set<String> = ["rawValue", "stringValue", "intValue", "hashValue"]

    /// Writes a type of stored properties: the properties, a public
    /// memberwise initializer, and, where Swift's synthesized coding does
    /// not do, `init(from:)` and `encode(to:)` (fragments and type cases
    /// decode from the same object; a property named `CodingKeys` takes the
    /// synthesized keys' name; a property is named apart from its key).
    /// - Parameters:
    ///   - declaration: the type's declaration, up to its brace.
    ///   - parts: the properties, in order.
    ///   - decodes: whether it is `Decodable` as well as `Encodable`.
    ///   - taken: names of nested types the keys' enum may not take.
    ///   - className: the name of a final class of constants, which gets
    ///     `==` and `hash(into:)` of its own (Swift synthesizes them for
    ///     structs only); `nil` for a struct.
    ///   - closing: whether to close the type (else nested types follow).
    func writeMemberwiseType(
        _ declaration: String, parts: [(part: Property, kind: Property.Kind)], decodes: Bool,
        taken: Set<String>, className: String? = nil, to writer: inout SwiftWriter, closing: Bool
    ) {
        writer.open(declaration)
        for (part, _) in parts {
            for line in part.doc { writer.documentation(line) }
            writer.line(
                "\(options.access)\(className == nil ? "var" : "let") \(SwiftNames.identifier(part.name)): \(part.type)"
            )
        }
        // A memberwise initializer, public like the type (Swift's own is internal).
        writer.blank()
        writer.line(
            decodes ? "/// Creates the data, as a test or a preview might." : "/// Creates the values.")
        let parameters = parts.map { Parameter(name: $0.part.name, type: $0.part.type) }
        let declared = Parameter.declarations(parameters, avoiding: [])
        writer.open("\(options.access)init(\(declared.list))")
        for (parameter, internalName) in zip(parameters, declared.internalNames) {
            writer.line("self.\(SwiftNames.identifier(parameter.name)) = \(internalName)")
        }
        writer.close()
        if let className { writeEquality(of: parts.map(\.part.name), in: className, to: &writer) }
        let composed = parts.contains { if case .field = $0.kind { false } else { true } }
        let renamed = parts.contains { $0.part.name == "CodingKeys" || $0.part.name != $0.part.key }
        guard composed || renamed else {
            if closing { writer.close() }
            return
        }
        // Nested types never take `CodingKeys` (reserved): only a property may.
        var typeNames = taken.subtracting(["CodingKeys"]).union(parts.map(\.part.name))
        let keys = SwiftNames.claim("CodingKeys", in: &typeNames)
        var keyNames = Self.reservedKeyNames
        let fields = parts.filter { if case .field = $0.kind { true } else { false } }.map { field in
            (
                property: SwiftNames.identifier(field.part.name), key: field.part.key,
                keyCase: SwiftNames.claim(field.part.key, in: &keyNames),
                optional: field.part.type.hasSuffix("?")
            )
        }
        if decodes {
            writer.blank()
            writer.line("/// Decodes the fields, and each fragment and type case from the same object.")
            writer.open("\(options.access)init(from decoder: any Swift.Decoder) throws")
            if !fields.isEmpty {
                writer.line("let container = try decoder.container(keyedBy: \(keys).self)")
            }
            for field in fields {
                let method = field.optional ? "decodeInferredIfPresent" : "decodeInferred"
                writer.line(
                    "self.\(field.property) = try container.\(method)(forKey: .\(SwiftNames.identifier(field.keyCase)))"
                )
            }
            for (part, kind) in parts {
                let property = SwiftNames.identifier(part.name)
                switch kind {
                case .field: break
                case .fragment: writer.line("self.\(property) = try .init(from: decoder)")
                case .typeCase(let possibleTypes):
                    let typename =
                        parts.first { $0.part.name == "__typename" }?.part.type.hasSuffix("?") == true
                        ? "self.__typename ?? \"\"" : "self.__typename"
                    let names = possibleTypes.map { Self.stringLiteral($0) }.joined(separator: ", ")
                    writer.open("if [\(names)].contains(\(typename))")
                    writer.line("let value: \(part.type.dropLast()) = try .init(from: decoder)")
                    writer.line("self.\(property) = value")
                    writer.closeAndOpen("else")
                    writer.line("self.\(property) = nil")
                    writer.close()
                }
            }
            writer.close()
        }
        writer.blank()
        writer.line(
            decodes
                ? "/// Encodes the fields, and each fragment and type case into the same object."
                : "/// Encodes the values; one that is `nil` is left out.")
        writer.open("\(options.access)func encode(to encoder: any Swift.Encoder) throws")
        if !fields.isEmpty {
            writer.line("var container = encoder.container(keyedBy: \(keys).self)")
        }
        for field in fields {
            let method = field.optional ? "encodeIfPresent" : "encode"
            writer.line(
                "try container.\(method)(self.\(field.property), forKey: .\(SwiftNames.identifier(field.keyCase)))"
            )
        }
        for (part, kind) in parts {
            switch kind {
            case .field: break
            case .fragment: writer.line("try self.\(SwiftNames.identifier(part.name)).encode(to: encoder)")
            case .typeCase: writer.line("try self.\(SwiftNames.identifier(part.name))?.encode(to: encoder)")
            }
        }
        writer.close()
        if !fields.isEmpty {
            writer.blank()
            writer.open("private enum \(keys): Swift.String, Swift.CodingKey")
            for field in fields {
                let name = SwiftNames.identifier(field.keyCase)
                writer.line(
                    field.keyCase == field.key
                        ? "case \(name)" : "case \(name) = \(Self.stringLiteral(field.key))")
            }
            writer.close()
        }
        if closing { writer.close() }
    }

    /// `==` and `hash(into:)` over stored properties, for a class.
    func writeEquality(of properties: [String], in className: String, to writer: inout SwiftWriter) {
        let names = properties.map(SwiftNames.identifier)
        writer.blank()
        writer.line("/// Whether the two have the same values.")
        writer.open("\(options.access)static func == (lhs: \(className), rhs: \(className)) -> Swift.Bool")
        if names.isEmpty {
            writer.line("true")
        } else {
            for (index, name) in names.enumerated() {
                writer.line((index == 0 ? "" : "    && ") + "lhs.\(name) == rhs.\(name)")
            }
        }
        writer.close()
        writer.blank()
        writer.line("/// Hashes the values.")
        writer.open("\(options.access)func hash(into hasher: inout Swift.Hasher)")
        for name in names {
            writer.line("hasher.combine(self.\(name))")
        }
        writer.close()
    }
}
