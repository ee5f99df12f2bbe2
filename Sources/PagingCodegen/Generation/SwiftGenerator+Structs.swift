import GraphQL

// The structs of selections, and the Swift types of fields and variables.
extension SwiftGenerator {

    /// Writes the struct of a selection, and those of its object fields inside it.
    ///
    /// Its members are named so that none hides another or a type it uses:
    /// a field's property keeps the field's key; a fragment's is the
    /// fragment's name in lowerCamelCase (`Fragment`, then `_`, added while
    /// another member has it); a type case's is `as` and the type's name; a
    /// nested type takes no name of a member, of a top-level type or a
    /// reserved one (``SwiftNames/reservedNestedNames``).
    mutating func writeStruct(
        named name: String, model: SelectionModel, path: String, to writer: inout SwiftWriter
    ) throws(CodegenError) {
        paths[ObjectIdentifier(model)] = path
        var properties: [Property] = []
        var members = Set(model.fields.map { SwiftNames.propertyName($0.key) })
        let injectsTypename =
            !model.typeCases.isEmpty && !model.fields.contains { $0.key == "__typename" }
        if injectsTypename { members.insert("__typename") }
        let fragments = model.fragments.map { fragment in
            let type = names.fragment(fragment)
            var property = SwiftNames.lowercasedFirst(fragment)
            if members.contains(property) { property += "Fragment" }
            return (name: SwiftNames.claim(property, in: &members), type: type)
        }
        let caseProperties = model.typeCases.map { typeCase in
            SwiftNames.claim("as" + SwiftNames.typeName(typeCase.condition), in: &members)
        }
        // The nested types: no member's name, no top-level type's, no reserved one.
        // (The top-level names, thousands in a large module, are looked up, not copied.)
        var takenTypes = members.union([name])
        let topLevel = names.taken
        let reserved = { (candidate: String) in
            topLevel.contains(candidate) || SwiftNames.reservedNestedNames.contains(candidate)
        }
        var nested: [(name: String, model: SelectionModel)] = []
        for field in model.fields {
            var nestedName: String?
            if let selection = field.selection {
                let candidate = SwiftNames.typeName(forKey: field.key, isList: Self.isList(field.type))
                nestedName = SwiftNames.claim(candidate, in: &takenTypes, reserved: reserved)
                nested.append((nestedName ?? candidate, selection))
            }
            var type = try outputTypeName(field.type, nested: nestedName)
            if field.conditional, !type.hasSuffix("?") { type += "?" }
            properties.append(
                Property(
                    name: SwiftNames.propertyName(field.key), type: type,
                    doc: Self.documentation(of: field, on: model), key: field.key))
        }
        if injectsTypename {
            // The document selects it (see `rewrite`): it tells the cases apart.
            properties.insert(
                Property(name: "__typename", type: "Swift.String", doc: ["The name of the object's type."]),
                at: 0)
        }
        let cases = zip(model.typeCases, caseProperties).map { typeCase, property in
            (
                property: property,
                type: SwiftNames.claim(
                    "As" + SwiftNames.typeName(typeCase.condition), in: &takenTypes, reserved: reserved),
                possibleTypes: typeCase.possibleTypes, model: typeCase.model
            )
        }
        var conformances = ["Swift.Codable", "Swift.Sendable", "Swift.Hashable"]
        if model.fields.contains(where: { $0.key == "id" && !$0.conditional }) {
            conformances.append("Swift.Identifiable")
        }
        let parts =
            properties.map { (part: $0, kind: Property.Kind.field) }
            + fragments.map {
                (
                    part: Property(name: $0.name, type: $0.type, doc: ["The fields of `\($0.type)`."]),
                    kind: Property.Kind.fragment
                )
            }
            + cases.map { typeCase in
                (
                    part: Property(
                        name: typeCase.property, type: typeCase.type + "?",
                        doc: [
                            "The object as \(Self.article(typeCase.possibleTypes)), when it is one (by `__typename`)."
                        ]),
                    kind: Property.Kind.typeCase(typeCase.possibleTypes)
                )
            }
        writeMemberwiseType(
            "\(options.access)struct \(name): \(conformances.joined(separator: ", "))", parts: parts,
            decodes: true, taken: takenTypes, to: &writer, closing: false)
        for typeCase in cases {
            writer.blank()
            writer.line("/// What the selection asks of \(Self.article(typeCase.possibleTypes)).")
            try writeStruct(
                named: typeCase.type, model: typeCase.model, path: path + "." + typeCase.type, to: &writer)
        }
        for (nestedName, nestedModel) in nested {
            writer.blank()
            let key = model.fields.first { $0.selection === nestedModel }?.key ?? nestedName
            writer.line("/// What `\(key)` selects of `\(nestedModel.typeName)`.")
            try writeStruct(named: nestedName, model: nestedModel, path: path + "." + nestedName, to: &writer)
        }
        writer.close()
    }

