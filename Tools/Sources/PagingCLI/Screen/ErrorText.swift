import Paging
import PagingGraphQLClient

/// An error that says itself what the screen shows of it, in lines separated by `\n`.
protocol ScreenMessage: Error {
    /// What the screen shows.
    var screenMessage: String { get }
}

/// Errors in a few words, for a footer row, telling GraphQL errors from network errors as the
/// Apollo tutorial does.
enum ErrorText {
    /// `Network error: no response`, `Server error: HTTP 500`, `GraphQL error: injected fault`.
    static func short(_ error: PagingError) -> String {
        guard let underlying = error.underlyingError else { return "Error: \(error.description)" }
        return short(underlying)
    }

    /// The same for any error.
    static func short(_ error: any Error) -> String {
        if let error = error as? PagingError { return short(error) }
        if let error = error as? any ScreenMessage { return error.screenMessage }
        guard let error = error as? GraphQLClientError else { return "Error: \(error)" }
        switch error.code {
        case .transport: return "Network error: no response from the server"
        case .httpStatus: return "Server error: HTTP \(error.statusCode.map(String.init) ?? "?")"
        case .graphQLErrors: return "GraphQL error: \(error.graphQLErrors.first?.message ?? "unknown")"
        case .notGraphQLResponse: return "Server error: not a GraphQL response"
        case .undecodableResponse: return "Unexpected answer at \(error.codingPath ?? "?")"
        default: return "Error: \(error.code)"
        }
    }
}
