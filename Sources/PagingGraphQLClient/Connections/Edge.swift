/// An edge of a Relay connection: a node and the cursor that points at it.
///
/// Both are optional, as schemas and selections vary: a `null` node is
/// skipped when the connection is read as a collection.
public struct Edge<Node> {
    /// The cursor of the node, to page from it.
    public var cursor: String?
    /// The node.
    public var node: Node?

    /// Creates an edge.
    /// - Parameters:
    ///   - cursor: the cursor of the node.
    ///   - node: the node.
    public init(cursor: String?, node: Node?) {
        self.cursor = cursor
        self.node = node
    }
}

extension Edge: Sendable where Node: Sendable {}
extension Edge: Equatable where Node: Equatable {}
extension Edge: Hashable where Node: Hashable {}
extension Edge: Decodable where Node: Decodable {}
extension Edge: Encodable where Node: Encodable {}
