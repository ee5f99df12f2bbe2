import Foundation
import PagingGraphQL

/// An item of ``ItemCatalog``'s list, as the client reads it.
struct Item: Codable, Identifiable, Hashable, Sendable {
    /// `item-<n>`.
    var id: String
    /// `Item <n>`.
    var name: String
}

/// The query of ``HostileServer``'s connection: `items(first:after:)`, forward with cursors.
struct ItemsQuery: GraphQLOperation {
    /// The pagination variables.
    struct Variables: Encodable, Sendable {
        /// How many items.
        var first: Int?
        /// The cursor to start after.
        var after: String?
    }

    /// The data: the connection.
    struct Data: Decodable, Sendable {
        /// The page of the list.
        var items: Connection<Item>
    }

    /// The document: the one the pagers, the client and `paging fetch` send.
    static let document = """
        query Items($first: Int, $after: String) {
          items(first: $first, after: $after) {
            edges { cursor node { id name } }
            pageInfo { hasNextPage endCursor }
          }
        }
        """

    /// ``document`` with its connection marked `@connection`, as the document-driven pagers
    /// need it.
    static let connectionDocument = document.replacingOccurrences(
        of: "items(first: $first, after: $after)",
        with: #"items(first: $first, after: $after) @connection(key: "Items_items")"#)

    /// The variables sent.
    var variables: Variables
    /// ``document``.
    var document: String { Self.document }
    /// `Items`.
    var operationName: String? { "Items" }

    /// Creates the query of a page.
    /// - Parameters:
    ///   - first: how many items.
    ///   - after: the cursor to start after; the start of the list when `nil`.
    init(first: Int?, after: String? = nil) {
        variables = Variables(first: first, after: after)
    }
}
