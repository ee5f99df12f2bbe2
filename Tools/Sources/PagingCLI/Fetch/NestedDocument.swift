import Foundation
import GraphQL
import PagingGraphQLClient
import ToolsLock

/// A query with connections at more than one level, each marked with `@connection`
/// (`rocketConnection(...) @connection { edges { node { launches(first: $n, after: $c)
/// @connection { ... } } } }`), analysed for an export that pages every one of them to its end.
///
/// The outer connection is paged by the query itself. An inner connection comes with its first
/// page inside each outer node; its next pages are asked for through Relay's `node(id:)`, with
/// a query made here for it (``NestedLevel/nodeQuery(type:)``): the path from the node to the
/// connection, and nothing else. That is how Relay refetches a fragment, and it works on any
/// server whose nodes implement `Node` (GitHub's among them).
///
/// To do so, the document sent asks each node that holds an inner connection for its `id` and
/// `__typename` (as `paging_id` and `paging_type`, which the export takes out again), and each
/// connection for the `pageInfo` and cursors the library's analysis adds.
struct NestedDocument: Sendable {
    /// The outer connection, analysed as any connection the export pages.
    let root: ConnectionDocument
    /// The text sent for the outer pages: ``root``'s, with every inner connection prepared too.
    let text: String
    /// The connections inside the outer one's nodes, in the document's order; each holds its
    /// own inner connections in ``NestedLevel/children``.
    let children: [NestedLevel]
    /// The operation's variables that the text declares.
    let declaredVariables: Set<String>
    /// The response keys the innermost connection's nodes select at their top (for a chain).
    let innermostKeys: Set<String>

    /// The key under which a node that holds inner connections gives its id.
    static let idKey = "paging_id"
    /// The key under which such a node gives its type.
    static let typeKey = "paging_type"
    /// The key the `node(id:)` queries give their node.
    static let nodeKey = "paging_node"
    /// The variable the `node(id:)` queries take the id in.
    static let idVariable = "paging_id"

    /// Every level below the outer one, depth first.
    var levels: [NestedLevel] { children.flatMap { [$0] + $0.descendants } }

    /// Whether every level has at most one inner connection, as `--flatten` needs.
    var isChain: Bool { children.count <= 1 && levels.allSatisfy { $0.children.count <= 1 } }

    /// Analyses a document whose `@connection` fields nest; `nil` when it marks fewer than two,
    /// so that it is paged as one connection.
    /// - Parameters:
    ///   - text: the document as given (after ``LiteralPageSize/rewrite(_:)``).
    ///   - operationName: the operation, when the document has several.
    /// - Throws: ``CLIError`` (usage) naming what is wrong: marked connections side by side at
    ///   the top, one that is not inside the nodes of the one around it, a fragment spread
    ///   twice, or what the library's analysis finds wrong with one of them.
    static func make(_ text: String, operationName: String?) throws(CLIError) -> NestedDocument? {
        guard let parsed = try? GraphQL.parse(source: text) else { return nil }
        let first = try Sites(parsed, operationName: operationName)
        guard first.sites.count > 1 else { return nil }
        let roots = first.sites.filter { $0.parent == nil }
        guard roots.count == 1 else { return nil }  // the library's analysis names them
        // Each marked directive gets a key of its own, and each node that holds an inner
        // connection is asked for its id and type.
        var edits: [(offset: Int, removing: Int, inserting: String)] = []
        for site in first.sites {
            guard let span = directiveSpan(of: site.field) else {
                throw .usage("the query cannot be paged: the @connection of \"\(site.name)\" cannot be read.")
            }
            edits.append((span.start, span.end - span.start, mark(site.index)))
        }
        for site in first.sites where first.sites.contains(where: { $0.parent == site.index }) {
            guard let brace = site.nodeSelectionStart else {
                throw .usage(
                    "the query cannot be paged: the connection \"\(site.name)\" holds a connection to page, but selects neither edges { node { ... } } nor nodes { ... }."
                )
            }
            edits.append((brace, 0, " \(idKey): id \(typeKey): __typename "))
        }
        var bytes = Array(text.utf8)
        for edit in edits.sorted(by: { $0.offset > $1.offset }) {
            guard edit.offset >= 0, edit.offset + edit.removing <= bytes.count else {
                throw .usage("the query cannot be paged: its @connection directives cannot be read.")
            }
            bytes.replaceSubrange(
                edit.offset..<(edit.offset + edit.removing), with: Array(edit.inserting.utf8))
        }
        let marked = String(decoding: bytes, as: UTF8.self)
        let document: Document
        do {
            document = try GraphQL.parse(source: marked)
        } catch {
            throw .usage("the query cannot be paged: it does not parse once prepared: \(error).")
        }
        let sites = try Sites(document, operationName: operationName, directive: markName)
        let order = sites.breadthFirst()
        let outer = try analyse(marked, keys: order, operationName: operationName)
        let context = Context(document: document, sites: sites, operationName: operationName)
        func level(_ index: Int, depth: Int) throws(CLIError) -> NestedLevel {
            var children: [NestedLevel] = []
            for child in sites.children(of: index) { children.append(try level(child, depth: depth + 1)) }
            return try NestedLevel(
                site: sites.sites[index], depth: depth, children: children, context: context)
        }
        var children: [NestedLevel] = []
        for child in sites.children(of: order[0]) { children.append(try level(child, depth: 1)) }
        let innermost = order.last.map { sites.sites[$0] }
        return NestedDocument(
            root: outer.first, text: outer.text, children: children,
            declaredVariables: declared(in: outer.text),
            innermostKeys: innermost.map { sites.nodeKeys(of: $0.field) } ?? [])
    }

