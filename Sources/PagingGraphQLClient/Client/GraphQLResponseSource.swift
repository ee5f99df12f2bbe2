/// Where the data of a ``GraphQLResponse`` came from.
///
/// ```swift
/// let response = try await client.send(query, policy: .cacheFirst)
/// if response.source == .cache { print("served from the store, no request made") }
/// ```
public enum GraphQLResponseSource: Hashable, Sendable {
    /// The server answered a request.
    case network
    /// The client's `GraphQLStore` held every field the operation selects,
    /// and a fetch policy chose to read it there; no request was made.
    case cache
}