    /// A property's documentation: the schema's description of the field,
    /// or what field it is.
    static func documentation(of field: SelectionModel.FieldModel, on model: SelectionModel)
        -> [String]
    {
        let origin =
            field.key == field.name
            ? "`\(model.typeName).\(field.name)`" : "`\(model.typeName).\(field.name)`, as `\(field.key)`"
        guard let description = field.description, !description.isEmpty else {
            return ["The field \(origin)."]
        }
        return description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + [
            "", "The field \(origin).",
        ]
    }

    /// "a `Rocket`", or "a `Launch` or a `Rocket`".
    static func article(_ types: [String]) -> String {
        types.map { "a `\($0)`" }.joined(separator: " or ")
    }

    static func isList(_ type: any GraphQLType) -> Bool {
        if type is GraphQLList { return true }
        if let nonNull = type as? GraphQLNonNull { return isList(nonNull.ofType) }
        return false
    }

    /// The Swift type of a field: `[Launch?]?` for `[Launch]`.
    mutating func outputTypeName(_ type: any GraphQLType, nested: String?) throws(CodegenError)
        -> String
    {
        if let nonNull = type as? GraphQLNonNull {
            let inner = try outputTypeName(nonNull.ofType, nested: nested)
            return inner.hasSuffix("?") ? String(inner.dropLast()) : inner
        }
        if let list = type as? GraphQLList {
            return "[\(try outputTypeName(list.ofType, nested: nested))]?"
        }
        guard let named = type as? any GraphQLNamedType else { return library("JSONValue") + "?" }
        return try namedTypeName(named.name, nested: nested) + "?"
    }

    /// The Swift name of a named type, noting the enums and input objects used.
    mutating func namedTypeName(_ name: String, nested: String?) throws(CodegenError) -> String {
        if let nested { return nested }
        if let scalar = SwiftNames.scalar(name) { return scalar }
        let type = schema.schema.getType(name: name)
        if type is GraphQLEnumType {
            enums.insert(name)
            return names.schemaType(name)
        }
        if type is GraphQLInputObjectType {
            try useInput(name)
            return names.schemaType(name)
        }
        // A custom scalar: the configuration's type, or whatever JSON the server sends.
        return options.configuration.scalars[name] ?? library("JSONValue")
    }

    /// The Swift type of a variable: optional when nullable, or when it has a default.
    mutating func inputTypeName(_ type: any GraphQL.`Type`, at node: any Node, optional: Bool)
        throws(CodegenError)
        -> String
    {
        let inner = try inputTypeName(type)
        return optional && !inner.hasSuffix("?") ? inner + "?" : inner
    }

    mutating func inputTypeName(_ type: any GraphQL.`Type`) throws(CodegenError) -> String {
        if let nonNull = type as? NonNullType {
            let inner = try inputTypeName(nonNull.type)
            return inner.hasSuffix("?") ? String(inner.dropLast()) : inner
        }
        if let list = type as? ListType {
            return "[\(try inputTypeName(list.type))]?"
        }
        guard let named = type as? NamedType else { return library("JSONValue") + "?" }
        return try namedTypeName(named.name.value, nested: nil) + "?"
    }

    /// The Swift type of an input object's field or a schema type's reference.
    mutating func inputTypeName(_ type: any GraphQLType) throws(CodegenError) -> String {
        if let nonNull = type as? GraphQLNonNull {
            let inner = try inputTypeName(nonNull.ofType)
            return inner.hasSuffix("?") ? String(inner.dropLast()) : inner
        }
        if let list = type as? GraphQLList {
            return "[\(try inputTypeName(list.ofType))]?"
        }
        guard let named = type as? any GraphQLNamedType else { return library("JSONValue") + "?" }
        return try namedTypeName(named.name, nested: nil) + "?"
    }

    mutating func useInput(_ name: String) throws(CodegenError) {
        guard inputs.insert(name).inserted,
            let input = schema.schema.getType(name: name) as? GraphQLInputObjectType
        else { return }
        for (_, field) in (try? input.fields()) ?? [:] {
            _ = try inputTypeName(field.type)
        }
    }

}
