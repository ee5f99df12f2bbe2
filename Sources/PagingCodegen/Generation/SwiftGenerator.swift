import GraphQL
import PagingGraphQLCore

/// Writes the Swift of a module's documents: one file per `.graphql` file
/// (its operations and fragments) and one of the schema's enums and input
/// objects they use.
struct SwiftGenerator {
    let schema: CodegenSchema
    let documents: OperationDocuments
    let options: Codegen.Options

    /// The Swift path of each struct written (`Data.Rocket.Launches`), by its model.
    private var paths: [ObjectIdentifier: String] = [:]
    /// The enums and input objects the documents use, by name.
    private var enums: Set<String> = []
    private var inputs: Set<String> = []

    init(schema: CodegenSchema, documents: OperationDocuments, options: Codegen.Options) {
        self.schema = schema
        self.documents = documents
        self.options = options
    }

    /// The files, in the order of the documents, then the schema's types.
    mutating func generate() throws(CodegenFailure) -> [Codegen.OutputFile] {
        var errors: [CodegenError] = []
        var outputs: [Codegen.OutputFile] = []
        for file in documents.files {
            var writer = SwiftWriter()
            writer.header(
                from: Self.baseName(file.name), schema: Self.baseName(schema.file),
                import: options.importModule, public: options.isPublic, configuration: options.configuration)
            for operation in file.operations {
                do {
                    try writeOperation(operation, in: file, to: &writer)
                } catch {
                    errors.append(error)
                }
            }
            for fragment in file.fragments {
                do {
                    try writeFragment(fragment, to: &writer)
                } catch {
                    errors.append(error)
                }
            }
            outputs.append(Codegen.OutputFile(name: Self.outputName(for: file.name), contents: writer.text))
        }
        do {
            outputs.append(try schemaTypes())
        } catch {
            errors.append(error)
        }
        guard errors.isEmpty else { throw CodegenFailure(errors: errors) }
        return outputs
    }

    /// `Queries/LaunchList.graphql` → `LaunchList.graphql.swift`.
    static func outputName(for file: String) -> String {
        baseName(file) + ".swift"
    }

    static func baseName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    // MARK: Operations

    private mutating func writeOperation(
        _ operation: OperationDefinition, in file: OperationDocuments.File, to writer: inout SwiftWriter
    ) throws(CodegenError) {
        guard let name = operation.name?.value else { return }
        let kind = operation.operation
        let suffix = SwiftNames.capitalized(kind.rawValue)
        let typeName = name.hasSuffix(suffix) ? name : name + suffix
        guard let root = rootType(of: kind) else {
            throw OperationDocuments.error(
                .invalidDocument, at: operation, "the schema has no \(kind.rawValue) type.")
        }
        let variables = try operation.variableDefinitions.map { definition throws(CodegenError) in
            (
                name: definition.variable.name.value,
                type: try inputTypeName(
                    definition.type, at: definition, optional: definition.defaultValue != nil)
            )
        }
        let model = try SelectionModel.make(operation.selectionSet, on: root, documents: documents)

        writer.line("/// `\(kind.rawValue) \(name)`, from \(Self.baseName(file.name)).")
        writer.open("\(options.access)struct \(typeName): GraphQLOperation")
        writer.line("/// The document sent: the operation and the fragments it uses.")
        writer.multilineString("\(options.access)static let document = ", documentText(of: operation))
        writer.blank()
        writer.line("/// The document sent.")
        writer.line("\(options.access)var document: String { Self.document }")
        writer.line("/// `\(name)`.")
        writer.line("\(options.access)var operationName: String? { \"\(name)\" }")
        writer.line("/// The values of the variables.")
        writer.line("\(options.access)var variables: Variables")
        writer.blank()
        writer.line("/// Creates the operation with the values of its variables.")
        writer.open("\(options.access)init(\(parameters(variables)))")
        writer.line(
            "variables = Variables(\(variables.map { "\($0.name): \(SwiftNames.identifier($0.name))" }.joined(separator: ", ")))"
        )
        writer.close()
        writer.blank()
        writer.line(
            "/// The operation's variables; one left `nil` is not sent (the server's default applies).")
        writer.open("\(options.access)struct Variables: Encodable, Sendable, Hashable")
        for variable in variables {
            writer.line("/// `$\(variable.name)`.")
            writer.line("\(options.access)var \(SwiftNames.identifier(variable.name)): \(variable.type)")
        }
        writer.blank()
        writer.line("/// Creates the variables.")
        writer.open("\(options.access)init(\(parameters(variables)))")
        for variable in variables {
            writer.line("self.\(variable.name) = \(SwiftNames.identifier(variable.name))")
        }
        writer.close()
        writer.close()
        writer.blank()
        writer.line("/// The response's data.")
        try writeStruct(named: "Data", model: model, path: "Data", to: &writer)
        writer.close()
        writer.blank()
        try writeConnectionFactory(
            of: operation, named: typeName, model: model, variables: variables, to: &writer)
    }

