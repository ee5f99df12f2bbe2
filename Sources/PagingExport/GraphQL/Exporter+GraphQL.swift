public import PagingGraphQLClient
import PagingLock

/// A GraphQL query analysed for an export: its connection, and the
/// connections marked inside that connection's nodes, each paged to its end.
///
/// The connection is the field marked with `@connection`, or, in a document
/// that marks none (one written for another tool, such as gh's), its only
/// field that takes `after:` or `before:` as a variable and selects
/// `pageInfo`, `edges` or `nodes` (`ConnectionDocument.init(inferringConnectionIn:operationName:)`).
/// A count given as a literal (`first: 100`) is kept: every page asks for it.
///
/// Connections marked with `@connection` inside the nodes of the outer one
/// (`edges { node { ... } }` or `nodes { ... }`), at any depth, are
/// exported too: their first page comes inside each node, and the next pages
/// are asked for through Relay's `node(id:)` (the server's nodes implement
/// `Node`, as GitHub's do), with a query made for each level that holds the
/// path to the connection and only the variables and fragments it uses.
///
/// ```swift
/// let query = try GraphQLExportQuery("""
///     query($owner: String!, $after: String, $issues: String) {
///       organization(login: $owner) {
///         repositories(first: 50, after: $after) @connection(key: "repos") {
///           nodes { name issues(first: 100, after: $issues) @connection(key: "issues") { nodes { title } } }
///         }
///       }
///     }
///     """)
/// query.innerConnections    // ["issues"]
/// ```
public struct GraphQLExportQuery: Sendable {
    /// The outer connection, analysed: its path, variables and the keys of
    /// its edges or nodes.
    public let connection: ConnectionDocument
    /// The analysis of the connections inside the outer one's nodes; `nil`
    /// when there are none.
    let nested: NestedDocument?

    /// Analyses a query for an export.
    /// - Parameters:
    ///   - text: the GraphQL document.
    ///   - connectionKey: the `@connection` to export, when the document marks
    ///     several side by side; naming one exports that one alone (not the
    ///     connections inside it).
    ///   - operationName: the operation, when the document has several.
    /// - Throws: ``ExportError`` (``ExportError/Code/unpageableQuery``)
    ///   saying why the query cannot be exported and what to change.
    /// - Complexity: O(*n* × *c*) for a document of *n* selections and *c*
    ///   connections.
    public init(_ text: String, connectionKey: String? = nil, operationName: String? = nil)
        throws(ExportError)
    {
        if connectionKey == nil, let nested = try NestedDocument.make(text, operationName: operationName) {
            connection = nested.root
            self.nested = nested
            return
        }
        do throws(GraphQLDocumentError) {
            if let connectionKey {
                connection = try ConnectionDocument(
                    text, connectionKey: connectionKey, operationName: operationName)
            } else {
                connection = try ConnectionDocument(inferringConnectionIn: text, operationName: operationName)
            }
        } catch {
            throw ExportError(.unpageableQuery, "the query cannot be paged: \(error.description)")
        }
        nested = nil
    }

    /// The document sent for the outer pages: the connection's `text`, or,
    /// with connections inside its nodes, that text with each of them
    /// prepared too and each node that holds one asked for its id and type.
    public var text: String { nested?.text ?? connection.text }

    /// The response keys of the connections inside the outer one's nodes,
    /// depth first; empty when there are none.
    public var innerConnections: [String] { nested?.levels.map(\.name) ?? [] }

    /// Whether every level holds at most one connection, so that the export
    /// can write the innermost nodes one by one (``Exporter/Layout/flattened``).
    public var canFlatten: Bool { nested?.isChain ?? false }

    /// The page size the query gives the outer connection as a literal
    /// (`first: 100`, or `last:` paging backward), which every page asks for;
    /// `nil` when the count is a variable the export sets.
    /// - Parameter backward: whether the export pages backward.
    public func fixedPageSize(backward: Bool) -> Int? {
        backward ? connection.variables.fixedLast : connection.variables.fixedFirst
    }
}

extension Exporter {
    /// How an export of connections inside connections writes them.
    public enum Layout: Sendable, Hashable {
        /// One item per outer node, with each of its inner connections
        /// holding all of its nodes (the edges or nodes of every page, in
        /// order; the connection's other fields as its last page gave them).
        case nested
        /// One item per node of the innermost connection, with its parent's
        /// id under `parentId`; for a query that pages one connection at each
        /// level (``GraphQLExportQuery/canFlatten``). A stopped export
        /// resumes inside an inner connection, with nothing lost or repeated.
        case flattened
    }

