package import GraphQL

/// What a connection field's list reads to page on, added to its selection
/// where the document left it out: `pageInfo` with the flags and cursors of
/// the directions it pages in, and the `cursor` of its edges.
///
/// The pagers (``DocumentRewriter``) and the code generator complete a
/// connection with this one rule, so that the type generated for a
/// document and the request sent for it select the same fields.
package struct ConnectionCompletion {
    /// The `pageInfo` fields, in the order added: those of the directions
    /// the connection pages in, so that the server is not asked for what is
    /// not used (`hasPreviousPage` can cost a server a query of its own);
    /// both directions' when it names no cursor variable.
    package let pageInfoFields: [String]

    /// The completion of a connection that pages forward (`after:`),
    /// backward (`before:`), or both.
    package init(pagesForward: Bool, pagesBackward: Bool) {
        var fields: [String] = []
        let both = pagesForward == pagesBackward
        if pagesForward || both { fields += ["hasNextPage"] }
        if pagesBackward || both { fields += ["hasPreviousPage", "startCursor"] }
        if pagesForward || both { fields += ["endCursor"] }
        pageInfoFields = fields
    }

    /// The completion of a connection field as written: it pages forward
    /// when its `after:` is a variable, backward when its `before:` is.
    package init(field: Field) {
        let variables = Set(
            field.arguments.compactMap { $0.value is Variable ? $0.name.value : nil })
        self.init(pagesForward: variables.contains("after"), pagesBackward: variables.contains("before"))
    }

    /// The field with `pageInfo` and `edges { cursor }` completed: a
    /// `pageInfo` selected under its own name gets the fields it lacks, one
    /// missing is added; the `edges` that select `node` (the first, by
    /// response key) get `cursor`. A field selected as `x: x` counts as
    /// selected.
    /// - Complexity: O(*n*) for *n* selections of the connection.
    package func complete(_ connection: Field) throws(GraphQLDocumentError) -> Field {
        guard let selectionSet = connection.selectionSet else { return connection }
        let edgesKey = ConnectionShape(of: connection).edgesKey
        var selections: [any Node] = []
        var hasPageInfo = false
        for selection in selectionSet.selections {
            guard let field = selection as? Field else {
                selections.append(selection)
                continue
            }
            if field.isField(named: "pageInfo"), let child = field.selectionSet {
                hasPageInfo = true
                let missing = pageInfoFields.filter { !child.selectsField(named: $0) }
                selections.append(
                    field.set(
                        value: .node(child.adding(try DocumentRewriter.snippet(missing))), key: "selectionSet"
                    ))
            } else if field.name.value == "edges", field.responseKey == edgesKey,
                let child = field.selectionSet,
                !child.selectsField(named: "cursor")
            {
                selections.append(
                    field.set(
                        value: .node(child.adding(try DocumentRewriter.snippet(["cursor"]))),
                        key: "selectionSet"))
            } else {
                selections.append(field)
            }
        }
        if !hasPageInfo {
            selections += try DocumentRewriter.snippet(
                "pageInfo { \(pageInfoFields.joined(separator: " ")) }")
        }
        return connection.set(
            value: .node(selectionSet.set(value: .array(selections), key: "selections")), key: "selectionSet")
    }
}

/// Rewrites a parsed document for sending: completes the connection field's
/// selection (``ConnectionCompletion``) and removes every `@connection`
/// directive.
package struct DocumentRewriter {
    /// The connection field, identified by its position in the source.
    package let target: Int
    /// What the connection's list reads, added where missing.
    package let completion: ConnectionCompletion

    /// The `pageInfo` fields the pager reads.
    package var pageInfoFields: [String] { completion.pageInfoFields }

    package init(target: Field, variables: PaginationVariables) {
        self.target = DocumentAnalysis.identity(of: target)
        completion = ConnectionCompletion(
            pagesForward: variables.pagesForward, pagesBackward: variables.pagesBackward)
    }

    package func rewrite(_ document: Document) throws(GraphQLDocumentError) -> Document {
        var visitor = Visitor(target: target, completion: completion)
        return try SelectionWalker(document: document).rewrite(document, with: &visitor)
    }

    private struct Visitor: SelectionVisitor {
        typealias Failure = GraphQLDocumentError
        let target: Int
        let completion: ConnectionCompletion

        func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
            .enter(field.removingDirectives(["connection"]))
        }

        func leaveField(_ field: Field, in context: SelectionContext) throws(GraphQLDocumentError) -> Field {
            DocumentAnalysis.identity(of: field) == target ? try completion.complete(field) : field
        }
    }

    /// The selections of `{ text }`, parsed: GraphQLSwift's AST has no public
    /// initializers, so new nodes come from its parser.
    package static func snippet(_ text: String) throws(GraphQLDocumentError) -> [any Node] {
        let document = try DocumentAnalysis.parse("{ \(text) }")
        guard let operation = document.definitions.first as? OperationDefinition else { return [] }
        return operation.selectionSet.selections.map { $0 as any Node }
    }

    /// The fields of the names, parsed; none for none.
    package static func snippet(_ names: [String]) throws(GraphQLDocumentError) -> [any Node] {
        names.isEmpty ? [] : try snippet(names.joined(separator: " "))
    }
}

/// Completes every field that carries `@connection` (``ConnectionCompletion/init(field:)``),
/// after its own selections: what the code generator types, for the documents it writes.
package struct ConnectionCompleter: SelectionVisitor {
    package typealias Failure = GraphQLDocumentError

    /// How many connections it completed. (A visitor of no size passed
    /// inout gave ThreadSanitizer's access check an address never
    /// allocated, and the instrumented tests crashed.)
    package private(set) var completed = 0

    package init() {}

    package mutating func leaveField(_ field: Field, in context: SelectionContext)
        throws(GraphQLDocumentError)
        -> Field
    {
        guard field.directives.contains(where: { $0.name.value == "connection" }) else { return field }
        completed += 1
        return try ConnectionCompletion(field: field).complete(field)
    }
}

/// The names of the fragments selections reach, through the fragments they
/// spread, in the order first reached, each once (a name the document does
/// not define too, not followed).
package struct FragmentReach: SelectionVisitor {
    /// The names, in order.
    package private(set) var names: [String] = []
    private var seen: Set<String> = []

    package init() {}

    package mutating func spread(
        _ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext
    ) -> SelectionStep<FragmentSpread> {
        guard seen.insert(spread.name.value).inserted else { return .keep(spread) }
        names.append(spread.name.value)
        return .enter(spread)
    }
}

extension SelectionWalker {
    /// The names of the fragments a definition's selections reach (``FragmentReach``).
    /// - Complexity: O(*n*) for *n* selections of the definition and the fragments it reaches.
    package func reachedFragments(from definition: any Node, selectionSet: SelectionSet) -> [String] {
        var reach = FragmentReach()
        _ = walk(selectionSet, in: SelectionContext(definition: definition), with: &reach)
        return reach.names
    }
}
