import GraphQL

/// A pagination fragment in RelaySwiftUI's style, and the refetch query the
/// library builds for it at run time.
///
/// ```swift
/// let fragment = try PaginationFragmentDocument("""
///     fragment ToDoList_user on User
///       @refetchable(queryName: "ToDoListPaginationQuery")
///       @argumentDefinitions(count: {type: "Int", defaultValue: 10}, cursor: {type: "String"}) {
///       todos(first: $count, after: $cursor) @connection(key: "ToDoList_todos") {
///         edges { node { id text } }
///       }
///     }
///     """)
/// print(fragment.text)
/// // query ToDoListPaginationQuery($id: ID!, $count: Int = 10, $cursor: String) {
/// //   node(id: $id) { __typename id ...ToDoList_user }
/// // }
/// // fragment ToDoList_user on User { todos(first: $count, after: $cursor) { edges { node { id text } cursor } pageInfo { ... } } }
/// fragment.refetchQuery.connectionPath // ["node", "todos"]
/// ```
///
/// See <doc:HowThePagersWork> for how it works in detail.
public struct PaginationFragmentDocument: Hashable, Sendable {
    /// Where the refetch query finds the fragment's object.
    public enum Root: Hashable, Sendable {
        /// Through `node(id: $id)`: the fragment is on a `Node` type.
        case node
        /// At the root: the fragment is on `Query`.
        case query
        /// Through `viewer`: the fragment is on `Viewer`.
        case viewer
    }

    /// One argument of `@argumentDefinitions`: a variable of the fragment.
    public struct ArgumentDefinition: Hashable, Sendable {
        /// The variable's name, without `$`.
        public var name: String
        /// Its GraphQL type, such as `Int` or `String!`.
        public var type: String
        /// Its default value as GraphQL text, such as `10`, when given.
        public var defaultValue: String?
    }

    /// The name of the fragment, such as `ToDoList_user`.
    public let fragmentName: String
    /// The type the fragment is on, such as `User`.
    public let typeCondition: String
    /// The name of the refetch query, from `@refetchable(queryName:)`.
    public let queryName: String
    /// Where the refetch query finds the fragment's object.
    public let root: Root
    /// The fragment's variables, in the order declared.
    public let argumentDefinitions: [ArgumentDefinition]
    /// The refetch query, analysed like any ``ConnectionDocument``.
    public let refetchQuery: ConnectionDocument

    /// The refetch query's text, to send.
    public var text: String { refetchQuery.text }

    /// Builds the refetch query of a pagination fragment.
    /// - Parameters:
    ///   - source: a document with the fragment and any fragments it spreads.
    ///   - fragmentName: the fragment to page, required when more than one
    ///     fragment carries `@refetchable`.
    ///   - connectionKey: the `@connection` to page, required when the
    ///     fragment has more than one.
    /// - Throws: `GraphQLDocumentError` naming what is wrong: a syntax
    ///   error, no `@refetchable` fragment, no `queryName:`, no or malformed
    ///   `@argumentDefinitions`, a variable the definitions do not declare,
    ///   or any problem of the connection (see ``ConnectionDocument``).
    public init(_ source: String, fragmentName: String? = nil, connectionKey: String? = nil)
        throws(GraphQLDocumentError)
    {
        let document = try DocumentAnalysis.parse(source)
        let fragments = document.definitions.compactMap { $0 as? FragmentDefinition }
        let fragment = try Self.choose(fragmentName, in: fragments)
        let name = fragment.name.value
        let place = DocumentAnalysis.place(of: fragment)

        guard let refetchable = fragment.directives.first(where: { $0.name.value == "refetchable" }),
            let queryName =
                (refetchable.arguments.first { $0.name.value == "queryName" }?.value as? StringValue)?.value
        else {
            throw GraphQLDocumentError(
                .refetchable,
                "The @refetchable directive of fragment \"\(name)\" has no queryName: string; "
                    + "write @refetchable(queryName: \"\(name)PaginationQuery\").",
                line: place?.line,
                column: place?.column
            )
        }
        let definitions = try Self.argumentDefinitions(of: fragment)
        try Self.checkVariables(of: fragment, fragments: fragments, defined: Set(definitions.map(\.name)))

        let typeCondition = fragment.typeCondition.name.value
        let root: Root =
            switch typeCondition {
            case "Query": .query
            case "Viewer": .viewer
            default: .node
            }
        if root == .node, definitions.contains(where: { $0.name == "id" }) {
            throw GraphQLDocumentError(
                .refetchable,
                "The @argumentDefinitions of fragment \"\(name)\" define $id, which the refetch query uses for node(id: $id); rename it.",
                line: place?.line,
                column: place?.column
            )
        }

        var declarations = definitions.map {
            "$\($0.name): \($0.type)" + ($0.defaultValue.map { " = \($0)" } ?? "")
        }
        if root == .node { declarations.insert("$id: ID!", at: 0) }
        let header =
            "query \(queryName)" + (declarations.isEmpty ? "" : "(\(declarations.joined(separator: ", ")))")
        let body =
            switch root {
            case .node: "{ node(id: $id) { __typename id ...\(name) } }"
            case .query: "{ ...\(name) }"
            case .viewer: "{ viewer { ...\(name) } }"
            }
        let cleaned = fragments.map { definition -> any Node in
            let kept = definition.directives.filter {
                !["refetchable", "argumentDefinitions"].contains($0.name.value)
            }
            return definition.set(value: .array(kept), key: "directives")
        }
        let fragmentsText = GraphQL.print(ast: document.set(value: .array(cleaned), key: "definitions"))

        self.fragmentName = name
        self.typeCondition = typeCondition
        self.queryName = queryName
        self.root = root
        self.argumentDefinitions = definitions
        self.refetchQuery = try ConnectionDocument(
            "\(header) \(body)\n\n\(fragmentsText)",
            connectionKey: connectionKey,
            operationName: queryName
        )
    }