    /// Creates an exporter of a GraphQL connection, and of the connections
    /// inside its nodes (``GraphQLExportQuery``).
    ///
    /// ```swift
    /// let client = GraphQLClient(
    ///     endpoint: URL(string: "https://api.github.com/graphql")!,
    ///     headers: ["Authorization": "bearer \(token)"],
    ///     transport: RetryingTransport(base: HTTPClientTransport()))
    /// let exporter = try Exporter(
    ///     client: client, query: try GraphQLExportQuery(text), variables: ["owner": "apple"],
    ///     layout: .flattened)
    /// let result = await exporter.run(into: JSONExportWriter(format: .lines) { print(String(decoding: $0, as: UTF8.self), terminator: "") })
    /// ```
    /// - Parameters:
    ///   - client: the client the pages are asked of.
    ///   - query: the analysed query.
    ///   - variables: the query's other variables (those the operations it
    ///     sends do not declare are left out of each).
    ///   - backward: whether to page the outer connection backward from its
    ///     end (`last:`/`before:`); its nodes are then written last to first.
    ///   - layout: how connections inside connections are written.
    ///   - concurrency: how many outer nodes have their inner connections
    ///     paged at once (they are written in order all the same), 1 or more.
    ///   - settings: limits and the place to start. The page size is the
    ///     count of every connection whose count is a variable; a count the
    ///     query gives as a literal is kept. For connections inside
    ///     connections, ``Settings/maximumItems`` counts items written and
    ///     ``Settings/maximumPages`` outer pages.
    ///   - partialData: what to do with a page whose data came with GraphQL
    ///     errors; for connections inside connections, only `.refuse`.
    /// - Throws: ``ExportError``: ``ExportError/Code/unpageableQuery`` when
    ///   the connection cannot be paged in the direction asked,
    ///   ``ExportError/Code/unsupportedLayout`` for a layout or partial data
    ///   the query cannot be exported with, ``ExportError/Code/invalidSettings``
    ///   for a concurrency below 1.
    /// - Complexity: as ``run(into:progress:)``; for connections inside
    ///   connections, one request a page at every level, and at most
    ///   `concurrency` outer nodes with two pages ready each held at once.
    public init(
        client: GraphQLClient, query: GraphQLExportQuery, variables: [String: JSONValue] = [:],
        backward: Bool = false, layout: Layout = .nested, concurrency: Int = 4,
        settings: Settings = Settings(),
        partialData: PartialDataHandling = .refuse
    ) throws(ExportError) {
        var outerSettings = settings
        if let fixed = query.fixedPageSize(backward: backward) { outerSettings.pageSize = fixed }
        guard let nested = query.nested else {
            if layout == .flattened {
                throw ExportError(
                    .unsupportedLayout,
                    "a flattened export writes the nodes of a connection inside the nodes of another, but the query has no such connection marked; mark each connection to page with @connection, the inner one inside the outer one's edges { node { ... } } or nodes { ... }."
                )
            }
            self.init(
                source: try GraphQLConnectionSource(
                    client: client, document: query.connection, variables: variables, backward: backward),
                settings: outerSettings, partialData: partialData)
            return
        }
        if layout == .flattened, !nested.isChain {
            throw ExportError(
                .unsupportedLayout,
                "a flattened export writes the nodes of the innermost connection, but the query pages two connections side by side in one node; page one connection at each level, or export in the nested layout."
            )
        }
        if layout == .flattened, nested.innermostKeys.contains(FlattenWalk.parentKey) {
            throw ExportError(
                .unsupportedLayout,
                "a flattened export adds \"\(FlattenWalk.parentKey)\" to each item, but the innermost nodes select a field of that name; give that field an alias."
            )
        }
        if case .accept = partialData {
            throw ExportError(
                .unsupportedLayout,
                "partial data cannot be accepted for connections inside connections: a page whose data came with GraphQL errors stops the export."
            )
        }
        guard concurrency >= 1 else {
            throw ExportError(.invalidSettings, "the concurrency must be 1 or more; it is \(concurrency).")
        }
        // Every connection whose count is a variable asks for the page size given.
        var outerVariables = variables.filter { nested.declaredVariables.contains($0.key) }
        outerVariables.merge(NestedPages.countVariables(nested.levels, pageSize: settings.pageSize)) {
            _, count in
            count
        }
        let source = try GraphQLConnectionSource(
            client: client, document: nested.root, text: nested.text, variables: outerVariables,
            backward: backward)
        self.init(
            source: source, settings: outerSettings,
            nested: NestedPlan(
                document: nested, client: client, variables: variables, pageSize: settings.pageSize,
                flatten: layout == .flattened, concurrency: concurrency))
    }
}

/// What an ``Exporter`` of connections inside connections needs besides its outer source.
struct NestedPlan: Sendable {
    /// The analysed document.
    let document: NestedDocument
    /// The client inner pages are asked of.
    let client: GraphQLClient
    /// The user's variables.
    let variables: [String: JSONValue]
    /// The page size of inner connections whose count is a variable.
    let pageSize: Int
    /// Whether to write one item per innermost node.
    let flatten: Bool
    /// How many outer nodes have their inner connections paged at once.
    let concurrency: Int

    /// Runs the export of the outer source's pages and the connections inside their nodes.
    func run(
        outer: any ExportSource, settings: Exporter.Settings, into writer: some ExportWriter,
        progress: ProgressLog
    ) async -> Exporter.Result {
        let exporter = NestedExporter(
            source: outer, document: document,
            pages: NestedPages(client: client, variables: variables, pageSize: pageSize, progress: progress),
            settings: settings, flatten: flatten, concurrency: concurrency)
        return await exporter.run(into: writer, progress: progress)
    }
}

/// The progress of an export whose reports come from several tasks (inner pages load at once):
/// kept under a lock, and reported from under it, so that reports come one at a time, each with
/// counts no lower than the one before.
final class ProgressLog: Sendable {
    private let state = Lock(Exporter.Progress(items: 0, pages: 0))
    private let report: (@Sendable (Exporter.Progress) -> Void)?

    /// A log reporting to a closure, or to none.
    init(_ report: (@Sendable (Exporter.Progress) -> Void)?) {
        self.report = report
    }

    /// Changes the progress and reports it; the notices reported are then cleared.
    /// - Complexity: O(1) besides the report.
    func update(_ change: (inout Exporter.Progress) -> Void) {
        state.withLock { progress in
            change(&progress)
            report?(progress)
            progress.notices = []
        }
    }

    /// Counts an inner page loaded.
    func inner(nodes: Int, pages: Int) {
        update {
            $0.innerNodes += nodes
            $0.innerPages += pages
        }
    }

    /// Notes a node gone from the server while its inner connection was paged.
    func noteGone(_ parent: ParentNode, level: NestedLevel) {
        update {
            $0.notices.append(
                "node '\(parent.id)' is gone from the server; its \"\(level.name)\" ends where it was.")
        }
    }
}
