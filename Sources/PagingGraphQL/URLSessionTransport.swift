public import PagingGraphQLClient
import PagingLock

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// A `GraphQLTransport` over Foundation's `URLSession`, on Linux
/// (FoundationNetworking) and Apple platforms alike.
///
/// ```swift
/// let transport = URLSessionTransport(session: URLSession(configuration: .ephemeral))
/// let client = GraphQLClient(endpoint: url, transport: transport)
/// ```
///
/// See <doc:SendingOverURLSession> for how it works in detail.
public struct URLSessionTransport: GraphQLTransport {
    /// The session the requests run in.
    public let session: URLSession

    /// The task delegate of every request in a session without a delegate.
    private static let redirectGuard = RedirectHeaderGuard()

    /// Creates a transport.
    /// - Parameter session: the session to run requests in; `URLSession.shared`
    ///   unless given. Without a delegate of its own, its redirects keep the
    ///   request's header fields to the request's origin (see above).
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends a request with a URL session data task.
    /// - Parameter request: the request.
    /// - Returns: the response, whatever its status.
    /// - Throws: `CancellationError` when the calling task is cancelled; the
    ///   session's `URLError` when no response arrived.
    public func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let urlRequest = Self.urlRequest(for: request)
        let flight = Flight()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<GraphQLHTTPResponse, any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if flight.wasCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else if let error {
                        continuation.resume(throwing: error)
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(
                            returning: GraphQLHTTPResponse(
                                statusCode: response.statusCode,
                                headers: Self.headers(of: response),
                                body: data ?? Data()
                            ))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                if session.delegate == nil {
                    // Only a session without a delegate: a task delegate would
                    // take the redirects (and on Linux other task callbacks)
                    // away from the app's own session delegate.
                    task.delegate = Self.redirectGuard
                }
                if !flight.start(task) {
                    // Cancelled before the task existed: the task never runs,
                    // so its completion handler never resumes the continuation.
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            flight.cancel()
        }
    }

    static func urlRequest(for request: GraphQLHTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        // Through the setter, not the initializer: FoundationNetworking applies a request's own
        // timeout only when it was set so, and otherwise the session's (60 seconds by default).
        urlRequest.timeoutInterval = timeoutInterval(request.timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        return urlRequest
    }

    /// A request's timeout as URLSession takes it.
    ///
    /// FoundationNetworking (Linux) waits whole seconds only: it truncates the interval, so that
    /// a timeout under a second would fail every request at once. There it is rounded up to the
    /// next whole second; elsewhere it is kept as it is.
    static func timeoutInterval(_ timeout: Duration) -> TimeInterval {
        let components = timeout.components
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        #if canImport(FoundationNetworking)
            return max(1, seconds.rounded(.up))
        #else
            return seconds
        #endif
    }

    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String else { continue }
            headers[name] = value as? String ?? String(describing: value)
        }
        return headers
    }
}

/// The data task of one ``URLSessionTransport/send(_:)`` and whether it was
/// cancelled, shared by the task, its completion handler and the
/// cancellation handler.
private final class Flight: Sendable {
    private enum State {
        case idle
        case running(URLSessionDataTask)
        case cancelled
    }

    private let state = Lock<State>(.idle)

    var wasCancelled: Bool {
        state.withLock { if case .cancelled = $0 { true } else { false } }
    }

    /// Resumes the task unless the flight was cancelled first.
    /// - Returns: whether the task was resumed.
    func start(_ task: URLSessionDataTask) -> Bool {
        let started = state.withLock { state -> Bool in
            guard case .idle = state else { return false }
            state = .running(task)
            return true
        }
        if started { task.resume() }
        return started
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            defer { state = .cancelled }
            if case .running(let task) = state { return task }
            return nil
        }
        task?.cancel()
    }
}
