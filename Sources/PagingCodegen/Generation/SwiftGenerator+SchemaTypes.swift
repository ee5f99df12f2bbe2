import GraphQL

// The schema's enums and input objects that the documents use.
extension SwiftGenerator {

    mutating func schemaTypes() throws(CodegenError) -> Codegen.OutputFile {
        var writer = SwiftWriter()
        writer.header(
            from: nil, schema: Self.baseName(schema.file), import: options.importModule,
            public: options.isPublic, configuration: options.configuration)
        for name in enums.sorted() {
            guard let type = schema.schema.getType(name: name) as? GraphQLEnumType else { continue }
            writeEnum(type, to: &writer)
        }
        for name in inputs.sorted() {
            guard let type = schema.schema.getType(name: name) as? GraphQLInputObjectType else { continue }
            try writeInput(type, to: &writer)
        }
        return Codegen.OutputFile(name: options.schemaTypesFile, contents: writer.text)
    }

    func writeEnum(_ type: GraphQLEnumType, to writer: inout SwiftWriter) {
        var cases: [(name: String, value: String)] = []
        var taken = SwiftNames.reservedCaseNames
        for value in type.values {
            let name = SwiftNames.claim(SwiftNames.caseName(value.name), in: &taken)
            cases.append((SwiftNames.identifier(name), value.name))
        }
        writer.line(
            "/// The schema's enum `\(type.name)`, with ``unknown(_:)`` for a value added after generation.")
        writer.open(
            "\(options.access)enum \(names.schemaType(type.name)): Swift.Hashable, Swift.Sendable, Swift.Codable"
        )
        for (name, value) in cases {
            writer.line("/// `\(value)`.")
            writer.line("case \(name)")
        }
        writer.line("/// A value the schema did not have when this was generated.")
        writer.line("case unknown(Swift.String)")
        writer.blank()
        writer.line("/// The value as the server writes it.")
        writer.open("\(options.access)var rawValue: Swift.String")
        writer.open("switch self")
        for (name, value) in cases {
            writer.caseLine("case .\(name): \(Self.stringLiteral(value))")
        }
        writer.caseLine("case .unknown(let value): value")
        writer.close()
        writer.close()
        writer.blank()
        writer.line("/// The case of a value as the server writes it.")
        writer.open("\(options.access)init(rawValue: Swift.String)")
        writer.open("switch rawValue")
        for (name, value) in cases {
            writer.caseLine("case \(Self.stringLiteral(value)): self = .\(name)")
        }
        writer.caseLine("default: self = .unknown(rawValue)")
        writer.close()
        writer.close()
        writer.blank()
        writer.line("/// Decodes the value's text.")
        writer.open("\(options.access)init(from decoder: any Swift.Decoder) throws")
        writer.line("self.init(rawValue: try decoder.singleValueContainer().decode(Swift.String.self))")
        writer.close()
        writer.blank()
        writer.line("/// Encodes the value's text.")
        writer.open("\(options.access)func encode(to encoder: any Swift.Encoder) throws")
        writer.line("var container = encoder.singleValueContainer()")
        writer.line("try container.encode(rawValue)")
        writer.close()
        writer.close()
        writer.blank()
    }

    mutating func writeInput(_ type: GraphQLInputObjectType, to writer: inout SwiftWriter)
        throws(CodegenError)
    {
        var fields: [(name: String, type: String)] = []
        var descriptions: [String: String] = [:]
        for (name, field) in (try? type.fields()) ?? [:] {
            descriptions[name] = field.description
            var swiftType = try inputTypeName(field.type)
            if field.defaultValue != nil, !swiftType.hasSuffix("?") { swiftType += "?" }
            fields.append((name, swiftType))
        }
        // An input that holds itself, directly or through others, outside a list, is a class: a
        // struct cannot contain itself.
        let typeName = names.schemaType(type.name)
        let isClass = Self.holdsItself(type)
        writer.line("/// The schema's input object `\(type.name)`; a field left `nil` is not sent.")
        writeMemberwiseType(
            "\(options.access)\(isClass ? "final class" : "struct") \(typeName): Swift.Encodable, Swift.Sendable, Swift.Hashable",
            parts: fields.map { field in
                let description =
                    descriptions[field.name].flatMap { $0.isEmpty ? nil : $0 } ?? "`\(field.name)`."
                return (
                    part: Property(
                        name: SwiftNames.propertyName(field.name), type: field.type,
                        doc: description.split(separator: "\n", omittingEmptySubsequences: false).map(
                            String.init), key: field.name),
                    kind: .field
                )
            },
            decodes: false, taken: [], className: isClass ? typeName : nil, to: &writer, closing: true)
        writer.blank()
    }

    /// Whether an input object reaches itself through fields that are not lists.
    static func holdsItself(_ type: GraphQLInputObjectType) -> Bool {
        var seen: Set<String> = []
        var pending = [type]
        while let current = pending.popLast() {
            for (_, field) in (try? current.fields()) ?? [:] {
                var fieldType: any GraphQLType = field.type
                if let nonNull = fieldType as? GraphQLNonNull { fieldType = nonNull.ofType }
                guard let input = fieldType as? GraphQLInputObjectType else { continue }
                if input.name == type.name { return true }
                if seen.insert(input.name).inserted { pending.append(input) }
            }
        }
        return false
    }
}
