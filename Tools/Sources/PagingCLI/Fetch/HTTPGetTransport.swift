import Foundation
import PagingGraphQL
import ToolsLock

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends plain HTTP requests with URLSession for the REST sources: like the GraphQL client's
/// transport, but without a body when the request has none (a `GET`).
///
/// Cancelling the calling task cancels the request and throws `CancellationError`.
struct HTTPGetTransport: GraphQLTransport {
    /// The session requests run in.
    let session: URLSession

    init(session: URLSession = .shared) {
        self.session = session
    }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let components = request.timeout.components
        var urlRequest = URLRequest(
            url: request.url,
            timeoutInterval: Double(components.seconds) + Double(components.attoseconds) / 1e18)
        urlRequest.httpMethod = request.method
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<GraphQLHTTPResponse, any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if box.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else if let error {
                        continuation.resume(throwing: error)
                    } else if let response = response as? HTTPURLResponse {
                        var headers: [String: String] = [:]
                        for (name, value) in response.allHeaderFields {
                            guard let name = name as? String else { continue }
                            headers[name] = value as? String ?? String(describing: value)
                        }
                        continuation.resume(
                            returning: GraphQLHTTPResponse(
                                statusCode: response.statusCode, headers: headers, body: data ?? Data()))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// The data task of one request, and whether it was cancelled.
    private final class TaskBox: Sendable {
        // @unchecked Sendable: URLSessionDataTask is not Sendable, but this state is only
        // touched inside the lock that holds it, and the task is thread-safe to cancel.
        private struct State: @unchecked Sendable {
            var task: URLSessionDataTask?
            var cancelled = false
        }
        private let state = Locked(State())

        var isCancelled: Bool { state.withLock { $0.cancelled } }

        func start(_ task: URLSessionDataTask) {
            let cancelled = state.withLock { state in
                state.task = task
                return state.cancelled
            }
            if cancelled { task.cancel() }
            task.resume()
        }

        func cancel() {
            let task = state.withLock { state in
                state.cancelled = true
                return state.task
            }
            task?.cancel()
        }
    }
}