    /// For an operation with a `@connection` field: its node type and a
    /// `ConnectionSource` made with the operation's other variables.
    private func writeConnectionFactory(
        of operation: OperationDefinition, named typeName: String, model: SelectionModel,
        variables: [(name: String, type: String)], to writer: inout SwiftWriter
    ) throws(CodegenError) {
        guard let (field, nodePath) = try listSite(of: model, at: operation), let key = field.connectionKey
        else {
            return
        }
        let pagination = Set(field.paginationVariables)
        let others = variables.filter { !pagination.contains($0.name) }
        var arguments: [String] = []
        for variable in variables {
            if !pagination.contains(variable.name) {
                arguments.append("\(variable.name): \(SwiftNames.identifier(variable.name))")
            } else if !variable.type.hasSuffix("?") {
                // A non-null page size the source sets for each page; a placeholder here.
                guard variable.type == "Int" else {
                    throw OperationDocuments.error(
                        .unsupported, at: operation,
                        "the pagination variable $\(variable.name) is non-null; make it nullable (the first page has no cursor)."
                    )
                }
                arguments.append("\(variable.name): 0")
            }
        }
        writer.line("/// The `@connection(key: \"\(key)\")` list of `\(typeName)`.")
        writer.open("extension \(typeName)")
        writer.line("/// A node of the list.")
        writer.line("\(options.access)typealias ListNode = \(nodePath)")
        writer.blank()
        writer.line("/// The document as written, `@connection` included: the list reads it.")
        writer.multilineString(
            "\(options.access)static let connectionDocument = ",
            documentText(of: operation, keepingConnections: true))
        writer.blank()
        writer.line(
            "/// The list's source: pages of `\(field.key)` one after another, the pagination variables")
        writer.line(
            "/// (\(field.paginationVariables.map { "`$\($0)`" }.joined(separator: ", "))) set for each page, the others as given here. Make a"
        )
        writer.line("/// pager or a list of it (`makePager(configuration:)`, `makeList(configuration:)`).")
        writer.line(
            "/// - Parameter client: the client the pages are asked with; with a store, the list follows it.")
        writer.line(
            "/// - Throws: `GraphQLDocumentError` if the document cannot be paged (it was checked when generated)."
        )
        let parameters =
            (["client: GraphQLClient"]
            + others.map { variable in
                "\(SwiftNames.identifier(variable.name)): \(variable.type)"
                    + (variable.type.hasSuffix("?") ? " = nil" : "")
            }).joined(separator: ", ")
        writer.open("\(options.access)static func source(\(parameters)) throws -> ConnectionSource<ListNode>")
        writer.line(
            "let variables = try JSONValue(encoding: Variables(\(arguments.joined(separator: ", ")))).objectValue ?? [:]"
        )
        writer.line("return ConnectionSource(")
        writer.line("    client: client,")
        writer.line("    document: try ConnectionDocument(")
        writer.line(
            "        connectionDocument, connectionKey: \"\(key)\", operationName: \"\(operation.name?.value ?? "")\"),"
        )
        writer.line("    variables: variables, as: ListNode.self)")
        writer.close()
        writer.close()
        writer.blank()
    }

    private mutating func writeFragment(_ fragment: FragmentDefinition, to writer: inout SwiftWriter)
        throws(CodegenError)
    {
        let condition = fragment.typeCondition.name.value
        guard let type = schema.schema.getType(name: condition) else { return }
        let model = try SelectionModel.make(fragment.selectionSet, on: type, documents: documents)
        writer.line(
            "/// `fragment \(fragment.name.value) on \(condition)`: its fields, as any data that spreads it holds them."
        )
        try writeStruct(named: fragment.name.value, model: model, path: fragment.name.value, to: &writer)
        writer.blank()
        if let original = documents.paginationFragments[fragment.name.value] {
            try writePaginationFragment(original, model: model, to: &writer)
        }
    }

