import Foundation
import GraphQL
import Graphiti

/// An edge of ``RocketRelayConnection``: a rocket and its cursor.
struct RocketEdge: Sendable {
    /// The rocket's opaque cursor.
    let cursor: String
    /// The rocket.
    let node: Rocket
}

/// Every rocket as a Relay connection (GraphQL type `RocketConnection`), ordered by id: the
/// outer level of a nested export (`rocketConnection { edges { node { launches(...) } } }`),
/// whose nodes each hold a connection of their own.
///
/// The rockets never change while the server runs, so a cursor is the rocket's id, wrapped so
/// that it is opaque (base64url of `rocket:<id>`); a cursor naming no rocket still pages from
/// where that id would stand.
struct RocketRelayConnection: Sendable {
    /// The page's edges, in id order.
    let edges: [RocketEdge]
    /// Where the page stands in the list.
    let pageInfo: PageInfo
    /// The number of rockets.
    let totalCount: Int

    /// The page's rockets (GitHub's `nodes` shortcut).
    var nodes: [Rocket] { edges.map(\.node) }

    /// Runs the spec's algorithms (`ApplyCursorsToEdges`, then `first` or `last`) over the
    /// rockets.
    ///
    /// - Parameters:
    ///   - arguments: `first`, `after`, `last`, `before`.
    ///   - rockets: Every rocket.
    /// - Returns: The page.
    /// - Throws: A `GraphQLError` naming the argument for bad arguments.
    /// - Complexity: O(*r* log *r*) for *r* rockets (a handful).
    static func resolve(arguments: ConnectionArguments, rockets: [String: Rocket]) throws
        -> RocketRelayConnection
    {
        let field = "rocketConnection"
        let count = try ConnectionRequest.count(of: arguments, field: field)
        let after = try arguments.after.map { cursor throws(GraphQLError) in
            try RocketCursor.decode(cursor, argument: "after", field: field)
        }
        let before = try arguments.before.map { cursor throws(GraphQLError) in
            try RocketCursor.decode(cursor, argument: "before", field: field)
        }
        let all = rockets.values.sorted { $0.rocketID < $1.rocketID }
        let inRange = all.filter { rocket in
            (after.map { rocket.rocketID > $0 } ?? true) && (before.map { rocket.rocketID < $0 } ?? true)
        }
        let page: [Rocket]
        let hasNextPage: Bool
        let hasPreviousPage: Bool
        switch count {
        case .first(let first):
            page = Array(inRange.prefix(first))
            hasNextPage = inRange.count > first
            hasPreviousPage = after.map { id in all.contains { $0.rocketID <= id } } ?? false
        case .last(let last):
            page = Array(inRange.suffix(last))
            hasPreviousPage = inRange.count > last
            hasNextPage = before.map { id in all.contains { $0.rocketID >= id } } ?? false
        }
        let edges = page.map { RocketEdge(cursor: RocketCursor.encode($0.rocketID), node: $0) }
        return RocketRelayConnection(
            edges: edges,
            pageInfo: PageInfo(
                hasNextPage: hasNextPage, hasPreviousPage: hasPreviousPage,
                startCursor: edges.first?.cursor, endCursor: edges.last?.cursor),
            totalCount: all.count)
    }
}

/// The cursors of ``RocketRelayConnection``: base64url (without padding) of `rocket:<id>`.
enum RocketCursor {
    private static let prefix = "rocket:"

    /// The cursor of a rocket's id.
    static func encode(_ id: String) -> String {
        Data((prefix + id).utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The rocket id a cursor names.
    /// - Throws: A `GraphQLError` naming the argument when the text is not a rocket cursor.
    static func decode(_ cursor: String, argument: String, field: String) throws(GraphQLError) -> String {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if base64.utf8.count % 4 != 0 {
            base64 += String(repeating: "=", count: 4 - base64.utf8.count % 4)
        }
        guard cursor.utf8.count <= 200, let data = Data(base64Encoded: base64),
            let text = String(data: data, encoding: .utf8), text.hasPrefix(prefix)
        else {
            throw ArgumentError.invalid(
                argument, of: field,
                "Argument `\(argument)` of `\(field)` is not a valid cursor: it is not a rocket cursor of this server. Pass a cursor that this server returned."
            )
        }
        return String(text.dropFirst(prefix.count))
    }
}
