/// A Relay connection: a page of a list, as `edges { cursor node }` and/or
/// `nodes`, with its `pageInfo` and an optional `totalCount`.
///
/// A connection is a `RandomAccessCollection` of its nodes (see
/// `Connection+Collection.swift`), like Relay's `ConnectionCollection`:
///
/// ```swift
/// struct Data: Decodable { var launches: Connection<Launch> }
/// let launches = try await client.send(query).data?.launches
/// for launch in launches ?? Connection() { print(launch.site) }
/// if launches?.pageInfo.hasNextPage == true { ... }
/// ```
///
/// The collection holds the nodes of the non-null edges whose node is not
/// null, in order; when the response has no `edges`, the non-null `nodes`.
/// When it has both, `edges` wins, because edges carry cursors.
public struct Connection<Node> {
    /// The edges as the response gave them; `nil` when not selected.
    public var edges: [Edge<Node>?]? {
        didSet { rebuild() }
    }
    /// The nodes as the response gave them (the `nodes` shortcut); `nil` when
    /// not selected.
    public var nodes: [Node?]? {
        didSet { rebuild() }
    }
    /// Where the page lies; all `false` and `nil` when not selected.
    public var pageInfo: PageInfo
    /// The number of items in the whole list, when the server gives it.
    public var totalCount: Int?

    /// The nodes the collection presents, null ones skipped.
    private(set) var elements: [Node] = []
    /// The cursor of each element, `nil` when the element came from `nodes`
    /// or its edge had none.
    private(set) var elementCursors: [String?] = []

    /// Creates a connection; by default an empty one.
    /// - Parameters:
    ///   - edges: the edges.
    ///   - nodes: the nodes of the `nodes` shortcut.
    ///   - pageInfo: where the page lies.
    ///   - totalCount: the number of items in the whole list.
    public init(
        edges: [Edge<Node>?]? = nil, nodes: [Node?]? = nil, pageInfo: PageInfo = PageInfo(),
        totalCount: Int? = nil
    ) {
        self.edges = edges
        self.nodes = nodes
        self.pageInfo = pageInfo
        self.totalCount = totalCount
        rebuild()
    }

    private mutating func rebuild() {
        elements = []
        elementCursors = []
        if let edges {
            for case let edge? in edges {
                guard let node = edge.node else { continue }
                elements.append(node)
                elementCursors.append(edge.cursor)
            }
        } else if let nodes {
            elements = nodes.compactMap { $0 }
            elementCursors = Array(repeating: nil, count: elements.count)
        }
    }
}

extension Connection: Sendable where Node: Sendable {}
extension Connection: Equatable where Node: Equatable {}
extension Connection: Hashable where Node: Hashable {}
