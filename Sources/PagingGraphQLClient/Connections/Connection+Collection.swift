extension Connection: RandomAccessCollection {
    /// The position of the first node: always 0.
    public var startIndex: Int { 0 }
    /// The position after the last node.
    public var endIndex: Int { elements.count }

    /// The node at a position.
    /// - Parameter position: a valid index.
    /// - Complexity: O(1).
    public subscript(position: Int) -> Node {
        elements[position]
    }

    /// The cursor of the edge of the node at a position; `nil` when the
    /// node came from `nodes` or the edge had no cursor.
    /// - Parameter position: a valid index.
    /// - Returns: the cursor.
    /// - Complexity: O(1).
    public func cursor(at position: Int) -> String? {
        elementCursors[position]
    }
}