    /// The `@connection` field of a selection and the Swift path of its
    /// nodes' struct; `nil` when it has none.
    /// - Throws: ``CodegenError`` when it has more than one, or selects its
    ///   nodes through a fragment.
    private func listSite(of model: SelectionModel, at definition: any Node) throws(CodegenError)
        -> (field: SelectionModel.FieldModel, nodePath: String)?
    {
        let connections = model.connections()
        guard let (field, node) = connections.first else { return nil }
        guard connections.count == 1 else {
            throw OperationDocuments.error(
                .unsupported, at: definition,
                "more than one @connection field in one operation or fragment gets no list factory yet; keep one."
            )
        }
        guard let node, let nodePath = paths[ObjectIdentifier(node)] else {
            throw OperationDocuments.error(
                .unsupported, at: definition,
                "the @connection field \(field.key) selects its nodes through a fragment; select `edges { node { ... } }` or `nodes { ... }` in place for its list."
            )
        }
        return (field, nodePath)
    }

    /// For a `@refetchable` fragment: its list's node type, its document as
    /// written, and a `PaginationFragment` that starts from the data.
    private func writePaginationFragment(
        _ fragment: FragmentDefinition, model: SelectionModel, to writer: inout SwiftWriter
    ) throws(CodegenError) {
        let name = fragment.name.value
        guard let (_, nodePath) = try listSite(of: model, at: fragment) else {
            throw OperationDocuments.error(
                .invalidDocument, at: fragment,
                "the @refetchable fragment \(name) has no @connection field to page.")
        }
        let text =
            ([print(ast: fragment)] + usedFragments(from: fragment.selectionSet).map { print(ast: $0) })
            .joined(separator: "\n\n")
        let selectsID = model.fields.contains { $0.key == "id" && $0.name == "id" && !$0.conditional }
        writer.line("/// The list of `\(name)`'s `@connection`, paged by its `@refetchable` query.")
        writer.open("extension \(name)")
        writer.line("/// A node of the list.")
        writer.line("\(options.access)typealias ListNode = \(nodePath)")
        writer.blank()
        writer.line("/// The fragment as written, its directives included, with the fragments it uses.")
        writer.multilineString("\(options.access)static let paginationDocument = ", text)
        writer.blank()
        writer.line(
            "/// The fragment's list, starting from this data as the parent query fetched it: its nodes are")
        writer.line(
            "/// the first page, and the refetch query asks only for the pages after it (as Relay does).")
        writer.line(
            "/// Make a pager or a list of it (`makePager(configuration:)`, `makeList(configuration:)`).")
        if selectsID {
            writer.line("/// - Parameter client: the client the refetch query is sent with.")
        } else {
            writer.line("/// - Parameters:")
            writer.line("///   - client: the client the refetch query is sent with.")
            writer.line("///   - nodeID: the id of the object the fragment is on, `nil` for `Query`.")
        }
        writer.line(
            "/// - Throws: `GraphQLDocumentError` or `GraphQLPagerError` if the fragment cannot be paged.")
        let parameters = selectsID ? "client: GraphQLClient" : "client: GraphQLClient, nodeID: String?"
        writer.open(
            "\(options.access)func paginationFragment(\(parameters)) throws -> PaginationFragment<ListNode>")
        writer.line("try PaginationFragment(")
        writer.line(
            "    PaginationFragmentDocument(Self.paginationDocument), nodeID: \(selectsID ? "id" : "nodeID"), client: client,"
        )
        writer.line("    as: ListNode.self")
        writer.line(")")
        writer.line(".startingFrom(JSONValue(encoding: self))")
        writer.close()
        writer.close()
        writer.blank()
    }

    private func rootType(of operation: OperationType) -> GraphQLObjectType? {
        switch operation {
        case .query: schema.schema.queryType
        case .mutation: schema.schema.mutationType
        case .subscription: schema.schema.subscriptionType
        }
    }

    /// `pageSize: Int? = nil, after: String? = nil`.
    private func parameters(_ variables: [(name: String, type: String)]) -> String {
        variables.map { variable in
            "\(SwiftNames.identifier(variable.name)): \(variable.type)"
                + (variable.type.hasSuffix("?") ? " = nil" : "")
        }.joined(separator: ", ")
    }

