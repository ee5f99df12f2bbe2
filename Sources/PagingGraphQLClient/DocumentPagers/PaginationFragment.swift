public import Paging
import PagingLock

/// Pages the connection of a Relay pagination fragment, as RelaySwiftUI's
/// `@PaginationFragment` does, on any platform.
///
/// ```swift
/// let fragment = try PaginationFragmentDocument("""
///     fragment ToDoList_user on User
///       @refetchable(queryName: "ToDoListPaginationQuery")
///       @argumentDefinitions(count: { type: "Int", defaultValue: 10 }, cursor: { type: "String" }) {
///       todos(first: $count, after: $cursor) @connection(key: "ToDoList_todos") {
///         edges { node { id text complete } }
///       }
///     }
///     """)
/// let todos = try PaginationFragment(fragment, nodeID: user.id, client: client, as: Todo.self).makeList()
///
/// // In a SwiftUI view:
/// ForEach(todos.items) { todo in ToDoItem(todo: todo) }
/// if todos.isLoadingNext { Text("Loading…") }
/// else if todos.hasNext { Button("Load more") { todos.loadNext(count: 10) } }
/// ```
///
/// As in Relay, the list can start from the fragment's data that the parent
/// query already fetched (the spread `...ToDoList_user`): its nodes are the
/// first page, and the refetch query asks only for the pages after it.
///
/// ```swift
/// let todos = try PaginationFragment(fragment, nodeID: user.id, client: client, as: Todo.self)
///     .startingFrom(userFields)  // the User object of the parent's response
///     .makeList()
/// ```
///
/// See <doc:HowThePagersWork> for how it works in detail.
public struct PaginationFragment<Node: Sendable>: PageSource {
    /// The engine's key: a cursor.
    public typealias Key = String
    /// The engine's item: a node of the connection.
    public typealias Item = Node

    /// The fragment and its refetch query.
    public let fragment: PaginationFragmentDocument
    /// The id of the object the fragment is on (`nil` for `Query` and `Viewer`).
    public let nodeID: String?
    /// The source that pages the refetch query.
    public let connection: ConnectionSource<Node>
    /// The fragment's data as its parent query fetched it, when the list
    /// starts from it: the first page, answered once, with no request.
    private let start: FetchedStart?

    init(
        fragment: PaginationFragmentDocument,
        nodeID: String?,
        makeSource: ([String: JSONValue]) -> ConnectionSource<Node>,
        variables: [String: JSONValue]
    ) throws(GraphQLPagerError) {
        var values = variables
        switch (fragment.root, nodeID) {
        case (.node, let id?):
            values["id"] = .string(id)
        case (.node, nil):
            throw GraphQLPagerError(
                .nodeID,
                "The fragment \"\(fragment.fragmentName)\" is on \(fragment.typeCondition), so its refetch query "
                    + "\(fragment.queryName) finds it with node(id:); pass the id of the \(fragment.typeCondition) as nodeID."
            )
        case (.query, nil), (.viewer, nil):
            break
        case (.query, _?), (.viewer, _?):
            throw GraphQLPagerError(
                .nodeID,
                "The fragment \"\(fragment.fragmentName)\" is on \(fragment.typeCondition), which its refetch query "
                    + "\(fragment.queryName) reaches without an id; pass no nodeID.")
        }
        self.init(fragment: fragment, nodeID: nodeID, connection: makeSource(values), start: nil)
    }

    private init(
        fragment: PaginationFragmentDocument, nodeID: String?, connection: ConnectionSource<Node>,
        start: FetchedStart?
    ) {
        self.fragment = fragment
        self.nodeID = nodeID
        self.connection = connection
        self.start = start
    }

    /// This fragment, its list starting from the fragment's data as the
    /// parent query fetched it (the object the fragment is spread on), as
    /// Relay's pagination fragments do: the first page is the nodes that data
    /// holds, with its `pageInfo`, and no request is sent for it; the refetch
    /// query asks only for the pages after it (or before it). A refresh, and
    /// a retry after the data could not be read, ask the refetch query.
    /// - Parameter data: the fragment's fields as the parent's response holds
    ///   them, such as `{"todos": {"edges": [...], "pageInfo": {...}}}`.
    /// - Returns: the fragment, starting from the data.
    /// - Complexity: O(1); the data is read at the first load.
    public func startingFrom(_ data: JSONValue) -> Self {
        let response: JSONValue =
            switch fragment.root {
            case .node: ["node": data]
            case .query: data
            case .viewer: ["viewer": data]
            }
        return PaginationFragment(
            fragment: fragment, nodeID: nodeID, connection: connection, start: FetchedStart(response))
    }

