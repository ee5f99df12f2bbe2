import Foundation

/// The list a ``HostileServer`` serves when it behaves: `count` items as the Relay connection
/// `items(first:after:)`, oldest first, with opaque cursors.
///
/// The item at position *i* (from 0) has the id `item-<i + 1>` and the name `Item <i + 1>`; its
/// cursor is the base64 of `items:v1:<i>`. A page is the items after a cursor (from the start
/// without one), `first` of them, with `pageInfo` saying whether more follow.
struct ItemCatalog: Sendable {
    /// How many items the list holds.
    let count: Int

    /// Creates a list.
    /// - Parameter count: how many items it holds.
    init(count: Int) {
        self.count = count
    }

    /// Every id, in list order.
    var ids: [String] { (0..<count).map(Self.id(at:)) }

    /// The id of the item at a position.
    /// - Parameter index: the position, from 0.
    /// - Returns: `item-<index + 1>`.
    static func id(at index: Int) -> String { "item-\(index + 1)" }

    /// The cursor of the item at a position.
    /// - Parameter index: the position, from 0.
    /// - Returns: the opaque cursor.
    static func cursor(at index: Int) -> String {
        Data("items:v1:\(index)".utf8).base64EncodedString()
    }

    /// The position a cursor points at, or `nil` for text that is not a cursor of this list.
    /// - Parameter cursor: the cursor.
    /// - Returns: the position, from 0.
    func position(of cursor: String) -> Int? {
        guard let data = Data(base64Encoded: cursor), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("items:v1:"), let index = Int(text.dropFirst("items:v1:".count)),
            (0..<count).contains(index)
        else { return nil }
        return index
    }

    /// The body of the answer to `items(first:after:)`: a GraphQL response with the page, or
    /// one with an error for a cursor that is not of this list or a negative `first`.
    /// - Parameters:
    ///   - first: how many items; every item after the cursor when `nil`.
    ///   - after: the cursor to start after; the start of the list when `nil`.
    /// - Returns: the JSON body.
    func responseBody(first: Int?, after: String?) -> Data {
        var start = 0
        if let after {
            guard let position = position(of: after) else {
                return Self.errorBody("after: \(after) is not a cursor of this list")
            }
            start = position + 1
        }
        if let first, first < 0 {
            return Self.errorBody("first must be 0 or more; it is \(first)")
        }
        let end = min(count, start + (first ?? count))
        let edges: [Any] = (start..<max(start, end)).map { index in
            [
                "cursor": Self.cursor(at: index),
                "node": ["id": Self.id(at: index), "name": "Item \(index + 1)"],
            ]
        }
        let pageInfo: [String: Any] = [
            "hasNextPage": end < count,
            "hasPreviousPage": start > 0,
            "startCursor": end > start ? Self.cursor(at: start) : NSNull(),
            "endCursor": end > start ? Self.cursor(at: end - 1) : NSNull(),
        ]
        let response: [String: Any] = ["data": ["items": ["edges": edges, "pageInfo": pageInfo]]]
        return Self.json(response)
    }

    private static func errorBody(_ message: String) -> Data {
        json(["data": NSNull(), "errors": [["message": message]]])
    }

    private static func json(_ object: [String: Any]) -> Data {
        // Only strings, numbers, booleans, null, arrays and dictionaries: always serializable.
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
