import GraphQL

/// A query document whose connection field carries `@connection(key:)`,
/// analysed and made ready to page.
///
/// ```swift
/// let document = try ConnectionDocument("""
///     query Launches($first: Int, $after: String) {
///       viewer {
///         list: launches(first: $first, after: $after) @connection(key: "Launches_list") {
///           edges { node { id site } }
///         }
///       }
///     }
///     """)
/// document.connectionPath      // ["viewer", "list"]
/// document.variables.first     // "first"
/// document.text                // the document, with pageInfo and cursor, without @connection
/// ```
///
/// See <doc:HowThePagersWork> for how it works in detail.
public struct ConnectionDocument: Hashable, Sendable {
    /// The document to send: the given one, completed and without
    /// `@connection`.
    public let text: String
    /// The name of the operation to run, `nil` when the document's only
    /// operation is anonymous.
    public let operationName: String?
    /// The key of the chosen `@connection`; the field's response key when
    /// the directive has no `key:`.
    public let connectionKey: String
    /// The schema name of the connection field, such as `launches`.
    public let connectionFieldName: String
    /// The response path of the connection from the root of `data`, made of
    /// response keys (aliases where given), such as `["viewer", "list"]`.
    public let connectionPath: [GraphQLPathSegment]
    /// The variables bound to the pagination arguments.
    public let variables: PaginationVariables
    /// The response key of the connection's `edges`, when selected.
    public let edgesKey: String?
    /// The response key of the node inside each edge, when `edges` is selected.
    public let edgeNodeKey: String?
    /// The response key of the connection's `nodes`, when selected.
    public let nodesKey: String?
    /// The node's selection, compiled for the store: what a store follower
    /// reads at a node's record to show it again; `nil` when it cannot be
    /// compiled (the list then does not follow the store).
    let nodeSelection: NodeSelection?
    /// The connection field's filter arguments: all but its pagination
    /// arguments, as written (literals or variables).
    let filterArguments: FilterArguments

    /// A compiled node selection. It follows from the document's text, which
    /// the document's equality already compares, so it adds nothing to it.
    struct NodeSelection: Hashable, Sendable {
        /// The compiled selection.
        let sets: [CompiledSelectionSet]
        static func == (lhs: NodeSelection, rhs: NodeSelection) -> Bool { true }
        func hash(into hasher: inout Hasher) {}
    }

    /// The filter arguments of a connection field. They follow from the
    /// document's text, so they add nothing to its equality either.
    struct FilterArguments: Hashable, Sendable {
        let values: [(name: String, value: StoreInputValue)]
        static func == (lhs: FilterArguments, rhs: FilterArguments) -> Bool { true }
        func hash(into hasher: inout Hasher) {}

        /// The arguments with a list's variables: an argument whose
        /// variable has no value is left out.
        func resolved(_ variables: [String: JSONValue]) -> [String: JSONValue] {
            var resolved: [String: JSONValue] = [:]
            for (name, value) in values { resolved[name] = value.resolved(variables) }
            return resolved
        }
    }

    /// Analyses a document and prepares it for paging.
    /// - Parameters:
    ///   - source: the GraphQL document: one or more operations and the
    ///     fragments they use.
    ///   - connectionKey: the key of the `@connection` to page, required
    ///     when the operation has more than one.
    ///   - operationName: the operation to use, required when the document
    ///     has more than one.
    /// - Throws: `GraphQLDocumentError` naming why the document cannot be paged.
    public init(_ source: String, connectionKey: String? = nil, operationName: String? = nil)
        throws(GraphQLDocumentError)
    {
        try self.init(
            parsed: try DocumentAnalysis.parse(source), connectionKey: connectionKey,
            operationName: operationName)
    }

    /// Analyses a parsed document and prepares it for paging (``init(_:connectionKey:operationName:)``).
    /// The document's nodes must carry the places of one source text: the
    /// analysis tells fields apart by them.
    init(parsed document: Document, connectionKey: String?, operationName: String?)
        throws(GraphQLDocumentError)
    {
        let analysis = try DocumentAnalysis(document: document, operationName: operationName)
        let site = try analysis.connectionSite(key: connectionKey)
        let shape = try DocumentAnalysis.shape(of: site)
        let variables = try analysis.paginationVariables(of: site)

        let rewritten = try DocumentRewriter(target: site.field, variables: variables).rewrite(
            document)
        self.text = GraphQL.print(ast: rewritten)
        self.operationName = analysis.operation.name?.value
        self.connectionKey = site.key
        self.connectionFieldName = site.field.name.value
        self.connectionPath = site.path
        self.variables = variables
        self.edgesKey = shape.edgesKey
        self.edgeNodeKey = shape.edgeNodeKey
        self.nodesKey = shape.nodesKey
        self.nodeSelection = Self.nodeSelection(
            of: document, connectionKey: connectionKey, operationName: operationName)
        let paginationArguments: Set<String> = ["first", "after", "last", "before"]
        self.filterArguments = FilterArguments(
            values: site.field.arguments.compactMap { argument in
                paginationArguments.contains(argument.name.value)
                    ? nil : (argument.name.value, StoreInputValue(argument.value))
            })
    }

    /// Compiles the selection of the connection's node for reading it back
    /// from a store, as a client with a store sends it: with `__typename` in
    /// every object, so that an item read back is the item a load gives.
    private static func nodeSelection(of document: Document, connectionKey: String?, operationName: String?)
        -> NodeSelection?
    {
        var rewriter = StoreDocumentRewriter(schema: nil, addsTypename: true, addsID: false)
        let typed = rewriter.rewrite(document)
        guard let analysis = try? DocumentAnalysis(document: typed, operationName: operationName),
            let site = try? analysis.connectionSite(key: connectionKey),
            let shape = try? DocumentAnalysis.shape(of: site)
        else { return nil }
        return nodeSelection(of: site.field, shape: shape, fragments: analysis.fragments)
    }

    /// Compiles the selection of the connection's node (under `edges { node }`
    /// or `nodes`) for reading it back from a store.
    private static func nodeSelection(
        of connection: Field, shape: ConnectionShape, fragments: [String: FragmentDefinition]
    ) -> NodeSelection? {
        func child(_ key: String?, of field: Field?) -> Field? {
            guard let key else { return nil }
            return field?.selectionSet?.selections.lazy.compactMap { $0 as? Field }.first {
                ($0.alias?.value ?? $0.name.value) == key
            }
        }
        let node =
            child(shape.edgeNodeKey, of: child(shape.edgesKey, of: connection))
            ?? child(shape.nodesKey, of: connection)
        guard let selectionSet = node?.selectionSet,
            let query = try? StoreQuery(
                selectionSet: selectionSet, fragments: fragments, at: .queryRoot, variables: [:])
        else { return nil }
        return NodeSelection(sets: query.sets)
    }
}