    /// The text sent for an operation: its own, then the fragments it uses
    /// (in order of name), each as written, `@connection` taken out.
    private func documentText(of operation: OperationDefinition, keepingConnections: Bool = false) -> String {
        let parts: [any Node] = [operation] + usedFragments(from: operation.selectionSet)
        return parts.map { Self.sourceText(of: $0, keepingConnections: keepingConnections) }.joined(
            separator: "\n\n")
    }

    /// The fragments a selection set reaches, at any depth, in order of name.
    private func usedFragments(from selectionSet: SelectionSet) -> [FragmentDefinition] {
        var used: Set<String> = []
        var pending = Self.spreads(in: selectionSet)
        while let name = pending.popLast() {
            guard used.insert(name).inserted, let fragment = documents.fragments[name] else { continue }
            pending += Self.spreads(in: fragment.selectionSet)
        }
        return used.sorted().compactMap { documents.fragments[$0] }
    }

    /// The names of the fragments a selection set spreads, at any depth.
    private static func spreads(in selectionSet: SelectionSet) -> [String] {
        selectionSet.selections.flatMap { selection -> [String] in
            if let spread = selection as? FragmentSpread { return [spread.name.value] }
            if let field = selection as? Field { return field.selectionSet.map(spreads) ?? [] }
            if let inline = selection as? InlineFragment { return spreads(in: inline.selectionSet) }
            return []
        }
    }

    /// A definition's text, printed by GraphQLSwift, without its
    /// `@connection` directives (the client's, which servers do not know).
    private static func sourceText(of node: any Node, keepingConnections: Bool = false) -> String {
        if let operation = node as? OperationDefinition {
            let rewritten = rewrite(operation.selectionSet, keepingConnections: keepingConnections)
            return print(ast: operation.set(value: .node(rewritten), key: "selectionSet"))
        }
        if let fragment = node as? FragmentDefinition {
            let rewritten = rewrite(fragment.selectionSet, keepingConnections: keepingConnections)
            return print(ast: fragment.set(value: .node(rewritten), key: "selectionSet"))
        }
        return print(ast: node)
    }

    /// A `__typename` field, parsed once.
    private static let typenameField: [any Node] = (try? DocumentRewriter.snippet("__typename")) ?? []

    /// `__typename` for the selections that the data tells apart by it
    /// (those with fragments; one more field is harmless where it is not
    /// needed), and, unless kept, no `@connection`.
    private static func rewrite(_ selectionSet: SelectionSet, keepingConnections: Bool) -> SelectionSet {
        var selections: [any Node] = selectionSet.selections.map { selection -> any Node in
            if var field = selection as? Field {
                if !keepingConnections, field.directives.contains(where: { $0.name.value == "connection" }) {
                    field = DocumentRewriter.removing(["connection"], from: field)
                }
                if let child = field.selectionSet {
                    field = field.set(
                        value: .node(rewrite(child, keepingConnections: keepingConnections)),
                        key: "selectionSet")
                }
                return field
            }
            if let inline = selection as? InlineFragment {
                return inline.set(
                    value: .node(rewrite(inline.selectionSet, keepingConnections: keepingConnections)),
                    key: "selectionSet")
            }
            return selection
        }
        let tellsApart = selectionSet.selections.contains { selection in
            selection is FragmentSpread || (selection as? InlineFragment)?.typeCondition != nil
        }
        let hasTypename = selectionSet.selections.contains { selection in
            guard let field = selection as? Field else { return false }
            return field.name.value == "__typename" && field.alias == nil
        }
        if tellsApart, !hasTypename {
            selections = typenameField + selections
        }
        return selectionSet.set(value: .array(selections), key: "selections")
    }

    // MARK: Data