    /// Loads a page of the fragment's connection through its refetch query.
    /// - Parameter request: the engine's request; its count is sent as the
    ///   fragment's count variable.
    /// - Returns: the page's nodes and the cursors of its neighbours.
    /// - Throws: as ``ConnectionSource/load(_:)``.
    /// - Complexity: one request, plus decoding one page.
    public func load(_ request: PageRequest<String>) async throws -> Page<String, Node> {
        if case .initial = request.position, let data = start(for: request)?.take() {
            return try connection.page(fromFetched: data, for: request)
        }
        return try await connection.load(request)
    }

    /// The fetched first page of the pager of a load, its own (kept for it
    /// the first time), so that each pager made of the fragment opens on
    /// it; the fragment's own for a load from no pager.
    private func start(for request: PageRequest<String>) -> FetchedStart? {
        guard let start else { return nil }
        guard let load = request.load else { return start }
        // A pager gone meanwhile: its load is thrown away, and takes nothing of the fragment's.
        return load.attachments?.attachment(for: start) { FetchedStart(start.data) }
            ?? FetchedStart(start.data)
    }
}

/// The data a pagination fragment's first page is made of, taken once:
/// each pager made of the fragment gets its own (see `start(for:)`).
private final class FetchedStart: Sendable {
    /// The data, shaped as the refetch query's response data.
    let data: JSONValue
    private let taken = Lock(false)

    init(_ data: JSONValue) {
        self.data = data
    }

    /// The data the first time, `nil` after.
    func take() -> JSONValue? {
        // Spelled out: JSONValue is itself expressible by `nil` (as `null`).
        let first = taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
        return first ? .some(data) : .none
    }
}

extension PaginationFragment where Node: Decodable {
    /// Creates a pager for a fragment whose nodes decode into a type of
    /// your own.
    /// - Parameters:
    ///   - fragment: the pagination fragment.
    ///   - nodeID: the id of the object the fragment is on; required for a
    ///     fragment on a `Node` type, `nil` for one on `Query` or `Viewer`.
    ///   - client: the client to send the refetch query with.
    ///   - variables: values of the fragment's other arguments; the id and
    ///     the pagination variables are set by the pager.
    ///   - type: the type of a node.
    ///   - onPartialData: called with the errors of a page that came with
    ///     data and errors; the page is delivered either way.
    /// - Throws: ``GraphQLPagerError`` with code ``GraphQLPagerError/Code/nodeID``
    ///   when `nodeID` is missing for a `Node` fragment or given for another.
    public init(
        _ fragment: PaginationFragmentDocument,
        nodeID: String? = nil,
        client: GraphQLClient,
        variables: [String: JSONValue] = [:],
        as type: Node.Type = Node.self,
        onPartialData: (@Sendable (PartialDataReport<String>) -> Void)? = nil
    ) throws(GraphQLPagerError) {
        try self.init(
            fragment: fragment, nodeID: nodeID,
            makeSource: { values in
                ConnectionSource(
                    client: client, document: fragment.refetchQuery, variables: values, as: Node.self,
                    onPartialData: onPartialData)
            },
            variables: variables)
    }
}

extension PaginationFragment where Node == JSONNode {
    /// Creates a pager for a fragment whose nodes stay JSON, for tools.
    /// - Parameters:
    ///   - fragment: the pagination fragment.
    ///   - nodeID: the id of the object the fragment is on, or `nil` for
    ///     `Query` and `Viewer`.
    ///   - client: the client to send the refetch query with.
    ///   - variables: values of the fragment's other arguments.
    ///   - idKey: the node member the list tells nodes apart by.
    ///   - onPartialData: called with the errors of a page that came with
    ///     data and errors.
    /// - Throws: ``GraphQLPagerError`` with code ``GraphQLPagerError/Code/nodeID``.
    public init(
        _ fragment: PaginationFragmentDocument,
        nodeID: String? = nil,
        client: GraphQLClient,
        variables: [String: JSONValue] = [:],
        idKey: String = "id",
        onPartialData: (@Sendable (PartialDataReport<String>) -> Void)? = nil
    ) throws(GraphQLPagerError) {
        try self.init(
            fragment: fragment, nodeID: nodeID,
            makeSource: { values in
                ConnectionSource(
                    client: client, document: fragment.refetchQuery, variables: values, idKey: idKey,
                    onPartialData: onPartialData)
            },
            variables: variables)
    }
}
