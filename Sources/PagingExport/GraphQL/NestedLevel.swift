import GraphQL
import PagingGraphQLClient
import PagingGraphQLCore
import PagingLock

/// A connection inside the nodes of another, in a ``NestedDocument``.
final class NestedLevel: Sendable {
    /// The connection's response key, for messages.
    let name: String
    /// How deep it is: 1 for a connection in the outer connection's nodes.
    let depth: Int
    /// The connections inside this one's nodes.
    let children: [NestedLevel]
    /// The analysis of this connection where its `node(id:)` query has it: its path starts at
    /// ``NestedDocument/nodeKey``, and reads the connection out of a node as the outer query
    /// gives it too (``page(in:)``).
    let template: ConnectionDocument
    /// The `node(id:)` queries made so far, by type.
    private let queries: Lock<[String: ConnectionQuery]>
    private let build: @Sendable (String) throws(ExportError) -> ConnectionQuery

    /// A `node(id:)` query for one type of parent node.
    struct ConnectionQuery: Sendable {
        /// The text to send.
        let text: String
        /// Its operation's name.
        let operationName: String?
        /// The variables it declares.
        let declaredVariables: Set<String>
        /// Its connection, analysed.
        let document: ConnectionDocument
    }

    /// Every level below this one, depth first.
    var descendants: [NestedLevel] { children.flatMap { [$0] + $0.descendants } }

    init(site: Sites.Site, depth: Int, children: [NestedLevel], context: NestedDocument.Context)
        throws(ExportError)
    {
        self.name = site.name
        self.depth = depth
        self.children = children
        let build: @Sendable (String) throws(ExportError) -> ConnectionQuery = { type throws(ExportError) in
            try Self.nodeQuery(for: site.index, type: type, context: context)
        }
        self.build = build
        // The type is only the fragment's condition: the placeholder builds the same paths.
        template = try build("Node").document
        queries = Lock([:])
    }

