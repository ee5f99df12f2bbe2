import GraphQL

extension ConnectionDocument {
    /// Analyses a document that may leave its connection unmarked, as
    /// documents written for other tools do (gh's
    /// `repositories(first: 100, after: $endCursor) { nodes { ... } pageInfo { ... } }`).
    ///
    /// A document that marks a connection with `@connection` is analysed as
    /// ``init(_:connectionKey:operationName:)`` does. One that marks none
    /// is paged on its only field that pages by cursor: one that takes
    /// `after:` or `before:` as a variable and selects `pageInfo`, `edges` or
    /// `nodes`, in an operation or a fragment, at any depth. That field is
    /// given `@connection` with its response key as the key
    /// (``connectionKey``). A page size given as a literal is kept
    /// (`PaginationVariables.fixedFirst`).
    ///
    /// ```swift
    /// let document = try ConnectionDocument(inferringConnectionIn: """
    ///     query($endCursor: String) {
    ///       viewer { repositories(first: 100, after: $endCursor) { nodes { name } } }
    ///     }
    ///     """)
    /// document.connectionPath          // ["viewer", "repositories"]
    /// document.variables.fixedFirst    // 100
    /// ```
    /// - Parameters:
    ///   - source: the GraphQL document.
    ///   - operationName: the operation to use, required when the document
    ///     has more than one.
    /// - Throws: `GraphQLDocumentError`: `noConnection` when no field pages
    ///   by cursor, `ambiguousConnection` when several do (mark the one to
    ///   page), or what the analysis of the marked document finds.
    /// - Complexity: O(*n*) for a document of *n* selections, twice when it
    ///   marks no connection.
    public init(inferringConnectionIn source: String, operationName: String? = nil)
        throws(GraphQLDocumentError)
    {
        let document = try DocumentAnalysis.parse(source)
        do {
            try self.init(parsed: document, connectionKey: nil, operationName: operationName)
        } catch  where error.code == .noConnection {
            let marked = try Self.markingOnlyCursorField(in: document)
            // Printed and parsed again: the analysis tells fields apart by their places in one text.
            try self.init(
                parsed: try DocumentAnalysis.parse(GraphQL.print(ast: marked.document)),
                connectionKey: marked.key, operationName: operationName)
        }
    }

    /// The document with `@connection(key:)` added to its only field that
    /// pages by cursor (of every operation and fragment, not following
    /// spreads: each fragment is looked at once), and the key given.
    private static func markingOnlyCursorField(in document: Document) throws(GraphQLDocumentError)
        -> (document: Document, key: String)
    {
        var candidates: [Field] = []
        for definition in document.definitions {
            let selectionSet =
                (definition as? OperationDefinition)?.selectionSet
                ?? (definition as? FragmentDefinition)?.selectionSet
            guard let selectionSet else { continue }
            candidates += SelectionWalker.fields(in: selectionSet).filter(pagesByCursor)
        }
        guard let field = candidates.first else {
            throw GraphQLDocumentError(
                .noConnection,
                """
                No field takes after: (or before:) as a variable and selects pageInfo, edges or nodes. \
                Write the connection as, for example, \
                `launchConnection(first: $first, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } }` \
                with `query($first: Int, $after: String)`, or mark it with @connection(key: "Name").
                """)
        }
        guard candidates.count == 1 else {
            throw GraphQLDocumentError(
                .ambiguousConnection,
                "\(candidates.count) fields page by cursor (\(candidates.map(\.responseKey).joined(separator: ", "))); mark the one to page with @connection(key: \"Name\")."
            )
        }
        let key = field.responseKey
        let snippet = try DocumentRewriter.snippet("x @connection(key: \"\(key)\")")
        guard let directive = (snippet.first as? Field)?.directives.first else {
            throw GraphQLDocumentError(.syntax, "The @connection directive for \"\(key)\" could not be made.")
        }
        var marker = Marker(target: DocumentAnalysis.identity(of: field), directive: directive)
        return (SelectionWalker(document: document).rewrite(document, with: &marker), key)
    }

    /// Whether a field pages by cursor: it takes `after:` or `before:` as a
    /// variable and selects `pageInfo`, `edges` or `nodes`.
    private static func pagesByCursor(_ field: Field) -> Bool {
        let cursorArgument = field.arguments.contains { argument in
            (argument.name.value == "after" || argument.name.value == "before") && argument.value is Variable
        }
        let connectionShape =
            field.selectionSet?.selections.contains { selection in
                guard let inner = selection as? Field else { return false }
                return ["pageInfo", "edges", "nodes"].contains(inner.name.value)
            } ?? false
        return cursorArgument && connectionShape
    }

    /// Adds a directive to the field at a place in the source.
    private struct Marker: SelectionVisitor {
        let target: Int
        let directive: Directive

        func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
            guard DocumentAnalysis.identity(of: field) == target else { return .enter(field) }
            return .enter(field.set(value: .array(field.directives + [directive]), key: "directives"))
        }
    }
}
