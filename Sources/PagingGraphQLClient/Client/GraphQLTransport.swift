/// What carries a GraphQL request over the network: one asynchronous call
/// that sends an HTTP request and returns the HTTP response.
///
/// `PagingGraphQL`'s `URLSessionTransport` is the one the client uses unless told otherwise.
/// Conform a type of your own to use another HTTP stack, to add logging or
/// retries, or to answer from memory in tests:
///
/// ```swift
/// struct LoggingTransport: GraphQLTransport {
///     var base: any GraphQLTransport
///     func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
///         print("POST \(request.url)")
///         return try await base.send(request)
///     }
/// }
/// ```
///
/// Contract: return any response the server sent, whatever its status (the
/// client reads the status); throw only when no response arrived. When the
/// calling task is cancelled, stop the request and throw `CancellationError`.
public protocol GraphQLTransport: Sendable {
    /// Sends a request and returns the server's response.
    /// - Parameter request: the request, with its body and headers made.
    /// - Returns: the response, whatever its status.
    /// - Throws: `CancellationError` when the calling task is cancelled; any
    ///   other error when no response arrived (no connection, a timeout).
    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse
}
