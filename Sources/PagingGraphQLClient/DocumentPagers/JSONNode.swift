/// A node of a connection kept as JSON, for tools that know no Swift type
/// for it: its value, its edge's cursor and the id the list tells it by.
///
/// ```swift
/// let source = ConnectionSource(client: client, document: document, idKey: "id")
/// let pager = source.makePager()
/// try await pager.loadNext().value
/// for node in pager.items { print(node.id, node["site"] ?? "null") }
/// ```
public struct JSONNode: Identifiable, Hashable, Sendable {
    /// What the list tells the node by: the value of its id member when it
    /// has one that is not `null`, else its edge's cursor as a string, else
    /// the whole node (equal nodes are then the same node).
    public var id: JSONValue
    /// The node.
    public var value: JSONValue
    /// The cursor of the node's edge; `nil` when the connection was read
    /// from `nodes` or the edge had no cursor.
    public var cursor: String?

    /// Creates a node.
    /// - Parameters:
    ///   - value: the node's JSON.
    ///   - cursor: its edge's cursor.
    ///   - idKey: the member that holds the node's id.
    public init(_ value: JSONValue, cursor: String? = nil, idKey: String = "id") {
        self.value = value
        self.cursor = cursor
        if let id = value[idKey], !id.isNull {
            self.id = id
        } else if let cursor {
            self.id = .string(cursor)
        } else {
            self.id = value
        }
    }

    /// The member of the node under a key.
    /// - Parameter key: the member's response key.
    /// - Complexity: O(1) on average.
    public subscript(key: String) -> JSONValue? { value[key] }
}
