import Foundation
import GraphQL
import PagingGraphQLCore

/// The `.graphql` files of one module, parsed and checked against a schema:
/// their operations and fragments, by name, each with the file it is in.
struct OperationDocuments {
    /// One file's text and what it defines.
    struct File {
        /// The file's name as given to the generator.
        let name: String
        /// Its text.
        let text: String
        /// Its operations, in order.
        var operations: [OperationDefinition] = []
        /// Its fragments, in order.
        var fragments: [FragmentDefinition] = []
    }

    /// The files, in the order given.
    let files: [File]
    /// Every fragment, by name.
    let fragments: [String: FragmentDefinition]
    /// The schema they were checked against.
    let schema: CodegenSchema
    /// The `@refetchable` fragments as written, by name, with their
    /// directives: `PaginationFragmentDocument` reads them at run time.
    let paginationFragments: [String: FragmentDefinition]

    /// The client-side directives the library reads, which a server's
    /// schema does not declare: documents may use them.
    static let clientDirectives = """
        directive @connection(key: String, filter: [String]) on FIELD
        """

    /// Reads, parses and validates files.
    /// - Parameters:
    ///   - files: the files' names and texts.
    ///   - schema: the schema they are checked against.
    /// - Throws: ``CodegenFailure`` with every problem found: syntax errors
    ///   (each file's first), then names defined twice, then what the
    ///   validator found.
    init(files texts: [(name: String, text: String)], schema: CodegenSchema) throws(CodegenFailure) {
        var errors: [CodegenError] = []
        var files: [File] = []
        var documents: [Document] = []
        for (name, text) in texts {
            do {
                let document = try LexableText.parse(text, name: name)
                var file = File(name: name, text: text)
                for definition in document.definitions {
                    if let operation = definition as? OperationDefinition {
                        file.operations.append(operation)
                    } else if let fragment = definition as? FragmentDefinition {
                        file.fragments.append(fragment)
                    } else {
                        errors.append(
                            Self.error(
                                .invalidDocument, at: definition,
                                "only operations and fragments belong in a document; move type definitions to the schema."
                            ))
                    }
                }
                files.append(file)
                documents.append(document)
            } catch let error as GraphQLError {
                let place = error.locations.first
                errors.append(
                    CodegenError(
                        .invalidDocument, file: name, line: place?.line, column: place?.column,
                        CodegenSchema.sentence(error.message)))
            } catch {
                errors.append(CodegenError(.invalidDocument, file: name, CodegenSchema.sentence("\(error)")))
            }
        }
        var fragments: [String: FragmentDefinition] = [:]
        var operations: [String: OperationDefinition] = [:]
        for file in files {
            for operation in file.operations {
                guard let name = operation.name?.value else {
                    errors.append(
                        Self.error(
                            .invalidDocument, at: operation,
                            "an operation needs a name to become a type; name it, such as `query LaunchList { ... }`."
                        ))
                    continue
                }
                if let duplicate = Self.claim(name, by: operation, in: &operations, kind: "operations") {
                    errors.append(duplicate)
                }
            }
            for fragment in file.fragments {
                if let duplicate = Self.claim(
                    fragment.name.value, by: fragment, in: &fragments, kind: "fragments")
                {
                    errors.append(duplicate)
                }
            }
        }
        var paginationFragments: [String: FragmentDefinition] = [:]
        if errors.isEmpty {
            // Relay's fragment directives are the client's: the server (and the validator) sees the
            // fragment without them, and each operation declares the fragment variables it reaches.
            do {
                (files, fragments, paginationFragments) = try Self.resolvingFragmentArguments(
                    files, fragments)
            } catch {
                errors.append(error)
            }
        }
        if errors.isEmpty, let first = documents.first {
            // One document of every file's definitions, so that a fragment may be used in another file
            // than its own; each node keeps its file (its source) for the places of errors.
            let definitions: [any Node] = files.flatMap { file in
                file.operations.map { $0 as any Node } + file.fragments.map { $0 as any Node }
            }
            let all = first.set(value: .array(definitions), key: "definitions")
            for error in validate(schema: schema.validationSchema, ast: all) {
                let place = error.locations.first
                errors.append(
                    CodegenError(
                        .invalidDocument, file: error.source?.name ?? texts[0].name, line: place?.line,
                        column: place?.column, CodegenSchema.sentence(error.message)))
            }
        }
        guard errors.isEmpty else { throw CodegenFailure(errors: errors) }
        // Each @connection field selects what its list pages on, by the rule the pagers complete
        // it with: the types hold it, and the documents ask for it.
        var completer = ConnectionCompleter()
        let walker = SelectionWalker(fragments: [:])
        // Loops, not closures: the visitor is passed inout straight from this frame (an empty
        // visitor captured by a closure and passed inout made ThreadSanitizer's access check read
        // an address that was never allocated).
        do {
            for index in files.indices {
                for operation in files[index].operations.indices {
                    files[index].operations[operation] = try walker.rewrite(
                        files[index].operations[operation], with: &completer)
                }
                for fragment in files[index].fragments.indices {
                    files[index].fragments[fragment] = try walker.rewrite(
                        files[index].fragments[fragment], with: &completer)
                }
            }
        } catch {
            throw CodegenFailure(errors: [CodegenError(.invalidDocument, file: texts[0].name, error.message)])
        }
        fragments = Dictionary(
            files.flatMap(\.fragments).map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        self.files = files
        self.fragments = fragments
        self.paginationFragments = paginationFragments
        self.schema = schema
    }

    /// The files with Relay's fragment directives (`@refetchable`,
    /// `@argumentDefinitions`) taken out of their fragments, and each
    /// operation declaring the variables of the fragments it reaches that it
    /// does not declare itself (with their defaults); the fragments by name,
    /// as rewritten; and the `@refetchable` fragments as written.
    private static func resolvingFragmentArguments(_ files: [File], _ fragments: [String: FragmentDefinition])
        throws(CodegenError) -> ([File], [String: FragmentDefinition], [String: FragmentDefinition])
    {
        var arguments: [String: [(name: String, type: String, defaultValue: String?)]] = [:]
        var pagination: [String: FragmentDefinition] = [:]
        for (name, fragment) in fragments {
            let directives = Set(fragment.directives.map(\.name.value))
            guard directives.contains("argumentDefinitions") || directives.contains("refetchable") else {
                continue
            }
            do throws(GraphQLDocumentError) {
                arguments[name] = try FragmentArgumentDefinitions.parse(fragment)
            } catch {
                throw CodegenError(
                    .invalidDocument, file: fragment.loc?.source.name ?? "<document>", line: error.line,
                    column: error.column, error.message)
            }
            if let refetchable = fragment.directives.first(where: { $0.name.value == "refetchable" }) {
                guard
                    refetchable.arguments.contains(where: {
                        $0.name.value == "queryName" && $0.value is StringValue
                    })
                else {
                    throw Self.error(
                        .invalidDocument, at: fragment,
                        "@refetchable on \(name) needs the name of its refetch query: @refetchable(queryName: \"\(name)PaginationQuery\")."
                    )
                }
                pagination[name] = fragment
            }
        }
        guard !arguments.isEmpty else { return (files, fragments, [:]) }
        var rewritten: [String: FragmentDefinition] = [:]
        var files = files
        for index in files.indices {
            files[index].fragments = files[index].fragments.map { fragment in
                let kept = fragment.directives.filter {
                    !["argumentDefinitions", "refetchable"].contains($0.name.value)
                }
                let stripped = fragment.set(value: .array(kept), key: "directives")
                rewritten[fragment.name.value] = stripped
                return stripped
            }
            files[index].operations = try files[index].operations.map { operation throws(CodegenError) in
                let declared = Set(operation.variableDefinitions.map(\.variable.name.value))
                var missing: [String] = []
                var seen: Set<String> = declared
                for fragment in SelectionWalker(fragments: fragments).reachedFragments(
                    from: operation, selectionSet: operation.selectionSet)
                {
                    for argument in arguments[fragment] ?? [] where seen.insert(argument.name).inserted {
                        missing.append(
                            "$\(argument.name): \(argument.type)"
                                + (argument.defaultValue.map { " = \($0)" } ?? ""))
                    }
                }
                guard !missing.isEmpty else { return operation }
                let snippet = "query Q(\(missing.joined(separator: ", "))) { __typename }"
                guard let parsed = try? LexableText.parse(snippet),
                    let added = (parsed.definitions.first as? OperationDefinition)?.variableDefinitions
                else {
                    throw Self.error(
                        .invalidDocument, at: operation, "the fragment variables \(missing) do not parse.")
                }
                return operation.set(
                    value: .array(
                        operation.variableDefinitions.map { $0 as any Node } + added.map { $0 as any Node }),
                    key: "variableDefinitions")
            }
        }
        return (files, rewritten, pagination)
    }

    /// Takes a name for a definition, or says where the definition that
    /// took it first is.
    private static func claim<Definition: Node>(
        _ name: String, by definition: Definition, in taken: inout [String: Definition], kind: String
    ) -> CodegenError? {
        if let first = taken[name] {
            return error(
                .duplicateName, at: definition,
                "there are two \(kind) named \(name); the other is at \(place(of: first)). Rename one.")
        }
        taken[name] = definition
        return nil
    }

    /// An error at a node.
    static func error(_ code: CodegenError.Code, at node: any Node, _ message: String) -> CodegenError {
        let (file, line, column) = where_(node)
        return CodegenError(code, file: file, line: line, column: column, message)
    }

    /// `file:line:column` of a node.
    static func place(of node: any Node) -> String {
        let (file, line, column) = where_(node)
        return [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
    }

    private static func where_(_ node: any Node) -> (String, Int?, Int?) {
        guard let loc = node.loc else { return ("<document>", nil, nil) }
        let (line, column) = lineAndColumn(in: loc.source.body, at: loc.start)
        return (loc.source.name, line, column)
    }

    /// The line and column, from 1, of a UTF-8 offset in a text; `\r\n`, `\n` and `\r` end lines.
    static func lineAndColumn(in text: String, at offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var previous: UInt8 = 0
        for (index, byte) in text.utf8.prefix(offset).enumerated() {
            if byte == 10 || byte == 13 {
                // The \n of a \r\n ends the line the \r ended.
                if !(byte == 10 && previous == 13) { line += 1 }
                lineStart = index + 1
            }
            previous = byte
        }
        return (line, offset - lineStart + 1)
    }
}

/// Every problem the generator found; it wrote nothing.
public struct CodegenFailure: Error, Sendable, CustomStringConvertible {
    /// The problems, in the order found: by file, then by place.
    public let errors: [CodegenError]

    /// One line per problem, `file:line:column: error: message`.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