    /// The `node(id:)` query that pages this connection of a node of the given type.
    /// - Throws: ``ExportError`` (``ExportError/Code/malformedPage``) for a type name the server
    ///   gave that is not a GraphQL name (the query was made once for any type at the start).
    /// - Complexity: O(1) for a type seen before; else O(*n*) in the document's selections.
    func nodeQuery(type: String) throws(ExportError) -> ConnectionQuery {
        if let made = queries.withLock({ $0[type] }) { return made }
        guard type.first.map({ $0 == "_" || ($0.isASCII && $0.isLetter) }) == true,
            type.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) })
        else {
            throw ExportError(
                .malformedPage, "the server gave a node the type '\(type)', which is not a GraphQL type name."
            )
        }
        let made = try build(type)
        queries.withLock { $0[type] = made }
        return made
    }

    /// This connection's page inside a node as a query gives it.
    /// - Throws: the client's error when the node has no such connection or it has the wrong
    ///   shape.
    func page(in node: JSONValue) throws -> ConnectionPage {
        try template.extractPage(from: .object([NestedDocument.nodeKey: node]))
    }

    /// Builds the query `node(id: $paging_id) { ... on Type { <path to the connection> } }`,
    /// with the variables and fragments it uses, and prepares it and every connection inside
    /// it. Built on the parsed document: each step of the path keeps only the selection that
    /// leads on, a fragment spread on the way becomes an inline fragment on its type.
    private static func nodeQuery(for index: Int, type: String, context: NestedDocument.Context)
        throws(ExportError) -> ConnectionQuery
    {
        let site = context.sites.sites[index]
        var inner: any Node = site.field
        for step in site.steps.reversed() {
            inner = try wrap(inner, in: step, fragments: context.sites.fragments, level: site.name)
        }
        let operationName = "PagingNextPage"
        let skeleton = try NestedDocument.parse(
            """
            query \(operationName)($\(NestedDocument.idVariable): ID!) {
              \(NestedDocument.nodeKey): node(id: $\(NestedDocument.idVariable)) { ... on \(type) { __typename } }
            }
            """, what: "the query for the next pages of \"\(site.name)\"")
        guard let operation = skeleton.definitions.first as? OperationDefinition,
            let node = operation.selectionSet.selections.first as? Field,
            let prepared = node.updatingSelections(
                at: [],
                { set in
                    guard let fragment = set.selections.first as? InlineFragment else { return set }
                    let body = fragment.selectionSet.set(value: .array([inner]), key: "selections")
                    return set.set(
                        value: .array([fragment.set(value: .node(body), key: "selectionSet")]),
                        key: "selections")
                })
        else {
            throw ExportError(
                .unpageableQuery,
                "the query cannot be paged: the query for the next pages of \"\(site.name)\" cannot be made.")
        }
        var query = operation.set(
            value: .node(operation.selectionSet.set(value: .array([prepared]), key: "selections")),
            key: "selectionSet")
        // The variables and fragments it uses, and those the fragments use.
        var uses = VariableUses()
        _ = SelectionWalker(fragments: context.sites.fragments).walk(
            query.selectionSet, in: SelectionContext(definition: query), with: &uses)
        let variables = uses.names
        let declarations =
            query.variableDefinitions.map { $0 as any Node }
            + context.sites.variableDefinitions.filter { variables.contains($0.variable.name.value) }.map {
                $0 as any Node
            }
        query = query.set(value: .array(declarations), key: "variableDefinitions")
        let fragments = uses.fragments.compactMap { context.sites.fragments[$0] }.map { $0 as any Node }
        let document = skeleton.set(value: .array([query] + fragments), key: "definitions")
        let text = GraphQL.print(ast: document)
        let order = [index] + context.sites.breadthFirst(from: index).dropFirst()
        let analysed = try NestedDocument.analyse(
            try NestedDocument.parse(text, what: "the query for the next pages of \"\(site.name)\""),
            keys: order, operationName: operationName)
        return ConnectionQuery(
            text: analysed.text, operationName: operationName,
            declaredVariables: NestedDocument.declared(in: analysed.text), document: analysed.first)
    }

    /// A step of the path from a node to a connection, keeping only the selection that leads on:
    /// a field or an inline fragment with its arguments and directives, or for a fragment
    /// spread, an inline fragment on the fragment's type.
    private static func wrap(
        _ inner: any Node, in step: any Selection, fragments: [String: FragmentDefinition], level: String
    ) throws(ExportError) -> any Node {
        if let field = step as? Field, let selectionSet = field.selectionSet {
            return field.set(
                value: .node(selectionSet.set(value: .array([inner]), key: "selections")), key: "selectionSet"
            )
        }
        if let fragment = step as? InlineFragment {
            return fragment.set(
                value: .node(fragment.selectionSet.set(value: .array([inner]), key: "selections")),
                key: "selectionSet")
        }
        if let spread = step as? FragmentSpread, let definition = fragments[spread.name.value],
            let made = try NestedDocument.snippet(
                "... on \(definition.typeCondition.name.value) { __typename }"
            )
            .first as? InlineFragment
        {
            return made.set(
                value: .node(made.selectionSet.set(value: .array([inner]), key: "selections")),
                key: "selectionSet")
        }
        throw ExportError(
            .unpageableQuery,
            "the query cannot be paged: the path to the connection \"\(level)\" cannot be followed.")
    }
}

/// The `@connection` fields of an operation and how they nest.
struct Sites {
    /// One marked field.
    struct Site {
        /// Its place among the marked fields, in the document's order.
        let index: Int
        /// Its response key.
        let name: String
        /// The field.
        let field: Field
        /// The marked field whose nodes hold it; `nil` for the outer one.
        let parent: Int?
        /// What leads from the parent's node to it: fields, inline fragments, fragment spreads.
        let steps: [any Selection]
    }

    /// The marked fields, in the document's order.
    private(set) var sites: [Site] = []
    /// The document's fragments, by name.
    let fragments: [String: FragmentDefinition]
    /// The operation's variable definitions.
    let variableDefinitions: [VariableDefinition]
    /// The directive that marks a connection.
    let directive: String

    /// Collects the marked fields of the operation.
    /// - Throws: ``ExportError`` (``ExportError/Code/unpageableQuery``) when a marked field is
    ///   inside another's but not inside its nodes, or is reached twice.
    /// - Complexity: O(*n*) for *n* selections, through the fragments spread.
    init(_ document: Document, operationName: String?, directive: String = "connection") throws(ExportError) {
        self.directive = directive
        var fragments: [String: FragmentDefinition] = [:]
        var operations: [OperationDefinition] = []
        for definition in document.definitions {
            if let fragment = definition as? FragmentDefinition { fragments[fragment.name.value] = fragment }
            if let operation = definition as? OperationDefinition { operations.append(operation) }
        }
        self.fragments = fragments
        let operation =
            operationName.flatMap { name in operations.first { $0.name?.value == name } } ?? operations.first
        variableDefinitions = operation?.variableDefinitions ?? []
        guard let operation, operationName != nil || operations.count == 1 else { return }
        var collector = Collector(directive: directive)
        _ = try SelectionWalker(fragments: fragments).walk(
            operation.selectionSet, in: SelectionContext(definition: operation), with: &collector)
        sites = collector.sites
    }