    /// Writes the struct of a selection, and those of its object fields inside it.
    private mutating func writeStruct(
        named name: String, model: SelectionModel, path: String, to writer: inout SwiftWriter
    ) throws(CodegenError) {
        paths[ObjectIdentifier(model)] = path
        var nested: [(name: String, model: SelectionModel)] = []
        var taken: Set<String> = [name]
        var properties: [(name: String, key: String, type: String, doc: [String])] = []
        for field in model.fields {
            var nestedName: String?
            if let selection = field.selection {
                var candidate = SwiftNames.typeName(forKey: field.key, isList: Self.isList(field.type))
                if SwiftNames.reservedTypeNames.contains(candidate) { candidate += "_" }
                while taken.contains(candidate) { candidate += "_" }
                taken.insert(candidate)
                nested.append((candidate, selection))
                nestedName = candidate
            }
            var type = try outputTypeName(field.type, nested: nestedName)
            if field.conditional, !type.hasSuffix("?") { type += "?" }
            properties.append(
                (SwiftNames.identifier(field.key), field.key, type, Self.documentation(of: field, on: model)))
        }
        if !model.typeCases.isEmpty, !model.fields.contains(where: { $0.key == "__typename" }) {
            // The document selects it (see `rewrite`): it tells the cases apart.
            properties.insert(
                ("__typename", "__typename", "String", ["The name of the object's type."]), at: 0)
        }
        var cases: [(property: String, type: String, possibleTypes: [String], model: SelectionModel)] = []
        for typeCase in model.typeCases {
            var typeName = "As" + SwiftNames.capitalized(typeCase.condition)
            while taken.contains(typeName) { typeName += "_" }
            taken.insert(typeName)
            cases.append(
                (
                    "as" + SwiftNames.capitalized(typeCase.condition), typeName, typeCase.possibleTypes,
                    typeCase.model
                ))
        }
        let fragments = model.fragments.map { fragment in
            var property = SwiftNames.lowercasedFirst(fragment)
            while model.fields.contains(where: { $0.key == property }) { property += "Fragment" }
            return (name: SwiftNames.identifier(property), type: fragment)
        }
        var conformances = ["Codable", "Sendable", "Hashable"]
        if model.fields.contains(where: { $0.key == "id" && !$0.conditional }) {
            conformances.append("Identifiable")
        }
        writer.open("\(options.access)struct \(name): \(conformances.joined(separator: ", "))")
        for property in properties {
            for line in property.doc { writer.documentation(line) }
            writer.line("\(options.access)var \(property.name): \(property.type)")
        }
        for fragment in fragments {
            writer.line("/// The fields of `\(fragment.type)`.")
            writer.line("\(options.access)var \(fragment.name): \(fragment.type)")
        }
        for typeCase in cases {
            writer.documentation(
                "The object as \(Self.article(typeCase.possibleTypes)), when it is one (by `__typename`).")
            writer.line("\(options.access)var \(typeCase.property): \(typeCase.type)?")
        }
        // A memberwise initializer, public like the type (Swift's own is internal).
        writer.blank()
        writer.line("/// Creates the data, as a test or a preview might.")
        let all =
            properties.map { ($0.name, $0.type) } + fragments.map { ($0.name, $0.type) }
            + cases.map { ($0.property, $0.type + "?") }
        writer.open(
            "\(options.access)init("
                + all.map { "\($0.0): \($0.1)" + ($0.1.hasSuffix("?") ? " = nil" : "") }.joined(
                    separator: ", ")
                + ")")
        for (property, _) in all {
            writer.line("self.\(property.trimmingCharacters(in: "`")) = \(property)")
        }
        writer.close()
        if !fragments.isEmpty || !cases.isEmpty {
            // The fragments decode from the same object as the fields.
            writer.blank()
            writer.line("/// Decodes the fields, and each fragment and type case from the same object.")
            writer.open("\(options.access)init(from decoder: any Decoder) throws")
            if !properties.isEmpty {
                writer.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
            }
            for property in properties {
                let plain = property.name.trimmingCharacters(in: "`")
                let method = property.type.hasSuffix("?") ? "decodeIfPresent" : "decode"
                let type = property.type.hasSuffix("?") ? String(property.type.dropLast()) : property.type
                writer.line("\(plain) = try container.\(method)(\(type).self, forKey: .\(property.name))")
            }
            for fragment in fragments {
                writer.line(
                    "\(fragment.name.trimmingCharacters(in: "`")) = try \(fragment.type)(from: decoder)")
            }
            for typeCase in cases {
                let names = typeCase.possibleTypes.map { "\"\($0)\"" }.joined(separator: ", ")
                writer.line(
                    "\(typeCase.property) = [\(names)].contains(__typename) ? try \(typeCase.type)(from: decoder) : nil"
                )
            }
            writer.close()
            writer.blank()
            writer.line("/// Encodes the fields, and each fragment and type case into the same object.")
            writer.open("\(options.access)func encode(to encoder: any Encoder) throws")
            if !properties.isEmpty {
                writer.line("var container = encoder.container(keyedBy: CodingKeys.self)")
            }
            for property in properties {
                let method = property.type.hasSuffix("?") ? "encodeIfPresent" : "encode"
                writer.line("try container.\(method)(\(property.name), forKey: .\(property.name))")
            }
            for fragment in fragments {
                writer.line("try \(fragment.name).encode(to: encoder)")
            }
            for typeCase in cases {
                writer.line("try \(typeCase.property)?.encode(to: encoder)")
            }
            writer.close()
            if !properties.isEmpty {
                writer.blank()
                writer.open("private enum CodingKeys: String, CodingKey")
                for property in properties {
                    writer.line("case \(property.name)")
                }
                writer.close()
            }
        }
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
    private static func documentation(of field: SelectionModel.FieldModel, on model: SelectionModel)
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
    private static func article(_ types: [String]) -> String {
        types.map { "a `\($0)`" }.joined(separator: " or ")
    }

    private static func isList(_ type: any GraphQLType) -> Bool {
        if type is GraphQLList { return true }
        if let nonNull = type as? GraphQLNonNull { return isList(nonNull.ofType) }
        return false
    }

    /// The Swift type of a field: `[Launch?]?` for `[Launch]`.
    private mutating func outputTypeName(_ type: any GraphQLType, nested: String?) throws(CodegenError)
        -> String
    {
        if let nonNull = type as? GraphQLNonNull {
            let inner = try outputTypeName(nonNull.ofType, nested: nested)
            return inner.hasSuffix("?") ? String(inner.dropLast()) : inner
        }
        if let list = type as? GraphQLList {
            return "[\(try outputTypeName(list.ofType, nested: nested))]?"
        }
        guard let named = type as? any GraphQLNamedType else { return "JSONValue?" }
        return try namedTypeName(named.name, nested: nested) + "?"
    }

    /// The Swift name of a named type, noting the enums and input objects used.
    private mutating func namedTypeName(_ name: String, nested: String?) throws(CodegenError) -> String {
        if let nested { return nested }
        if let scalar = SwiftNames.scalar(name) { return scalar }
        let type = schema.schema.getType(name: name)
        if type is GraphQLEnumType {
            enums.insert(name)
            return name
        }
        if type is GraphQLInputObjectType {
            try useInput(name)
            return name
        }
        // A custom scalar: the configuration's type, or whatever JSON the server sends.
        return options.configuration.scalars[name] ?? "JSONValue"
    }

    /// The Swift type of a variable: optional when nullable, or when it has a default.
    private mutating func inputTypeName(_ type: any GraphQL.`Type`, at node: any Node, optional: Bool)
        throws(CodegenError)
        -> String
    {
        let inner = try inputTypeName(type)
        return optional && !inner.hasSuffix("?") ? inner + "?" : inner
    }

    private mutating func inputTypeName(_ type: any GraphQL.`Type`) throws(CodegenError) -> String {
        if let nonNull = type as? NonNullType {
            let inner = try inputTypeName(nonNull.type)
            return inner.hasSuffix("?") ? String(inner.dropLast()) : inner
        }
        if let list = type as? ListType {
            return "[\(try inputTypeName(list.type))]?"
        }
        guard let named = type as? NamedType else { return "JSONValue?" }
        return try namedTypeName(named.name.value, nested: nil) + "?"
    }

    /// The Swift type of an input object's field or a schema type's reference.
    private mutating func inputTypeName(_ type: any GraphQLType) throws(CodegenError) -> String {
        if let nonNull = type as? GraphQLNonNull {
            let inner = try inputTypeName(nonNull.ofType)
            return inner.hasSuffix("?") ? String(inner.dropLast()) : inner
        }
        if let list = type as? GraphQLList {
            return "[\(try inputTypeName(list.ofType))]?"
        }
        guard let named = type as? any GraphQLNamedType else { return "JSONValue?" }
        return try namedTypeName(named.name, nested: nil) + "?"
    }

    private mutating func useInput(_ name: String) throws(CodegenError) {
        guard inputs.insert(name).inserted,
            let input = schema.schema.getType(name: name) as? GraphQLInputObjectType
        else { return }
        for (_, field) in (try? input.fields()) ?? [:] {
            _ = try inputTypeName(field.type)
        }
    }

    // MARK: Schema types

    private mutating func schemaTypes() throws(CodegenError) -> Codegen.OutputFile {
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

    private func writeEnum(_ type: GraphQLEnumType, to writer: inout SwiftWriter) {
        var cases: [(name: String, value: String)] = []
        var taken: Set<String> = ["unknown"]
        for value in type.values {
            var name = SwiftNames.caseName(value.name)
            while taken.contains(name) { name += "_" }
            taken.insert(name)
            cases.append((SwiftNames.identifier(name), value.name))
        }
        writer.line(
            "/// The schema's enum `\(type.name)`, with ``unknown(_:)`` for a value added after generation.")
        writer.open("\(options.access)enum \(type.name): Hashable, Sendable, Codable")
        for (name, value) in cases {
            writer.line("/// `\(value)`.")
            writer.line("case \(name)")
        }
        writer.line("/// A value the schema did not have when this was generated.")
        writer.line("case unknown(String)")
        writer.blank()
        writer.line("/// The value as the server writes it.")
        writer.open("\(options.access)var rawValue: String")
        writer.open("switch self")
        for (name, value) in cases {
            writer.caseLine("case .\(name): \"\(value)\"")
        }
        writer.caseLine("case .unknown(let value): value")
        writer.close()
        writer.close()
        writer.blank()
        writer.line("/// The case of a value as the server writes it.")
        writer.open("\(options.access)init(rawValue: String)")
        writer.open("switch rawValue")
        for (name, value) in cases {
            writer.caseLine("case \"\(value)\": self = .\(name)")
        }
        writer.caseLine("default: self = .unknown(rawValue)")
        writer.close()
        writer.close()
        writer.blank()
        writer.line("/// Decodes the value's text.")
        writer.open("\(options.access)init(from decoder: any Decoder) throws")
        writer.line("self.init(rawValue: try decoder.singleValueContainer().decode(String.self))")
        writer.close()
        writer.blank()
        writer.line("/// Encodes the value's text.")
        writer.open("\(options.access)func encode(to encoder: any Encoder) throws")
        writer.line("var container = encoder.singleValueContainer()")
        writer.line("try container.encode(rawValue)")
        writer.close()
        writer.close()
        writer.blank()
    }

    private mutating func writeInput(_ type: GraphQLInputObjectType, to writer: inout SwiftWriter)
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
        let isClass = Self.holdsItself(type)
        writer.line("/// The schema's input object `\(type.name)`; a field left `nil` is not sent.")
        writer.open(
            "\(options.access)\(isClass ? "final class" : "struct") \(type.name): Encodable, Sendable, Hashable"
        )
        for field in fields {
            let description = descriptions[field.name].flatMap { $0.isEmpty ? nil : $0 } ?? "`\(field.name)`."
            for line in description.split(separator: "\n", omittingEmptySubsequences: false) {
                writer.documentation(String(line))
            }
            writer.line(
                "\(options.access)\(isClass ? "let" : "var") \(SwiftNames.identifier(field.name)): \(field.type)"
            )
        }
        writer.blank()
        writer.line("/// Creates the input.")
        writer.open("\(options.access)init(\(parameters(fields)))")
        for field in fields {
            writer.line("self.\(field.name) = \(SwiftNames.identifier(field.name))")
        }
        writer.close()
        if isClass {
            writer.blank()
            writer.line("/// Whether two inputs have the same fields.")
            writer.open("\(options.access)static func == (lhs: \(type.name), rhs: \(type.name)) -> Bool")
            let comparisons = fields.map {
                "lhs.\(SwiftNames.identifier($0.name)) == rhs.\(SwiftNames.identifier($0.name))"
            }
            writer.line(comparisons.isEmpty ? "true" : comparisons.joined(separator: " && "))
            writer.close()
            writer.blank()
            writer.line("/// Hashes the fields.")
            writer.open("\(options.access)func hash(into hasher: inout Hasher)")
            for field in fields {
                writer.line("hasher.combine(\(SwiftNames.identifier(field.name)))")
            }
            writer.close()
        }
        writer.close()
        writer.blank()
    }

    /// Whether an input object reaches itself through fields that are not lists.
    private static func holdsItself(_ type: GraphQLInputObjectType) -> Bool {
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

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}

/// Lines of Swift, indented by four spaces a level.
struct SwiftWriter {
    private var head = ""
    private var content = ""
    private var importModule = ""
    private var importsPublicly = false
    private var configuration = CodegenConfiguration()
    private var depth = 0

    /// The Swift written, ending with one line break. A module is imported
    /// `public`ly only where a public declaration names one of its types:
    /// an unused public import is a warning.
    var text: String {
        var body = content
        while body.hasSuffix("\n\n") { body.removeLast() }
        let usesLibrary = ["GraphQLOperation", "JSONValue", "GraphQLClient"].contains { body.contains($0) }
        let usesScalars = configuration.scalars.values.contains { body.contains($0) }
        var imports = [(importModule, importsPublicly && usesLibrary)]
        imports += configuration.imports.filter { $0 != importModule }.map {
            ($0, importsPublicly && usesScalars)
        }
        let lines = imports.sorted { $0.0 < $1.0 }.map { module, isPublic in
            (isPublic ? "public " : "") + "import \(module)\n"
        }
        return head + lines.joined() + "\n" + body
    }

    /// The comment that says the file is generated, and from what; the imports follow it.
    mutating func header(
        from document: String?, schema: String, import module: String, public isPublic: Bool,
        configuration: CodegenConfiguration
    ) {
        let source =
            document.map { "\($0), checked against \(schema)" } ?? "the types of \(schema) the documents use"
        head =
            "// Generated by paging codegen from \(source).\n"
            + "// Do not edit: change the .graphql files and generate again.\n\n"
        importModule = module
        importsPublicly = isPublic
        self.configuration = configuration
    }

    mutating func line(_ line: String) {
        content += String(repeating: "    ", count: depth) + line + "\n"
    }

    /// A line of a documentation comment.
    mutating func documentation(_ text: String) {
        line(text.isEmpty ? "///" : "/// " + text)
    }

    /// A line of a `switch`, at the switch's own indentation.
    mutating func caseLine(_ line: String) {
        content += String(repeating: "    ", count: max(depth - 1, 0)) + line + "\n"
    }

    mutating func blank() {
        if !content.hasSuffix("\n\n"), !content.hasSuffix("{\n") { content += "\n" }
    }

    /// The width swift-format keeps lines to (the repository's `.swift-format`).
    static let width = 110

    /// Opens a declaration's body, broken as swift-format breaks a long one:
    /// the brace on a line of its own when only it is over, else the
    /// parameters on lines of their own, filled.
    mutating func open(_ declaration: String) {
        let indent = String(repeating: "    ", count: depth)
        if indent.count + declaration.count + 2 <= Self.width {
            line(declaration + " {")
        } else if indent.count + declaration.count <= Self.width || !declaration.hasSuffix(")") {
            line(declaration)
            line("{")
        } else if let open = declaration.firstIndex(of: "(") {
            line(String(declaration[...open]))
            let parameters = Self.splitTopLevel(
                String(
                    declaration[
                        declaration.index(after: open)..<declaration.index(before: declaration.endIndex)]))
            var current = ""
            let room = Self.width - indent.count - 4
            for parameter in parameters {
                let piece = current.isEmpty ? parameter : current + " " + parameter
                if piece.count + 1 > room, !current.isEmpty {
                    line("    " + current)
                    current = parameter
                } else {
                    current = piece
                }
            }
            if !current.isEmpty { line("    " + String(current.dropLast(current.hasSuffix(",") ? 1 : 0))) }
            line(") {")
        } else {
            line(declaration + " {")
        }
        depth += 1
    }

    /// `a: [Int], b: X? = nil` → `["a: [Int],", "b: X? = nil"]`: split at the
    /// commas outside brackets and parentheses, each but the last keeping its comma.
    static func splitTopLevel(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            switch character {
            case "(", "[", "<": depth += 1
            case ")", "]", ">": depth -= 1
            default: break
            }
            if character == ",", depth == 0 {
                parts.append(current.trimmingCharacters(in: " ") + ",")
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.trimmingCharacters(in: " ").isEmpty { parts.append(current.trimmingCharacters(in: " ")) }
        return parts
    }

    mutating func close() {
        if content.hasSuffix("\n\n") { content.removeLast() }
        depth -= 1
        line("}")
    }

    /// `prefix` then a raw multi-line string literal of `string`.
    mutating func multilineString(_ prefix: String, _ string: String) {
        var hashes = "#"
        while string.contains("\"\"\"" + hashes) || string.contains("\\" + hashes) { hashes += "#" }
        line(prefix + hashes + "\"\"\"")
        // The content and the closing delimiter one level in, as swift-format writes them.
        depth += 1
        for contentLine in string.split(separator: "\n", omittingEmptySubsequences: false) {
            if contentLine.allSatisfy({ $0 == " " || $0 == "\t" }) {
                content += "\n"
            } else {
                line(String(contentLine))
            }
        }
        line("\"\"\"" + hashes)
        depth -= 1
    }
}
