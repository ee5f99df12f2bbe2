package import GraphQL

/// Rewrites a parsed document for sending: completes the connection field's
/// selection and removes every `@connection` directive.
package struct DocumentRewriter {
    /// The connection field, identified by its position in the source.
    package let target: Int
    package let shape: ConnectionShape
    /// The `pageInfo` fields the pager reads: those of the directions the
    /// document pages in, so that the server is not asked for what is not
    /// used (`hasPreviousPage` can cost a server a query of its own).
    package let pageInfoFields: [String]

    package init(target: Field, shape: ConnectionShape, variables: PaginationVariables) {
        self.target = DocumentAnalysis.identity(of: target)
        self.shape = shape
        var fields: [String] = []
        let both = variables.pagesForward == variables.pagesBackward
        if variables.pagesForward || both { fields += ["hasNextPage"] }
        if variables.pagesBackward || both { fields += ["hasPreviousPage", "startCursor"] }
        if variables.pagesForward || both { fields += ["endCursor"] }
        self.pageInfoFields = fields
    }

    package func rewrite(_ document: Document) throws(GraphQLDocumentError) -> Document {
        var definitions: [any Node] = []
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition {
                definitions.append(
                    operation.set(value: .node(try rewrite(operation.selectionSet)), key: "selectionSet"))
            } else if let fragment = definition as? FragmentDefinition {
                definitions.append(
                    fragment.set(value: .node(try rewrite(fragment.selectionSet)), key: "selectionSet"))
            } else {
                definitions.append(definition)
            }
        }
        return document.set(value: .array(definitions), key: "definitions")
    }

    private func rewrite(_ selectionSet: SelectionSet) throws(GraphQLDocumentError) -> SelectionSet {
        var selections: [any Node] = []
        for selection in selectionSet.selections {
            if let field = selection as? Field {
                var rewritten = DocumentRewriter.removing(["connection"], from: field)
                if let child = field.selectionSet {
                    rewritten = rewritten.set(value: .node(try rewrite(child)), key: "selectionSet")
                }
                if DocumentAnalysis.identity(of: field) == target {
                    rewritten = try complete(rewritten)
                }
                selections.append(rewritten)
            } else if let inline = selection as? InlineFragment {
                selections.append(
                    inline.set(value: .node(try rewrite(inline.selectionSet)), key: "selectionSet"))
            } else {
                selections.append(selection)
            }
        }
        return selectionSet.set(value: .array(selections), key: "selections")
    }

    /// Adds the ``pageInfoFields`` to `pageInfo` and `edges { cursor }`
    /// where missing.
    private func complete(_ connection: Field) throws(GraphQLDocumentError) -> Field {
        guard let selectionSet = connection.selectionSet else { return connection }
        var selections: [any Node] = []
        var hasPageInfo = false
        for selection in selectionSet.selections {
            guard let field = selection as? Field else {
                selections.append(selection)
                continue
            }
            let key = field.alias?.value ?? field.name.value
            if field.name.value == "pageInfo", key == "pageInfo", let child = field.selectionSet {
                hasPageInfo = true
                let missing =
                    pageInfoFields
                    .filter { !Self.selectsUnaliased($0, in: child) }
                selections.append(
                    field.set(value: .node(try Self.adding(missing, to: child)), key: "selectionSet"))
            } else if field.name.value == "edges", key == shape.edgesKey, let child = field.selectionSet,
                !Self.selectsUnaliased("cursor", in: child)
            {
                selections.append(
                    field.set(value: .node(try Self.adding(["cursor"], to: child)), key: "selectionSet"))
            } else {
                selections.append(field)
            }
        }
        if !hasPageInfo {
            selections += try Self.snippet("pageInfo { \(pageInfoFields.joined(separator: " ")) }")
        }
        return connection.set(
            value: .node(selectionSet.set(value: .array(selections), key: "selections")), key: "selectionSet")
    }

    private static func selectsUnaliased(_ name: String, in selectionSet: SelectionSet) -> Bool {
        selectionSet.selections.contains { selection in
            guard let field = selection as? Field else { return false }
            return field.name.value == name && (field.alias == nil || field.alias?.value == name)
        }
    }

    private static func adding(_ names: [String], to selectionSet: SelectionSet) throws(GraphQLDocumentError)
        -> SelectionSet
    {
        guard !names.isEmpty else { return selectionSet }
        let added = try snippet(names.joined(separator: " "))
        return selectionSet.set(
            value: .array(selectionSet.selections.map { $0 as any Node } + added), key: "selections")
    }

    /// The selections of `{ text }`, parsed: GraphQLSwift's AST has no public
    /// initializers, so new nodes come from its parser.
    package static func snippet(_ text: String) throws(GraphQLDocumentError) -> [any Node] {
        let document = try DocumentAnalysis.parse("{ \(text) }")
        guard let operation = document.definitions.first as? OperationDefinition else { return [] }
        return operation.selectionSet.selections.map { $0 as any Node }
    }

    /// A field without the directives of the given names.
    package static func removing(_ directives: Set<String>, from field: Field) -> Field {
        guard field.directives.contains(where: { directives.contains($0.name.value) }) else { return field }
        let kept = field.directives.filter { !directives.contains($0.name.value) }
        return field.set(value: .array(kept), key: "directives")
    }
}
