import Foundation
import GraphQL
import PagingGraphQLCore

/// Writes the Swift of a module's documents: one file per `.graphql` file
/// (its operations and fragments) and one of the schema's enums and input
/// objects they use.
struct SwiftGenerator {
    let schema: CodegenSchema
    let documents: OperationDocuments
    let options: Codegen.Options

    /// The Swift names of the module's top-level types.
    let names: TopLevelNames

    /// The Swift path of each struct written (`Data.Rocket.Launches`), by its model.
    var paths: [ObjectIdentifier: String] = [:]
    /// The enums and input objects the documents use, by GraphQL name.
    var enums: Set<String> = []
    var inputs: Set<String> = []
    /// The fields of the schema's types, by name, as the selections meet them.
    var fieldMaps: [String: GraphQLFieldMap] = [:]

    init(schema: CodegenSchema, documents: OperationDocuments, options: Codegen.Options) {
        self.schema = schema
        self.documents = documents
        self.options = options
        // The modules imported, and the types custom scalars are mapped to, as the code names
        // them: no generated type may hide one.
        let named =
            [options.importModule] + options.configuration.imports + options.configuration.scalars.values
        names = TopLevelNames(
            schema: schema.schema, documents: documents,
            reserved: Set(named.map { String($0.prefix { $0.isLetter || $0.isNumber || $0 == "_" }) }))
    }

