/// Whether ``GraphQLClient`` answers a query from its store, from the
/// network, or both.
///
/// ```swift
/// // The store's data when it holds all of it, else a request:
/// let response = try await client.send(LaunchQuery(id: "109"), policy: .cacheFirst)
///
/// // The store's data at once, then the server's:
/// for try await response in client.responses(LaunchQuery(id: "109"), policy: .cacheAndNetwork) {
///     show(response.data)
/// }
/// ```
///
/// The store serves a query only when it holds every field the query
/// selects (a read of a `GraphQLStore` is all or nothing). A response from
/// the network is written to the store before it is delivered, whatever the
/// policy.
///
/// Policies that read the store need one: for a client without a
/// ``GraphQLClient/store``, every policy acts as ``networkOnly``. Mutations
/// and subscriptions are always sent: a policy never answers them from the
/// store.
public enum GraphQLFetchPolicy: Hashable, Sendable {
    /// The store's data when it holds all of it, without a request;
    /// otherwise a request.
    case cacheFirst
    /// The store's data when it holds all of it, then a request's. Only
    /// ``GraphQLClient/responses(_:policy:headers:)`` delivers both;
    /// ``GraphQLClient/send(_:policy:headers:)``, which returns one
    /// response, sends the request and returns its response.
    case cacheAndNetwork
    /// A request, always; its response is still written to the store.
    case networkOnly
    /// The store's data, never a request: a query whose data the store does
    /// not hold in full fails with ``GraphQLClientError/Code/cacheMiss``.
    case cacheOnly
}