    /// The key a marked connection is given: its place in the document.
    static func levelKey(_ index: Int) -> String { "paging_level_\(index)" }

    /// The directive each marked connection carries until its turn in ``analyse(_:keys:operationName:)``:
    /// the library's analysis takes every `@connection` out of the text it prepares, so the
    /// others wait under another name.
    static let markName = "paging_connection_mark"

    /// A marked connection's directive, as the GraphQL printer writes it too.
    static func mark(_ index: Int) -> String { "@\(markName)(key: \"\(levelKey(index))\")" }

    /// Runs the library's analysis over every marked connection (by place), outermost first:
    /// each pass gives one its `@connection` back and prepares it (adds what paging it needs,
    /// takes the directive out). Returns the first connection's analysis and the text with all
    /// prepared.
    static func analyse(_ text: String, keys: [Int], operationName: String?) throws(CLIError)
        -> (first: ConnectionDocument, text: String)
    {
        var text = text
        var first: ConnectionDocument?
        for index in keys {
            let key = levelKey(index)
            text = text.replacingOccurrences(of: mark(index), with: "@connection(key: \"\(key)\")")
            let document: ConnectionDocument
            do {
                document = try ConnectionDocument(text, connectionKey: key, operationName: operationName)
            } catch {
                throw .usage("the query cannot be paged: \(error.description)")
            }
            if first == nil { first = document }
            text = document.text
        }
        guard let first else { throw .usage("the query cannot be paged: it marks no connection.") }
        return (first, text)
    }

    /// The names of the variables an operation in the text declares.
    static func declared(in text: String) -> Set<String> {
        guard let document = try? GraphQL.parse(source: text) else { return [] }
        var names: Set<String> = []
        for case let operation as OperationDefinition in document.definitions {
            for definition in operation.variableDefinitions { names.insert(definition.variable.name.value) }
        }
        return names
    }

    /// Where a field's `@connection` is written: from `@` to the end of its arguments.
    private static func directiveSpan(of field: Field) -> (start: Int, end: Int)? {
        guard let directive = field.directives.first(where: { $0.name.value == "connection" }),
            let at = directive.loc?.startToken, let name = at.next
        else { return nil }
        guard let open = name.next, open.kind == .openingParenthesis else { return (at.start, name.end) }
        return open.closingParenthesis.map { (at.start, $0.end) }
    }