    private static func choose(_ fragmentName: String?, in fragments: [FragmentDefinition])
        throws(GraphQLDocumentError) -> FragmentDefinition
    {
        let isRefetchable = { (fragment: FragmentDefinition) in
            fragment.directives.contains { $0.name.value == "refetchable" }
        }
        if let fragmentName {
            guard let fragment = fragments.first(where: { $0.name.value == fragmentName }) else {
                throw GraphQLDocumentError(
                    .refetchable,
                    "The document has no fragment named \"\(fragmentName)\"; it has "
                        + "\(DocumentAnalysis.list(fragments.map(\.name.value), empty: "no fragments"))."
                )
            }
            guard isRefetchable(fragment) else {
                let place = DocumentAnalysis.place(of: fragment)
                throw GraphQLDocumentError(
                    .refetchable,
                    "The fragment \"\(fragmentName)\"\(DocumentAnalysis.placeText(place)) has no @refetchable directive; "
                        + "add @refetchable(queryName: \"\(fragmentName)PaginationQuery\") so its refetch query can be built.",
                    line: place?.line,
                    column: place?.column
                )
            }
            return fragment
        }
        let candidates = fragments.filter(isRefetchable)
        guard let first = candidates.first else {
            throw GraphQLDocumentError(
                .refetchable,
                fragments.isEmpty
                    ? "The document has no fragment; a pagination fragment looks like `fragment List_user on User @refetchable(queryName: \"ListQuery\") ... { ... }`."
                    : "No fragment of the document has a @refetchable directive; add @refetchable(queryName: \"...\") to the fragment to page."
            )
        }
        guard candidates.count == 1 else {
            throw GraphQLDocumentError(
                .refetchable,
                "\(candidates.count) fragments have @refetchable (\(DocumentAnalysis.list(candidates.map(\.name.value), empty: ""))); "
                    + "pass fragmentName to choose one."
            )
        }
        return first
    }

    private static func argumentDefinitions(of fragment: FragmentDefinition) throws(GraphQLDocumentError)
        -> [ArgumentDefinition]
    {
        try FragmentArgumentDefinitions.parse(fragment).map {
            ArgumentDefinition(name: $0.name, type: $0.type, defaultValue: $0.defaultValue)
        }
    }

    /// Checks that every variable the fragment (and what it spreads) uses is
    /// declared by its argument definitions.
    private static func checkVariables(
        of fragment: FragmentDefinition,
        fragments: [FragmentDefinition],
        defined: Set<String>
    ) throws(GraphQLDocumentError) {
        let byName = Dictionary(
            fragments.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        var uses = VariableUses()
        _ = SelectionWalker(fragments: byName).walk(
            fragment.selectionSet, in: SelectionContext(definition: fragment), with: &uses)
        let used = uses.uses.map { (name: $0.name, node: $0.variable as any Node) }
        if let undeclared = used.first(where: { !defined.contains($0.name) }) {
            let place = DocumentAnalysis.place(of: undeclared.node)
            throw GraphQLDocumentError(
                .refetchable,
                "The fragment \"\(fragment.name.value)\" uses $\(undeclared.name)\(DocumentAnalysis.placeText(place)), "
                    + "which its @argumentDefinitions do not declare; add \(undeclared.name): {type: \"...\"} to them.",
                line: place?.line,
                column: place?.column
            )
        }
    }
}
