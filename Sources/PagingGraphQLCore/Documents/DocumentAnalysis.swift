package import GraphQL

/// A field carrying `@connection`, where the operation reaches it.
package struct ConnectionSite {
    /// The `@connection(key:)`, or the field's response key.
    package var key: String
    /// The field as written.
    package var field: Field
    /// The response path from the root of `data`.
    package var path: [GraphQLPathSegment]
    /// Where the field is written: `operation X` or `fragment F`.
    package var owner: String
}

/// What a connection field selects, by response key.
package struct ConnectionShape {
    package var edgesKey: String?
    package var edgeNodeKey: String?
    package var nodesKey: String?

    /// The first `edges` that selects `node`, and the first `nodes`, of a
    /// connection field's own selections.
    package init(of connection: Field) {
        for selection in connection.selectionSet?.selections ?? [] {
            guard let field = selection as? Field else { continue }
            switch field.name.value {
            case "edges" where edgesKey == nil:
                let node = field.selectionSet?.selections.lazy.compactMap { $0 as? Field }.first {
                    $0.name.value == "node"
                }
                if let node {
                    edgesKey = field.responseKey
                    edgeNodeKey = node.responseKey
                }
            case "nodes" where nodesKey == nil:
                nodesKey = field.responseKey
            default:
                break
            }
        }
    }
}

