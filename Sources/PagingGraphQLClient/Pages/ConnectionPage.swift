/// One page of a connection, read from a response's JSON: its nodes, the
/// cursor of each, its `PageInfo` and the total count when given.
///
/// ``ConnectionDocument/extractPage(from:)-(JSONValue)`` makes one; the
/// nodes stay JSON until ``decodeNodes(as:)`` turns them into a type of
/// your own.
public struct ConnectionPage: Hashable, Sendable {
    /// The nodes, in order; null edges and nodes skipped.
    public var nodes: [JSONValue]
    /// The cursor of each node's edge, parallel to ``nodes``; `nil` when the
    /// connection was read from `nodes` or an edge had no cursor.
    public var cursors: [String?]
    /// Where the page lies.
    public var pageInfo: PageInfo
    /// The number of items in the whole list, when the server gave it.
    public var totalCount: Int?
    /// The response path of each node, for error messages.
    var nodePaths: [[GraphQLPathSegment]]

    /// Creates a page.
    /// - Parameters:
    ///   - nodes: the nodes.
    ///   - cursors: the cursor of each node; all `nil` unless given.
    ///   - pageInfo: where the page lies.
    ///   - totalCount: the number of items in the whole list.
    public init(nodes: [JSONValue], cursors: [String?]? = nil, pageInfo: PageInfo, totalCount: Int? = nil) {
        self.nodes = nodes
        self.cursors = cursors ?? Array(repeating: nil, count: nodes.count)
        self.pageInfo = pageInfo
        self.totalCount = totalCount
        self.nodePaths = nodes.indices.map { [.index($0)] }
    }

    init(
        nodes: [JSONValue], cursors: [String?], pageInfo: PageInfo, totalCount: Int?,
        nodePaths: [[GraphQLPathSegment]]
    ) {
        self.nodes = nodes
        self.cursors = cursors
        self.pageInfo = pageInfo
        self.totalCount = totalCount
        self.nodePaths = nodePaths
    }

    /// Decodes the nodes into a type of your own.
    ///
    /// ```swift
    /// struct Launch: Decodable, Sendable, Identifiable { var id: String; var site: String? }
    /// let launches = try page.decodeNodes(as: Launch.self)
    /// ```
    /// - Parameter type: the type of a node.
    /// - Returns: the decoded nodes, in order.
    /// - Throws: ``GraphQLClientError/Code/undecodableResponse`` naming the
    ///   response path of the node that did not decode.
    /// - Complexity: O(*n*) in the size of the nodes' JSON.
    public func decodeNodes<Node: Decodable>(as type: Node.Type = Node.self) throws(GraphQLClientError)
        -> [Node]
    {
        // One decoder run for the whole page; only when it fails is each node
        // decoded alone, to name the one that does not decode.
        if let decoded = try? JSONValue.array(nodes).decode([Node].self) { return decoded }
        var decoded: [Node] = []
        decoded.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() {
            do {
                decoded.append(try node.decode(Node.self))
            } catch let error as DecodingError {
                throw .undecodableNode(error, type: Node.self, nodePath: nodePaths[index])
            } catch {
                throw .undecodableConnection(
                    path: nodePaths[index],
                    problem: String(describing: error)
                )
            }
        }
        return decoded
    }
}
