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
    /// The session given at creation, whose configuration the requests follow.
    ///
    /// When it has no delegate, or its delegate is a ``RedirectHeaderGuard``, the requests run in
    /// a session of the transport's own with the same configuration (cookies, cache, credentials,
    /// additional header fields and timeouts), whose delegate reads each body as it arrives so
    /// that ``maximumResponseSize`` can stop it; that session ends when the transport's last copy
    /// is gone. A session with another delegate runs the requests itself, its delegate in charge.
    public let session: URLSession

    /// The largest response body the transport reads, in bytes; `nil` for no limit.
    ///
    /// A body that grows past it fails the request with `URLError.dataLengthExceedsMaximum` (a
    /// `GraphQLClientError.Code.transport` error from the client), so that a broken or hostile
    /// server cannot fill the app's memory: the transport holds a response whole before the
    /// client reads it, and URLSession's timeout never ends a body that keeps arriving. The
    /// transport stops reading as soon as the announced length (`Content-Length`) or the bytes
    /// received pass the limit; in a session with a delegate other than a
    /// ``RedirectHeaderGuard``, whose callbacks it leaves alone, it checks the whole body once it
    /// has arrived instead.
    public let maximumResponseSize: Int?

    /// The default of ``maximumResponseSize``: 64 MiB, far beyond any page of a connection.
    public static let defaultMaximumResponseSize = TransportLimits.defaultMaximumResponseSize

    /// The session of the transport's own that reads bodies as they arrive, or `nil` when the
    /// given session runs the requests.
    let reading: ReadingSession?

    /// Creates a transport.
    /// - Parameters:
    ///   - session: the session whose configuration the requests follow; `URLSession.shared`
    ///     unless given. Without a delegate of its own, its redirects keep the request's header
    ///     fields to the request's origin (see above).
    ///   - maximumResponseSize: the largest response body to read, in bytes, or `nil` for no
    ///     limit; 64 MiB unless given.
    public init(session: URLSession = .shared, maximumResponseSize: Int? = defaultMaximumResponseSize) {
        self.session = session
        self.maximumResponseSize = maximumResponseSize
        switch session.delegate {
        case nil where session === URLSession.shared:
            reading = ReadingSession.shared
        case nil:
            reading = ReadingSession(configuration: session.configuration, redirects: RedirectHeaderGuard())
        case let redirects as RedirectHeaderGuard:
            reading = ReadingSession(configuration: session.configuration, redirects: redirects)
        default: reading = nil
        }
    }

    /// Sends a request with a URL session data task.
    /// - Parameter request: the request.
    /// - Returns: the response, whatever its status.
    /// - Throws: `CancellationError` when the calling task is cancelled; the
    ///   session's `URLError` when no response arrived;
    ///   `URLError.dataLengthExceedsMaximum` when the body is larger than
    ///   ``maximumResponseSize``.
    public func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let urlRequest = Self.urlRequest(for: request)
        let limit = maximumResponseSize
        let flight = Flight()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<GraphQLHTTPResponse, any Error>) in
                let task: URLSessionDataTask
                if let reading {
                    task = reading.dataTask(
                        with: urlRequest, limit: limit, flight: flight, continuation: continuation)
                } else {
                    task = session.dataTask(with: urlRequest) { data, response, error in
                        continuation.resume(
                            with: Self.outcome(
                                response: response, body: data ?? Data(), error: error, limit: limit,
                                cancelled: flight.wasCancelled))
                    }
                }
                if !flight.start(task) {
                    // Cancelled before the task existed: the task never runs, so neither its
                    // completion handler nor the reading session resumes the continuation.
                    reading?.forget(task)
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            flight.cancel()
        }
    }

    /// What a finished task gives: its response, or why there is none.
    fileprivate static func outcome(
        response: URLResponse?, body: Data, error: (any Error)?, limit: Int?, cancelled: Bool
    ) -> Result<GraphQLHTTPResponse, any Error> {
        if cancelled { return .failure(CancellationError()) }
        if let error { return .failure(error) }
        guard let response = response as? HTTPURLResponse else {
            return .failure(URLError(.badServerResponse))
        }
        if let limit, body.count > limit {
            return .failure(URLError.responseTooLarge(limit: limit, url: response.url))
        }
        return .success(
            GraphQLHTTPResponse(statusCode: response.statusCode, headers: headers(of: response), body: body))
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

/// The session of a ``URLSessionTransport`` of its own: the configuration of the session the
/// transport was given, and a delegate that reads each body as it arrives. It ends (finishing its
/// tasks) when the transport's last copy lets go of it, but for the one shared by transports
/// over `URLSession.shared`, which never ends.
final class ReadingSession: Sendable {
    private let session: URLSession
    private let router: TaskRouter

    /// The one reading session of every transport over `URLSession.shared`, which lives as long
    /// as the process, as `shared` does. Sharing it spares each such transport a session of its
    /// own to make and end: on Linux, ending a URL session while one of its sockets has an
    /// event pending is a known cause of crashes in libdispatch (swift-corelibs-foundation
    /// issues 4791 and 5469), so the fewer sessions end, the better.
    static let shared = ReadingSession(
        configuration: URLSession.shared.configuration, redirects: RedirectHeaderGuard())

    init(configuration: URLSessionConfiguration, redirects: RedirectHeaderGuard) {
        router = TaskRouter(redirects: redirects)
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    /// A task whose response `continuation` receives, its body read up to `limit` bytes.
    fileprivate func dataTask(
        with request: URLRequest, limit: Int?, flight: Flight,
        continuation: CheckedContinuation<GraphQLHTTPResponse, any Error>
    ) -> URLSessionDataTask {
        let task = session.dataTask(with: request)
        router.add(task, ResponseReader(limit: limit, flight: flight, continuation: continuation))
        return task
    }

    /// Drops the reader of a task that never ran.
    func forget(_ task: URLSessionTask) {
        router.remove(task)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }
}

/// The delegate of a ``ReadingSession``: it follows redirects by its ``RedirectHeaderGuard`` and
/// hands each task's response to that task's ``ResponseReader``.
private final class TaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private let redirects: RedirectHeaderGuard
    private let readers = Lock<[Int: ResponseReader]>([:])

    init(redirects: RedirectHeaderGuard) {
        self.redirects = redirects
    }

    func add(_ task: URLSessionTask, _ reader: ResponseReader) {
        readers.withLock { $0[task.taskIdentifier] = reader }
    }

    @discardableResult
    func remove(_ task: URLSessionTask) -> ResponseReader? {
        readers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    private func reader(of task: URLSessionTask) -> ResponseReader? {
        readers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        redirects.urlSession(
            session, task: task, willPerformHTTPRedirection: response, newRequest: request,
            completionHandler: completionHandler)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let goOn = reader(of: dataTask)?.received(response) ?? false
        if !goOn { dataTask.cancel() }
        completionHandler(goOn ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if reader(of: dataTask)?.received(data, url: dataTask.originalRequest?.url) == false {
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        remove(task)?.completed(error: error)
    }
}

/// Reads one response of ``URLSessionTransport/send(_:)``: it collects the body up to the
/// transport's limit and resumes the send once, with the response or the error.
private final class ResponseReader: Sendable {
    private struct State {
        var continuation: CheckedContinuation<GraphQLHTTPResponse, any Error>?
        var response: URLResponse?
        var body = Data()
    }

    private let limit: Int?
    private let flight: Flight
    private let state: Lock<State>

    init(limit: Int?, flight: Flight, continuation: CheckedContinuation<GraphQLHTTPResponse, any Error>) {
        self.limit = limit
        self.flight = flight
        state = Lock(State(continuation: continuation))
    }

    /// Takes the response's head.
    /// - Returns: whether to read its body: not when the length it announces is over the limit.
    func received(_ response: URLResponse) -> Bool {
        let announced = response.expectedContentLength  // -1 when the length is not announced
        if let limit, announced > Int64(limit) {
            finish(.failure(URLError.responseTooLarge(limit: limit, url: response.url)))
            return false
        }
        state.withLock { state in
            state.response = response
            state.body = Data()
            if announced > 0 { state.body.reserveCapacity(Int(announced)) }
        }
        return true
    }

    /// Adds bytes of the body.
    /// - Returns: whether to read on: not once the body is over the limit.
    func received(_ data: Data, url: URL?) -> Bool {
        let tooLarge = state.withLock { state -> Bool in
            guard state.continuation != nil else { return false }
            if let limit, data.count > limit - state.body.count { return true }
            state.body.append(data)
            return false
        }
        if tooLarge, let limit {
            finish(.failure(URLError.responseTooLarge(limit: limit, url: url)))
            return false
        }
        return true
    }

    /// Ends the read: the task finished, with `error` or not.
    func completed(error: (any Error)?) {
        let (response, body) = state.withLock { state in (state.response, state.body) }
        finish(
            URLSessionTransport.outcome(
                response: response, body: body, error: error, limit: limit, cancelled: flight.wasCancelled))
    }

    /// Resumes the send, the first time only, and lets go of the body.
    private func finish(_ result: Result<GraphQLHTTPResponse, any Error>) {
        let continuation = state.withLock { state in
            defer {
                state.continuation = nil
                state.body = Data()
            }
            return state.continuation
        }
        continuation?.resume(with: result)
    }
}
