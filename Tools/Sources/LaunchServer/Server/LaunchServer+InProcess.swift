public import Foundation
import GraphQL

extension LaunchServer {
    /// Runs one GraphQL request in this process, as `POST /graphql` would, without the network.
    ///
    /// The body is what a client posts (`{"query": ..., "operationName": ..., "variables": {...}}`)
    /// and the result is the JSON of the response (`{"data": ..., "errors": [...]}`); a body that
    /// cannot be read gets the same GraphQL-shaped error the endpoint sends. For benchmarks and
    /// tools that measure the schema and the database without the HTTP stack.
    ///
    /// - Parameter body: the request body, JSON.
    /// - Returns: the response body, JSON.
    /// - Complexity: that of the operation; a connection page costs O(*n* + log *N*) for *n* rows
    ///   asked of *N* held, at any depth.
    public func executeGraphQL(body: Data) async -> Data {
        let request: GraphQLRequest
        do {
            request = try GraphQLEndpoint.decodePost(body)
        } catch {
            let result = GraphQLResult(errors: [GraphQLError(message: error.message)])
            return (try? GraphQLJSONEncoder().encode(result))
                ?? Data(#"{"errors":[{"message":"unknown"}]}"#.utf8)
        }
        let result = await api.run(request, context: LaunchContext(store: store))
        do {
            return try GraphQLJSONEncoder().encode(result)
        } catch {
            let failure = GraphQLResult(errors: [
                GraphQLError(message: "the result could not be encoded: \(error)")
            ])
            return (try? GraphQLJSONEncoder().encode(failure))
                ?? Data(#"{"errors":[{"message":"unknown"}]}"#.utf8)
        }
    }

    /// The cursor a client holds after paging `depth` launches into the newest-first list: give it
    /// as `after:` to `launchConnection` to load the rows that follow.
    ///
    /// For benchmarks and tests that start deep in a long list without paging there first.
    ///
    /// - Parameter depth: how many launches come before the cursor's position; at least 1.
    /// - Returns: the cursor of the launch at that depth, or `nil` when the list is shorter.
    /// - Throws: ``LaunchServerError`` when the database cannot be read.
    /// - Complexity: O(*depth*) (an SQL `OFFSET`).
    public func cursor(atDepth depth: Int) async throws(LaunchServerError) -> String? {
        guard depth >= 1 else { return nil }
        do {
            guard let launch = try await store.offsetPage(offset: depth - 1, limit: 1).first else {
                return nil
            }
            return LaunchCursor.encode(launch.position)
        } catch {
            throw LaunchServerError.database("\(error)")
        }
    }
}

extension LaunchServer {
    /// The address of the subscriptions: ``graphQLURL`` with the `ws` scheme.
    public var webSocketURL: URL {
        var components = URLComponents(url: graphQLURL, resolvingAgainstBaseURL: false)
        components?.scheme = "ws"
        return components?.url ?? graphQLURL
    }

    /// Returns once exactly `count` subscriptions (`launchAdded`, `launchUpdated`) are
    /// listening: for tests and tools that add launches only once a subscriber will see them
    /// (a `subscribe` message is taken in after it is sent).
    public func waitForSubscriptions(_ count: Int) async {
        await store.events.waitUntilCount { $0 == count }
    }
}
