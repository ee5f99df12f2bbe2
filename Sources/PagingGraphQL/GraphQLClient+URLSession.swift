public import Foundation

extension GraphQLClient {
    /// Creates a client that sends over `URLSession.shared`, through a
    /// ``URLSessionTransport`` that keeps header fields off redirects to
    /// another origin.
    ///
    /// ```swift
    /// let client = GraphQLClient(
    ///     endpoint: URL(string: "https://example.com/graphql")!,
    ///     headers: ["Authorization": "Bearer \(token)"]
    /// )
    /// ```
    /// - Parameters:
    ///   - endpoint: the GraphQL endpoint.
    ///   - headers: header fields sent with every request, to the endpoint's
    ///     origin only (a redirect to another origin goes without them).
    ///   - timeout: how long a request may take; 60 seconds unless given.
    ///   - store: the normalized record store to write responses to, which
    ///     the client's pagers follow; `nil` for none.
    public init(
        endpoint: URL,
        headers: [String: String] = [:],
        timeout: Duration = .seconds(60),
        store: GraphQLStore? = nil
    ) {
        self.init(
            endpoint: endpoint, headers: headers, timeout: timeout, transport: URLSessionTransport(),
            store: store)
    }
}
