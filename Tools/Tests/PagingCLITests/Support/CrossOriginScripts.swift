import Foundation

/// What the tests of the `--header` origin rule send and answer: two secret header fields, and a
/// GraphQL endpoint on a ``ScriptedHTTPServer`` that has moved.
enum CrossOriginScripts {
    /// `--header` arguments with two secrets, which must never reach another origin.
    static let headerArguments = [
        "--header", "Authorization: Bearer s3cret-token", "--header", "X-Api-Key: k3y-value",
    ]

    /// A query for a one-page connection, as ``movedEndpoint(toOtherOrigin:)`` answers it.
    static let fleetsQuery =
        "query($first: Int, $after: String) { fleets(first: $first, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }"

    /// A GraphQL endpoint that moved: `/graphql` answers 307 to `/moved`, on another origin
    /// (`http://localhost:<port>`, the same server under another host name) or on its own
    /// (`http://127.0.0.1:<port>`); `/moved` answers a one-page connection of one node, id `1`.
    static func movedEndpoint(toOtherOrigin: Bool) -> @Sendable (ReceivedRequest, Int) -> CannedResponse {
        { request, port in
            if request.path == "/graphql" {
                let host = toOtherOrigin ? "localhost" : "127.0.0.1"
                return CannedResponse(
                    status: 307, headers: ["Location": "http://\(host):\(port)/moved"], body: Data())
            }
            return .json(
                """
                {"data": {"fleets": {"edges": [{"cursor": "a", "node": {"id": "1"}}],
                  "pageInfo": {"hasNextPage": false, "endCursor": "a"}}}}
                """)
        }
    }
}