    /// A type of the library, named through the module the files import
    /// (`PagingGraphQLClient.JSONValue`), so that no generated type hides it.
    func library(_ name: String) -> String {
        options.importModule + "." + name
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
        // Two documents named alike in different folders, or one named as the schema's types'
        // file, would write one file: the later would replace the earlier.
        var writers: [String: String] = [options.schemaTypesFile: "the schema's types"]
        for file in documents.files {
            let output = Self.outputName(for: file.name)
            if let earlier = writers[output] {
                errors.append(
                    CodegenError(
                        .invalidDocument, file: file.name,
                        "it would be written to \(output), as \(earlier) is; rename one of them."))
            } else {
                writers[output] = file.name
            }
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

    mutating func writeOperation(
        _ operation: OperationDefinition, in file: OperationDocuments.File, to writer: inout SwiftWriter
    ) throws(CodegenError) {
        guard let name = operation.name?.value else { return }
        let kind = operation.operation
        let typeName = names.operation(name)
        guard let root = rootType(of: kind) else {
            throw OperationDocuments.error(
                .invalidDocument, at: operation, "the schema has no \(kind.rawValue) type.")
        }
        let variables = try operation.variableDefinitions.map { definition throws(CodegenError) in
            Parameter(
                name: definition.variable.name.value,
                type: try inputTypeName(
                    definition.type, at: definition, optional: definition.defaultValue != nil))
        }
        let model = try SelectionModel.make(
            operation.selectionSet, on: root, documents: documents, fieldMaps: &fieldMaps)

        writer.line("/// `\(kind.rawValue) \(name)`, from \(Self.baseName(file.name)).")
        writer.open("\(options.access)struct \(typeName): \(library("GraphQLOperation"))")
        writer.line("/// The document sent: the operation and the fragments it uses.")
        writer.multilineString(
            "\(options.access)static let document: Swift.String = ", documentText(of: operation))
        writer.blank()
        writer.line("/// The document sent.")
        writer.line("\(options.access)var document: Swift.String { Self.document }")
        writer.line("/// `\(name)`.")
        writer.line("\(options.access)var operationName: Swift.String? { \(Self.stringLiteral(name)) }")
        writer.line("/// The values of the variables.")
        writer.line("\(options.access)var variables: Variables")
        writer.blank()
        writer.line("/// Creates the operation with the values of its variables.")
        let initParameters = Parameter.declarations(variables, avoiding: [])
        writer.open("\(options.access)init(\(initParameters.list))")
        writer.line("self.variables = .init(\(Parameter.arguments(variables, initParameters.internalNames)))")
        writer.close()
        writer.blank()
        writer.line(
            "/// The operation's variables; one left `nil` is not sent (the server's default applies).")
        writeMemberwiseType(
            "\(options.access)struct Variables: Swift.Encodable, Swift.Sendable, Swift.Hashable",
            parts: variables.map {
                (
                    part: Property(
                        name: SwiftNames.propertyName($0.name), type: $0.type, doc: ["`$\($0.name)`."],
                        key: $0.name),
                    kind: .field
                )
            },
            decodes: false, taken: [], to: &writer, closing: true)
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
    func writeConnectionFactory(
        of operation: OperationDefinition, named typeName: String, model: SelectionModel,
        variables: [Parameter], to writer: inout SwiftWriter
    ) throws(CodegenError) {
        guard let (field, nodePath) = try listSite(of: model, at: operation), let key = field.connectionKey
        else {
            return
        }
        let pagination = Set(field.paginationVariables)
        let others = variables.filter { !pagination.contains($0.name) }
        // The body's own names: a variable named so would hide them.
        let declared = Parameter.declarations(
            others, avoiding: ["client", "variables", "Self", options.importModule])
        var arguments: [String] = []
        for variable in variables {
            if let index = others.firstIndex(where: { $0.name == variable.name }) {
                arguments.append("\(Parameter.label(variable.name)): \(declared.internalNames[index])")
            } else if !variable.type.hasSuffix("?") {
                // A non-null page size the source sets for each page; a placeholder here.
                guard variable.type == "Swift.Int" else {
                    throw OperationDocuments.error(
                        .unsupported, at: operation,
                        "the pagination variable $\(variable.name) is non-null; make it nullable (the first page has no cursor)."
                    )
                }
                arguments.append("\(Parameter.label(variable.name)): 0")
            }
        }
        writer.line("/// The `@connection(key: \"\(key)\")` list of `\(typeName)`.")
        writer.open("extension \(typeName)")
        writer.line("/// A node of the list.")
        writer.line("\(options.access)typealias ListNode = \(nodePath)")
        writer.blank()
        writer.line("/// The document as written, `@connection` included: the list reads it.")
        writer.multilineString(
            "\(options.access)static let connectionDocument: Swift.String = ",
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
        let parameters = (["client: \(library("GraphQLClient"))"] + [declared.list].filter { !$0.isEmpty })
            .joined(separator: ", ")
        writer.open(
            "\(options.access)static func source(\(parameters)) throws -> \(library("ConnectionSource"))<ListNode>"
        )
        writer.line(
            "let variables = try \(library("JSONValue"))(encoding: Self.Variables(\(arguments.joined(separator: ", ")))).objectValue ?? [:]"
        )
        writer.line("return \(library("ConnectionSource"))(")
        writer.line("    client: client,")
        writer.line("    document: try \(library("ConnectionDocument"))(")
        writer.line(
            "        Self.connectionDocument, connectionKey: \(Self.stringLiteral(key)), operationName: \(Self.stringLiteral(operation.name?.value ?? ""))),"
        )
        writer.line("    variables: variables, as: Self.ListNode.self)")
        writer.close()
        writer.close()
        writer.blank()
    }

    mutating func writeFragment(_ fragment: FragmentDefinition, to writer: inout SwiftWriter)
        throws(CodegenError)
    {
        let condition = fragment.typeCondition.name.value
        guard let type = schema.schema.getType(name: condition) else { return }
        let model = try SelectionModel.make(
            fragment.selectionSet, on: type, documents: documents, fieldMaps: &fieldMaps)
        let typeName = names.fragment(fragment.name.value)
        writer.line(
            "/// `fragment \(fragment.name.value) on \(condition)`: its fields, as any data that spreads it holds them."
        )
        try writeStruct(named: typeName, model: model, path: typeName, to: &writer)
        writer.blank()
        if let original = documents.paginationFragments[fragment.name.value] {
            try writePaginationFragment(original, named: typeName, model: model, to: &writer)
        }
    }

    /// The `@connection` field of a selection and the Swift path of its
    /// nodes' struct; `nil` when it has none.
    /// - Throws: ``CodegenError`` when it has more than one, or selects its
    ///   nodes through a fragment.
    func listSite(of model: SelectionModel, at definition: any Node) throws(CodegenError)
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

    /// For a `@refetchable` fragment: its list's node type and its document
    /// as written, which make it `RefetchableFragmentData` (whose
    /// `paginationFragment(client:nodeID:)` starts a list from the data),
    /// and `paginationFragment(client:)` when it selects `id`.
    func writePaginationFragment(
        _ fragment: FragmentDefinition, named typeName: String, model: SelectionModel,
        to writer: inout SwiftWriter
    ) throws(CodegenError) {
        let name = fragment.name.value
        guard let (_, nodePath) = try listSite(of: model, at: fragment) else {
            throw OperationDocuments.error(
                .invalidDocument, at: fragment,
                "the @refetchable fragment \(name) has no @connection field to page.")
        }
        if let field = model.fields.first(where: { ["ListNode", "paginationDocument"].contains($0.key) }) {
            throw OperationDocuments.error(
                .unsupported, at: fragment,
                "the field \(field.key) of the @refetchable fragment \(name) takes the name of a member its list needs; give it an alias."
            )
        }
        let text = try paginationText(of: fragment)
        // A node id is a string: an `id` of another type is passed by the caller.
        let selectsID = model.fields.contains { field in
            field.key == "id" && field.name == "id" && !field.conditional
                && ["ID", "String"].contains(SelectionModel.namedType(of: field.type)?.name)
        }
        writer.line("/// The list of `\(name)`'s `@connection`, paged by its `@refetchable` query.")
        writer.open("extension \(typeName): \(library("RefetchableFragmentData"))")
        writer.line("/// A node of the list.")
        writer.line("\(options.access)typealias ListNode = \(nodePath)")
        writer.blank()
        writer.line("/// The fragment as written, its directives included, with the fragments it uses.")
        writer.multilineString("\(options.access)static let paginationDocument: Swift.String = ", text)
        if selectsID {
            writer.blank()
            writer.line(
                "/// The fragment's list, starting from this data as the parent query fetched it: its nodes are"
            )
            writer.line(
                "/// the first page, and the refetch query asks only for the pages after it (as Relay does).")
            writer.line(
                "/// Make a pager or a list of it (`makePager(configuration:)`, `makeList(configuration:)`).")
            writer.line("/// - Parameter client: the client the refetch query is sent with.")
            writer.line(
                "/// - Throws: `GraphQLDocumentError` or `GraphQLPagerError` if the fragment cannot be paged."
            )
            writer.open(
                "\(options.access)func paginationFragment(client: \(library("GraphQLClient"))) throws -> \(library("PaginationFragment"))<ListNode>"
            )
            writer.line("try self.paginationFragment(client: client, nodeID: self.id)")
            writer.close()
        }
        writer.close()
        writer.blank()
    }

    func rootType(of operation: OperationType) -> GraphQLObjectType? {
        switch operation {
        case .query: schema.schema.queryType
        case .mutation: schema.schema.mutationType
        case .subscription: schema.schema.subscriptionType
        }
    }

    /// A Swift string literal of a GraphQL name or key (they hold no quote or backslash).
    static func stringLiteral(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }
}
