/// A failure the server can inject in place of a response.
public enum FaultKind: Sendable, Hashable, CaseIterable {
    /// An HTTP 500 with a JSON body `{"error": "..."}`.
    case httpError
    /// On `/graphql`, an HTTP 200 whose body is a GraphQL error (`data` null, `errors` with code
    /// `INJECTED_FAULT`). The REST routes answer an HTTP 500 instead.
    case graphQLError
    /// The connection is closed before any byte of a response is written.
    case droppedConnection
}