    /// What building a level's `node(id:)` query needs from the document.
    struct Context: @unchecked Sendable {
        // The AST is immutable once parsed; it is read, never changed.
        let document: Document
        let sites: Sites
        let operationName: String?
    }
}

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
    private let queries: Locked<[String: ConnectionQuery]>
    private let build: @Sendable (String) throws(CLIError) -> ConnectionQuery

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

    fileprivate init(site: Sites.Site, depth: Int, children: [NestedLevel], context: NestedDocument.Context)
        throws(CLIError)
    {
        self.name = site.name
        self.depth = depth
        self.children = children
        let build: @Sendable (String) throws(CLIError) -> ConnectionQuery = { type throws(CLIError) in
            try Self.nodeQuery(for: site.index, type: type, context: context)
        }
        self.build = build
        // The type is only the fragment's condition: the placeholder builds the same paths.
        template = try build("Node").document
        queries = Locked([:])
    }

    /// The `node(id:)` query that pages this connection of a node of the given type.
    /// - Throws: ``CLIError`` when the query cannot be made (it was made once for any type at
    ///   the start, so only a type name that is not a GraphQL name fails here).
    func nodeQuery(type: String) throws(CLIError) -> ConnectionQuery {
        if let made = queries.withLock({ $0[type] }) { return made }
        guard type.first.map({ $0 == "_" || $0.isLetter }) == true,
            type.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) })
        else {
            throw .failed("the server gave a node the type '\(type)', which is not a GraphQL type name.")
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
    /// with the variables and fragments it uses, and prepares it and every connection inside it.
    private static func nodeQuery(for index: Int, type: String, context: NestedDocument.Context)
        throws(CLIError) -> ConnectionQuery
    {
        let site = context.sites.sites[index]
        var body = "\(NestedDocument.nodeKey): node(id: $\(NestedDocument.idVariable)) { ... on \(type) { "
        for step in site.steps { body += Sites.opening(of: step, fragments: context.sites.fragments) + " " }
        body += GraphQL.print(ast: site.field)
        body += String(repeating: " }", count: site.steps.count) + " } }"
        guard let parsed = try? GraphQL.parse(source: "query { \(body) }") else {
            throw .usage(
                "the query cannot be paged: the query for the next pages of \"\(site.name)\" does not parse.")
        }
        // The variables and fragments the body uses, and those the fragments use.
        var uses = VariableUses()
        for case let operation as OperationDefinition in parsed.definitions {
            _ = SelectionWalker(fragments: context.sites.fragments).walk(
                operation.selectionSet, in: SelectionContext(definition: operation), with: &uses)
        }
        let variables = uses.names
        let fragmentNames = uses.fragments.filter { context.sites.fragments[$0] != nil }
        let declarations =
            ["$\(NestedDocument.idVariable): ID!"]
            + context.sites.variableDefinitions.filter { variables.contains($0.variable.name.value) }.map {
                GraphQL.print(ast: $0)
            }
        let fragments = fragmentNames.compactMap { context.sites.fragments[$0] }.map {
            GraphQL.print(ast: $0)
        }
        let operationName = "PagingNextPage"
        let text =
            "query \(operationName)(\(declarations.joined(separator: ", "))) { \(body) }\n"
            + fragments.joined(separator: "\n")
        let order = [index] + context.sites.breadthFirst(from: index).dropFirst()
        let prepared = try NestedDocument.analyse(text, keys: order, operationName: operationName)
        return ConnectionQuery(
            text: prepared.text, operationName: operationName,
            declaredVariables: NestedDocument.declared(in: prepared.text), document: prepared.first)
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
        /// Where its node's selection set opens (the offset of `{`), in `edges { node { ... } }`
        /// or else `nodes { ... }`.
        let nodeSelectionStart: Int?
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
    /// - Throws: ``CLIError`` (usage) when a marked field is inside another's but not inside its
    ///   nodes, or is reached twice.
    init(_ document: Document, operationName: String?, directive: String = "connection") throws(CLIError) {
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
        typealias Failure = CLIError
        let directive: String
        var sites: [Site] = []
        /// Where each marked field was met, by its place in the source: met twice is an error.
        var seen: Set<Int> = []
        /// The marked fields being walked, innermost last, with the number of steps inside them.
        var open: [(index: Int, depth: Int)] = []

        mutating func field(_ field: Field, in context: SelectionContext) throws(CLIError) -> SelectionStep<
            Field
        > {
            guard field.directives.contains(where: { $0.name.value == directive }) else {
                return .enter(field)
            }
            let name = field.alias?.value ?? field.name.value
            if let start = field.loc?.start, !seen.insert(start).inserted {
                throw .usage(
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
                    throw .usage(
                        "the query cannot be paged: the connection \"\(name)\" is marked with @connection inside \"\(sites[parent.index].name)\", but not inside its edges { node { ... } } or nodes { ... }; only a connection in each node can be paged."
                    )
                }
            }
            let index = sites.count
            sites.append(
                Site(
                    index: index, name: name, field: field, parent: parent?.index, steps: steps,
                    nodeSelectionStart: Sites.nodeSelectionStart(of: field)))
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

    fileprivate static func nodeSelectionStart(of field: Field) -> Int? {
        nodeSelection(of: field)?.loc?.startToken.end
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
            keys.insert(field.alias?.value ?? field.name.value)
            return .keep(field)
        }

        mutating func spread(
            _ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext
        )
            -> SelectionStep<FragmentSpread>
        {
            followed.insert(spread.name.value).inserted ? .enter(spread) : .keep(spread)
        }
    }

    /// What opens a step of a path in a query: `alias: name(arguments) @directives {`,
    /// `... on Type {`, or for a fragment spread, its fragment's type condition.
    static func opening(of step: any Selection, fragments: [String: FragmentDefinition]) -> String {
        func directives(_ list: [Directive]) -> String {
            list.map { " " + GraphQL.print(ast: $0) }.joined()
        }
        if let field = step as? Field {
            var text = field.alias.map { "\($0.value): " } ?? ""
            text += field.name.value
            if !field.arguments.isEmpty {
                text += "(" + field.arguments.map { GraphQL.print(ast: $0) }.joined(separator: ", ") + ")"
            }
            return text + directives(field.directives) + " {"
        }
        if let inline = step as? InlineFragment {
            let condition = inline.typeCondition.map { "on \($0.name.value)" } ?? ""
            return "... \(condition)\(directives(inline.directives)) {"
        }
        if let spread = step as? FragmentSpread, let fragment = fragments[spread.name.value] {
            return "... on \(fragment.typeCondition.name.value) {"
        }
        return "... {"
    }
}
