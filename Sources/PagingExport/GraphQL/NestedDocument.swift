import GraphQL
import PagingGraphQLClient
import PagingGraphQLCore
import PagingLock

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
/// connection for the `pageInfo` and cursors the library's analysis adds. Every change is made
/// on the parsed document with the package's ``SelectionWalker``, and printed.
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

    /// Whether every level has at most one inner connection, as a flattened export needs.
    var isChain: Bool { children.count <= 1 && levels.allSatisfy { $0.children.count <= 1 } }

    /// Analyses a document whose `@connection` fields nest; `nil` when it marks fewer than two
    /// (or does not parse: the one-connection analysis then says what is wrong), so that it is
    /// paged as one connection.
    /// - Parameters:
    ///   - text: the document as given.
    ///   - operationName: the operation, when the document has several.
    /// - Throws: ``ExportError`` (``ExportError/Code/unpageableQuery``) naming what is wrong:
    ///   marked connections side by side at the top, one that is not inside the nodes of the
    ///   one around it, a fragment spread twice, or what the library's analysis finds wrong
    ///   with one of them.
    /// - Complexity: O(*n* × *c*) for a document of *n* selections with *c* marked connections.
    static func make(_ text: String, operationName: String?) throws(ExportError) -> NestedDocument? {
        guard let parsed = try? DocumentAnalysis.parse(text) else { return nil }
        let first = try Sites(parsed, operationName: operationName)
        guard first.sites.count > 1 else { return nil }
        let roots = first.sites.filter { $0.parent == nil }
        guard roots.count == 1 else { return nil }  // the library's analysis names them
        // Each marked directive gets a key of its own, and each node that holds an inner
        // connection is asked for its id and type.
        var marker = Marker(
            marks: Dictionary(
                first.sites.map { (DocumentAnalysis.identity(of: $0.field), $0.index) },
                uniquingKeysWith: { a, _ in a }),
            holders: Set(
                first.sites.filter { site in first.sites.contains { $0.parent == site.index } }.map {
                    DocumentAnalysis.identity(of: $0.field)
                }),
            names: Dictionary(
                first.sites.map { (DocumentAnalysis.identity(of: $0.field), $0.name) },
                uniquingKeysWith: { a, _ in a }))
        let rewritten = try SelectionWalker(document: parsed).rewrite(parsed, with: &marker)
        // Printed and parsed again, so that every node carries its place in one text.
        let document = try parse(GraphQL.print(ast: rewritten), what: "the query once prepared")
        let sites = try Sites(document, operationName: operationName, directive: markName)
        let order = sites.breadthFirst()
        let outer = try analyse(document, keys: order, operationName: operationName)
        let context = Context(document: document, sites: sites, operationName: operationName)
        func level(_ index: Int, depth: Int) throws(ExportError) -> NestedLevel {
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

    /// The directive each marked connection carries until its turn in
    /// ``analyse(_:keys:operationName:)``: the library's analysis takes every `@connection` out
    /// of the text it prepares, so the others wait under another name.
    static let markName = "paging_connection_mark"

    /// Parses a text this export made, as the library parses documents.
    static func parse(_ text: String, what: String) throws(ExportError) -> Document {
        do {
            return try DocumentAnalysis.parse(text)
        } catch {
            throw ExportError(
                .unpageableQuery, "the query cannot be paged: \(what) does not parse: \(error).")
        }
    }

    /// Runs the library's analysis over every marked connection (by place), outermost first:
    /// each pass gives one its `@connection` back and prepares it (adds what paging it needs,
    /// takes the directive out). Returns the first connection's analysis and the text with all
    /// prepared.
    static func analyse(_ document: Document, keys: [Int], operationName: String?) throws(ExportError)
        -> (first: ConnectionDocument, text: String)
    {
        var document = document
        var first: ConnectionDocument?
        var text = GraphQL.print(ast: document)
        for index in keys {
            let key = levelKey(index)
            var unmark = try Unmarker(key: key)
            let marked = SelectionWalker(document: document).rewrite(document, with: &unmark)
            let analysed: ConnectionDocument
            do {
                analysed = try ConnectionDocument(
                    GraphQL.print(ast: marked), connectionKey: key, operationName: operationName)
            } catch {
                throw ExportError(.unpageableQuery, "the query cannot be paged: \(error.description)")
            }
            if first == nil { first = analysed }
            text = analysed.text
            document = try parse(text, what: "the query once prepared")
        }
        guard let first else {
            throw ExportError(.unpageableQuery, "the query cannot be paged: it marks no connection.")
        }
        return (first, text)
    }

    /// The names of the variables an operation in the text declares.
    static func declared(in text: String) -> Set<String> {
        guard let document = try? DocumentAnalysis.parse(text) else { return [] }
        var names: Set<String> = []
        for case let operation as OperationDefinition in document.definitions {
            for definition in operation.variableDefinitions { names.insert(definition.variable.name.value) }
        }
        return names
    }

    /// The fields of a selection snippet, parsed (the AST has no public initializers).
    static func snippet(_ text: String) throws(ExportError) -> [any Node] {
        do {
            return try DocumentRewriter.snippet(text)
        } catch {
            throw ExportError(.unpageableQuery, "the query cannot be paged: \(error.description)")
        }
    }

    /// Gives each marked connection a mark of its own instead of `@connection`, and asks each
    /// node holding an inner connection for its id and type.
    private struct Marker: SelectionVisitor {
        typealias Failure = ExportError
        /// The marked fields' places in the source, with their index.
        let marks: [Int: Int]
        /// The places of the marked fields whose nodes hold another.
        let holders: Set<Int>
        /// The marked fields' response keys, by place, for messages.
        let names: [Int: String]

        func field(_ field: Field, in context: SelectionContext) throws(ExportError) -> SelectionStep<Field> {
            guard let index = marks[DocumentAnalysis.identity(of: field)] else { return .enter(field) }
            let snippet = try NestedDocument.snippet("x @\(markName)(key: \"\(levelKey(index))\")")
            guard let mark = (snippet.first as? Field)?.directives.first else { return .enter(field) }
            let directives = field.directives.filter { $0.name.value != "connection" } + [mark]
            return .enter(field.set(value: .array(directives), key: "directives"))
        }

        func leaveField(_ field: Field, in context: SelectionContext) throws(ExportError) -> Field {
            let place = DocumentAnalysis.identity(of: field)
            guard holders.contains(place) else { return field }
            let identity = try NestedDocument.snippet(
                "\(NestedDocument.idKey): id \(NestedDocument.typeKey): __typename")
            let updated =
                field.updatingSelections(at: ["edges", "node"]) { $0.adding(identity, first: true) }
                ?? field.updatingSelections(at: ["nodes"]) { $0.adding(identity, first: true) }
            guard let updated else {
                throw ExportError(
                    .unpageableQuery,
                    "the query cannot be paged: the connection \"\(names[place] ?? field.responseKey)\" holds a connection to page, but selects neither edges { node { ... } } nor nodes { ... }."
                )
            }
            return updated
        }
    }

    /// Turns the mark of one key back into `@connection(key:)`.
    private struct Unmarker: SelectionVisitor {
        /// The key of the mark to turn back.
        let key: String
        /// The directive it becomes.
        let connection: Directive

        /// Makes the directive the mark of a key becomes.
        init(key: String) throws(ExportError) {
            self.key = key
            let snippet = try NestedDocument.snippet("x @connection(key: \"\(key)\")")
            guard let directive = (snippet.first as? Field)?.directives.first else {
                throw ExportError(
                    .unpageableQuery, "the query cannot be paged: @connection could not be made.")
            }
            connection = directive
        }

        func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
            let directives = field.directives.map { directive -> Directive in
                let isMark =
                    directive.name.value == markName
                    && directive.arguments.contains {
                        $0.name.value == "key" && ($0.value as? StringValue)?.value == key
                    }
                return isMark ? connection : directive
            }
            return .enter(field.set(value: .array(directives), key: "directives"))
        }
    }

    /// What building a level's `node(id:)` query needs from the document.
    struct Context: @unchecked Sendable {
        // The AST is immutable once parsed; it is read, never changed (changes make copies).
        let document: Document
        let sites: Sites
        let operationName: String?
    }
}

extension Field {
    /// The field with the selection set at a path of field names below it changed; `nil` when
    /// the path does not lead to a selection set (the first field of each name is followed).
    /// - Complexity: O(*s* × *d*) for *s* selections at each of the *d* steps.
    func updatingSelections(at path: [String], _ change: (SelectionSet) -> SelectionSet) -> Field? {
        guard let selectionSet else { return nil }
        guard let name = path.first else {
            return set(value: .node(change(selectionSet)), key: "selectionSet")
        }
        var selections = selectionSet.selections.map { $0 as any Node }
        guard
            let index = selections.firstIndex(where: { ($0 as? Field)?.name.value == name }),
            let child = selections[index] as? Field,
            let updated = child.updatingSelections(at: Array(path.dropFirst()), change)
        else { return nil }
        selections[index] = updated
        return set(
            value: .node(selectionSet.set(value: .array(selections), key: "selections")), key: "selectionSet")
    }
}