/// The analysis of a parsed document around one of its operations.
package struct DocumentAnalysis {
    package let document: Document
    package let operation: OperationDefinition
    package let fragments: [String: FragmentDefinition]

    /// Parses a document, turning a syntax error into a ``GraphQLDocumentError``.
    package static func parse(_ source: String) throws(GraphQLDocumentError) -> Document {
        do {
            return try LexableText.parse(source)
        } catch let error as GraphQL.GraphQLError {
            let location = error.locations.first
            let firstLine =
                error.message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init)
                ?? error.message
            // "Syntax Error GraphQL request (2:5) Expected Name, found }"
            let problem = firstLine.range(of: ") ").map { String(firstLine[$0.upperBound...]) } ?? firstLine
            let place = location.map { " at line \($0.line), column \($0.column)" } ?? ""
            throw GraphQLDocumentError(
                .syntax,
                "The GraphQL document has a syntax error\(place): \(problem).",
                line: location?.line,
                column: location?.column
            )
        } catch {
            throw GraphQLDocumentError(.syntax, "The GraphQL document could not be parsed: \(error).")
        }
    }

    package init(document: Document, operationName: String?) throws(GraphQLDocumentError) {
        self.document = document
        var fragments: [String: FragmentDefinition] = [:]
        var operations: [OperationDefinition] = []
        for definition in document.definitions {
            if let fragment = definition as? FragmentDefinition {
                fragments[fragment.name.value] = fragment
            } else if let operation = definition as? OperationDefinition {
                operations.append(operation)
            }
        }
        self.fragments = fragments
        let names = operations.map { $0.name?.value ?? "(anonymous)" }
        if let operationName {
            guard let operation = operations.first(where: { $0.name?.value == operationName }) else {
                throw GraphQLDocumentError(
                    .operation,
                    "The GraphQL document has no operation named \"\(operationName)\"; it has \(Self.list(names, empty: "none"))."
                )
            }
            self.operation = operation
        } else {
            guard let operation = operations.first else {
                throw GraphQLDocumentError(
                    .operation,
                    "The GraphQL document has no operation; add a query such as `query Name($first: Int, $after: String) { ... }`."
                )
            }
            guard operations.count == 1 else {
                throw GraphQLDocumentError(
                    .operation,
                    "The GraphQL document has \(operations.count) operations (\(Self.list(names, empty: ""))); pass operationName to choose one."
                )
            }
            self.operation = operation
        }
    }

    /// The connection to page: the one with the key, or the only one.
    package func connectionSite(key: String?) throws(GraphQLDocumentError) -> ConnectionSite {
        var collector = SiteCollector()
        _ = try SelectionWalker(fragments: fragments).walk(
            operation.selectionSet, in: SelectionContext(definition: operation), with: &collector)
        let sites = collector.sites
        let operationText = operation.name.map { "operation \"\($0.value)\"" } ?? "the operation"
        let keys = Array(Set(sites.map(\.key))).sorted()
        var chosen = sites
        if let key {
            chosen = sites.filter { $0.key == key }
            guard !chosen.isEmpty else {
                throw GraphQLDocumentError(
                    .noConnection,
                    "No field of \(operationText) carries @connection(key: \"\(key)\"); "
                        + (keys.isEmpty
                            ? "no field carries @connection at all."
                            : "the keys are \(Self.list(keys, empty: "")).")
                )
            }
        }
        guard let first = chosen.first else {
            throw GraphQLDocumentError(
                .noConnection,
                "No field of \(operationText) carries @connection; mark the field to page, "
                    + "for example `launches(first: $first, after: $after) @connection(key: \"List_launches\")`."
            )
        }
        let fields = Set(chosen.map { Self.identity(of: $0.field) })
        if fields.count > 1 {
            throw GraphQLDocumentError(
                .ambiguousConnection,
                "\(operationText.prefix(1).uppercased() + operationText.dropFirst()) has \(chosen.count) fields with @connection "
                    + "(keys \(Self.list(chosen.map(\.key), empty: ""))); pass connectionKey to choose one, "
                    + "or give each @connection a different key."
            )
        }
        if chosen.count > 1 {
            let paths = chosen.map { GraphQLPathSegment.describe($0.path) }
            throw GraphQLDocumentError(
                .ambiguousConnection,
                "The @connection \"\(first.key)\" (in \(first.owner)) is reached by \(chosen.count) paths "
                    + "(\(paths.joined(separator: ", "))) because its fragment is spread more than once; spread it once.",
                line: Self.place(of: first.field)?.line,
                column: Self.place(of: first.field)?.column
            )
        }
        return first
    }

    /// The fields carrying `@connection` that selections reach, through
    /// fragments (each on every path that reaches it); a spread of a fragment
    /// the document does not define is an error.
    private struct SiteCollector: SelectionVisitor {
        typealias Failure = GraphQLDocumentError
        var sites: [ConnectionSite] = []

        mutating func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
            guard let directive = field.directives.first(where: { $0.name.value == "connection" }) else {
                return .enter(field)
            }
            let key = directive.arguments.first { $0.name.value == "key" }.flatMap {
                ($0.value as? StringValue)?.value
            }
            sites.append(
                ConnectionSite(
                    key: key ?? field.responseKey, field: field,
                    path: context.path + [.key(field.responseKey)],
                    owner: context.owner))
            return .keep(field)
        }

        func spread(_ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext)
            throws(GraphQLDocumentError) -> SelectionStep<FragmentSpread>
        {
            guard fragment != nil else {
                let place = DocumentAnalysis.place(of: spread)
                throw GraphQLDocumentError(
                    .unknownFragment,
                    "The document spreads the fragment \"\(spread.name.value)\"\(DocumentAnalysis.placeText(place)) but does not define it; add its definition to the document.",
                    line: place?.line,
                    column: place?.column
                )
            }
            return .enter(spread)
        }
    }

    /// What the connection field selects: `edges { node }` and/or `nodes`.
    package static func shape(of site: ConnectionSite) throws(GraphQLDocumentError) -> ConnectionShape {
        let shape = ConnectionShape(of: site.field)
        guard shape.edgesKey != nil || shape.nodesKey != nil else {
            let place = place(of: site.field)
            throw GraphQLDocumentError(
                .noEdgesOrNodes,
                "The connection field \"\(site.field.name.value)\"\(placeText(place)) selects neither `edges { node { ... } }` "
                    + "nor `nodes { ... }`; select one of them so the pager has items to show.",
                line: place?.line,
                column: place?.column
            )
        }
        return shape
    }

    /// The variables of the connection's pagination arguments, checked.
    package func paginationVariables(of site: ConnectionSite) throws(GraphQLDocumentError)
        -> PaginationVariables
    {
        let place = Self.place(of: site.field)
        let fieldName = site.field.name.value
        let declared = Set(operation.variableDefinitions.map(\.variable.name.value))
        var variables = PaginationVariables()
        for argument in site.field.arguments {
            let name = argument.name.value
            guard ["first", "after", "last", "before"].contains(name) else { continue }
            // A count written as a literal (gh's `first: 100`) is kept: every page asks for it.
            if name == "first" || name == "last", let literal = argument.value as? IntValue,
                let count = Int(literal.value), count >= 0
            {
                if name == "first" { variables.fixedFirst = count } else { variables.fixedLast = count }
                continue
            }
            guard let variable = argument.value as? Variable else {
                let literal = GraphQL.print(ast: argument.value)
                let what = name == "first" || name == "last" ? "a count of 0 or more" : "a variable"
                throw GraphQLDocumentError(
                    .paginationArguments,
                    "The connection field \"\(fieldName)\"\(Self.placeText(place)) gives its pagination argument \"\(name)\" "
                        + "as the literal \(literal); pass \(what) instead, such as \(name): $\(name), so the pager can set it.",
                    line: place?.line,
                    column: place?.column
                )
            }
            let variableName = variable.name.value
            guard declared.contains(variableName) else {
                throw GraphQLDocumentError(
                    .paginationArguments,
                    "The connection field \"\(fieldName)\"\(Self.placeText(place)) passes $\(variableName) to \"\(name)\", "
                        + "but the operation does not declare $\(variableName); add it to the operation's variables.",
                    line: place?.line,
                    column: place?.column
                )
            }
            switch name {
            case "first": variables.first = variableName
            case "after": variables.after = variableName
            case "last": variables.last = variableName
            default: variables.before = variableName
            }
        }
        guard variables.pagesForward || variables.pagesBackward else {
            throw GraphQLDocumentError(
                .paginationArguments,
                "The connection field \"\(fieldName)\"\(Self.placeText(place)) takes neither after: nor before:; "
                    + "give it `first: $first, after: $after` to page forward or `last: $last, before: $before` to page backward.",
                line: place?.line,
                column: place?.column
            )
        }
        return variables
    }

    // MARK: Helpers

    /// A document's operations and fragments as GraphQLSwift prints them, by
    /// `operation Name` and `fragment Name`: what each asks, field by field,
    /// whatever the spacing of the text. Tests compare documents with it.
    /// - Throws: ``GraphQLDocumentError`` for a syntax error.
    /// - Complexity: O(*n*) for a document of *n* characters.
    package static func printedDefinitions(_ text: String) throws(GraphQLDocumentError) -> [String: String] {
        var definitions: [String: String] = [:]
        for definition in try parse(text).definitions {
            if let operation = definition as? OperationDefinition {
                definitions["operation " + (operation.name?.value ?? "")] = GraphQL.print(ast: operation)
            } else if let fragment = definition as? FragmentDefinition {
                definitions["fragment " + fragment.name.value] = GraphQL.print(ast: fragment)
            }
        }
        return definitions
    }

    /// Identifies a node of the parsed document by its position in the source.
    package static func identity(of node: any Node) -> Int {
        node.loc?.start ?? -1
    }

    package static func place(of node: any Node) -> (line: Int, column: Int)? {
        node.loc.map { ($0.startToken.line, $0.startToken.column) }
    }

    package static func placeText(_ place: (line: Int, column: Int)?) -> String {
        place.map { " (line \($0.line), column \($0.column))" } ?? ""
    }

    package static func list(_ names: [String], empty: String) -> String {
        names.isEmpty ? empty : names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
