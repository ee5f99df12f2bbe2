import Foundation
import PagingGraphQLClient
import PagingLock

/// A transport that answers from a script, and records the requests; with no answer left, it
/// fails as a refused connection.
final class AnsweringTransport: GraphQLTransport {
    private let answers: Lock<[Result<GraphQLHTTPResponse, URLError>]>
    private let requests = Lock<[GraphQLHTTPRequest]>([])

    init(_ answers: [Result<GraphQLHTTPResponse, URLError>]) {
        self.answers = Lock(answers)
    }

    var sent: [GraphQLHTTPRequest] { requests.withLock { $0 } }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        requests.withLock { $0.append(request) }
        let answer = answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let answer else { throw URLError(.cannotConnectToHost) }
        return try answer.get()
    }
}