    /// The marked fields directly inside a marked field's nodes.
    func children(of index: Int) -> [Int] { sites.filter { $0.parent == index }.map(\.index) }

    /// The marked fields from one (the outer one by default), level by level.
    func breadthFirst(from start: Int? = nil) -> [Int] {
        var order = start.map { [$0] } ?? sites.filter { $0.parent == nil }.map(\.index)
        var next = 0
        while next < order.count {
            order += children(of: order[next])
            next += 1
        }
        return order
    }

    /// Collects the marked fields as the walker reaches them, through inline fragments and
    /// fragments (each on every path that reaches it), each with the steps from its parent's node.
    private struct Collector: SelectionVisitor {
        typealias Failure = ExportError
        let directive: String
        var sites: [Site] = []
        /// Where each marked field was met, by its place in the source: met twice is an error.
        var seen: Set<Int> = []
        /// The marked fields being walked, innermost last, with the number of steps inside them.
        var open: [(index: Int, depth: Int)] = []

        mutating func field(_ field: Field, in context: SelectionContext) throws(ExportError)
            -> SelectionStep<Field>
        {
            guard field.directives.contains(where: { $0.name.value == directive }) else {
                return .enter(field)
            }
            let name = field.responseKey
            if let start = field.loc?.start, !seen.insert(start).inserted {
                throw ExportError(
                    .unpageableQuery,
                    "the query cannot be paged: the connection \"\(name)\" is reached twice, because its fragment is spread twice; spread it once."
                )
            }
            let parent = open.last
            var steps = Array(context.steps.dropFirst(parent?.depth ?? 0))
            if let parent {
                // The path from the parent connection must go through its nodes.
                let names = steps.map { ($0 as? Field)?.name.value }
                if names.count >= 2, names[0] == "edges", names[1] == "node" {
                    steps = Array(steps.dropFirst(2))
                } else if names.first == "nodes" {
                    steps = Array(steps.dropFirst())
                } else {
                    throw ExportError(
                        .unpageableQuery,
                        "the query cannot be paged: the connection \"\(name)\" is marked with @connection inside \"\(sites[parent.index].name)\", but not inside its edges { node { ... } } or nodes { ... }; only a connection in each node can be paged."
                    )
                }
            }
            let index = sites.count
            sites.append(Site(index: index, name: name, field: field, parent: parent?.index, steps: steps))
            open.append((index, context.steps.count + 1))
            return .enter(field)
        }

        mutating func leaveField(_ field: Field, in context: SelectionContext) -> Field {
            if open.last?.depth == context.steps.count { open.removeLast() }
            return field
        }

        func spread(_ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext)
            -> SelectionStep<FragmentSpread>
        {
            fragment == nil ? .keep(spread) : .enter(spread)
        }
    }

    /// A connection field's node selection: in `edges { node { ... } }`, or else `nodes { ... }`.
    private static func nodeSelection(of field: Field) -> SelectionSet? {
        func child(_ name: String, of set: SelectionSet?) -> Field? {
            set?.selections.lazy.compactMap { $0 as? Field }.first { $0.name.value == name }
        }
        return child("node", of: child("edges", of: field.selectionSet)?.selectionSet)?.selectionSet
            ?? child("nodes", of: field.selectionSet)?.selectionSet
    }

    /// The response keys a connection's nodes select at their top, through fragments.
    func nodeKeys(of field: Field) -> Set<String> {
        guard let selection = Self.nodeSelection(of: field) else { return [] }
        var keys = NodeKeys()
        _ = SelectionWalker(fragments: fragments).walk(
            selection, in: SelectionContext(definition: selection), with: &keys)
        return keys.keys
    }

    /// The response keys of the fields of a selection set's top, through inline fragments and
    /// the fragments it spreads (each once).
    private struct NodeKeys: SelectionVisitor {
        var keys: Set<String> = []
        var followed: Set<String> = []

        mutating func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
            keys.insert(field.responseKey)
            return .keep(field)
        }

        mutating func spread(
            _ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext
        ) -> SelectionStep<FragmentSpread> {
            followed.insert(spread.name.value).inserted ? .enter(spread) : .keep(spread)
        }
    }
}
