import Foundation
import PagingGraphQL
import ToolsLock

/// Passes every request on to the transport it wraps, and keeps the operation name of each,
/// so that a test can tell which requests a client really sent.
final class CountingTransport: GraphQLTransport {
    private let base: any GraphQLTransport
    private let sent = Locked<[String?]>([])

    init(wrapping base: any GraphQLTransport) {
        self.base = base
    }

    /// How many requests were sent so far.
    var count: Int { sent.withLock { $0.count } }

    /// The operation name of each request sent so far, in order.
    var operationNames: [String?] { sent.withLock { $0 } }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let name = (try? JSONValue(json: request.body))?["operationName"]?.stringValue
        sent.withLock { $0.append(name) }
        return try await base.send(request)
    }
}
