public import Foundation
import PagingLock

/// A transport that sends each request through another and retries its transient failures, and
/// keeps to the server's rate limit: the retry policy of the `paging` command line, for any
/// ``GraphQLTransport`` (`URLSessionTransport`, `PagingHTTPClient`'s `HTTPClientTransport`, one
/// of your own).
///
/// ```swift
/// let transport = RetryingTransport(base: URLSessionTransport(), policy: RetryPolicy(maximumRetries: 3))
/// let client = GraphQLClient(endpoint: url, transport: transport)
/// ```
///
/// What it retries: no response (a refused or dropped connection, a timeout; not a body over the
/// transport's size limit, `URLError.dataLengthExceedsMaximum`, which would be as large again),
/// and HTTP 408, 429 and 5xx. It waits with exponential backoff (``RetryPolicy``), or as long as
/// a `Retry-After` header asks (on 403, 429 and 503), through ``sleep``, which tests replace so
/// that they do not wait. After the last retry it returns the last response (the client reports
/// its status) or throws the last error. Cancellation is never retried: a cancelled task's
/// request throws `CancellationError`, at once if it was waiting.
///
/// Rate limits (``RateLimit``: `X-RateLimit-Remaining` and `X-RateLimit-Reset`, as GitHub sends
/// them): when a response says no request is left, the next request waits for the reset; a
/// request refused for the limit (403 or 429 with none left) is sent again after the reset.
/// Those waits are not failures and use up no retry; a reset further away than
/// ``RetryPolicy/maximumRateLimitWait`` returns the refusal instead (``onRateLimit`` hears it,
/// with ``RateLimitNotice/givesUp`` set). A 403 with `Retry-After` (GitHub's secondary limits)
/// is retried like a 429.
///
/// Copies of a transport share what they learned of the rate limit: make one for each server.
public struct RetryingTransport: GraphQLTransport {
    /// The transport that sends each attempt.
    public let base: any GraphQLTransport
    /// How often and how long.
    public let policy: RetryPolicy
    /// How to wait: `Task.sleep(for:)` unless given.
    public let sleep: @Sendable (Duration) async throws -> Void
    /// Told before each retry, for progress output or a log.
    public let onRetry: @Sendable (RetryNotice) -> Void
    /// Told before each wait for a rate limit's reset, and when a reset is too far to wait for.
    public let onRateLimit: @Sendable (RateLimitNotice) -> Void
    /// The date and time, to count a reset given as a time from.
    public let date: @Sendable () -> Date
    /// The reset to wait for before the next request, once a response said none is left.
    private let exhaustedUntil = Lock<Date?>(nil)

    /// Creates a transport.
    /// - Parameters:
    ///   - base: the transport that sends each attempt.
    ///   - policy: how often and how long; ``RetryPolicy/init(maximumRetries:baseDelay:maximumDelay:maximumRetryAfter:maximumRateLimitWait:maximumRateLimitWaits:)``'s defaults unless given.
    ///   - sleep: how to wait; `Task.sleep(for:)` unless given.
    ///   - onRetry: told before each retry.
    ///   - onRateLimit: told before each wait for a rate limit's reset.
    ///   - date: the date and time; `Date()` unless given.
    public init(
        base: any GraphQLTransport, policy: RetryPolicy = RetryPolicy(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        onRetry: @escaping @Sendable (RetryNotice) -> Void = { _ in },
        onRateLimit: @escaping @Sendable (RateLimitNotice) -> Void = { _ in },
        date: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.base = base
        self.policy = policy
        self.sleep = sleep
        self.onRetry = onRetry
        self.onRateLimit = onRateLimit
        self.date = date
    }

    /// Sends a request, again after each transient failure, as the policy allows.
    /// - Parameter request: the request.
    /// - Returns: the first response that is not a transient failure, or the last one.
    /// - Throws: `CancellationError` when the calling task is cancelled; the base transport's
    ///   last error when no attempt got a response.
    /// - Complexity: at most 1 + ``RetryPolicy/maximumRetries`` +
    ///   ``RetryPolicy/maximumRateLimitWaits`` attempts.
    public func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        var retry = 0
        var rateLimitWaits = 0
        while true {
            try Task.checkCancellation()
            try await waitForReset()
            let reason: String
            var retryAfter: Duration?
            do {
                let response = try await base.send(request)
                let limit = RateLimit(response, now: date())
                if let limit, limit.isExhausted, let reset = limit.reset {
                    exhaustedUntil.withLock { $0 = max($0 ?? reset, reset) }
                }
                if RateLimit.isRefusal(response, limit: limit), let limit, limit.isExhausted,
                    response.value(forHeader: "Retry-After") == nil
                {
                    // Refused for the limit: sent again after the reset (waited for before the next
                    // attempt), unless the server gives no reset or it is too far away.
                    guard let wait = limit.wait(from: date()), rateLimitWaits < policy.maximumRateLimitWaits
                    else { return response }
                    if wait > policy.maximumRateLimitWait {
                        exhaustedUntil.withLock { $0 = nil }
                        onRateLimit(
                            RateLimitNotice(
                                delay: wait, reset: limit.reset, reason: "HTTP \(response.statusCode)",
                                givesUp: true))
                        return response
                    }
                    rateLimitWaits += 1
                    continue
                }
                let transient =
                    RetryPolicy.isTransient(status: response.statusCode)
                    || (response.statusCode == 403 && response.value(forHeader: "Retry-After") != nil)
                guard transient, retry < policy.maximumRetries else { return response }
                reason = "HTTP \(response.statusCode)"
                if [403, 429, 503].contains(response.statusCode) {
                    retryAfter = response.retryAfter(now: date())
                }
            } catch let error as CancellationError {
                throw error
            } catch {
                if Task.isCancelled { throw CancellationError() }
                // A body over the transport's size limit would be as large the next time.
                guard retry < policy.maximumRetries, (error as? URLError)?.code != .dataLengthExceedsMaximum
                else { throw error }
                reason = RetryNotice.reason(for: error)
            }
            retry += 1
            let delay = policy.delay(beforeRetry: retry, retryAfter: retryAfter)
            onRetry(
                RetryNotice(retry: retry, maximumRetries: policy.maximumRetries, delay: delay, reason: reason)
            )
            try await sleep(delay)
        }
    }

    /// Waits for the rate limit's reset when the last response said no request is left; a reset
    /// further away than the policy waits is not waited for: the server answers the request.
    /// - Throws: `CancellationError` when cancelled while waiting.
    private func waitForReset() async throws {
        guard let reset = exhaustedUntil.withLock({ $0 }) else { return }
        let wait = RateLimit(remaining: 0, reset: reset).wait(from: date()) ?? .zero
        // The window is new after the reset (a second of slack for clocks that differ).
        exhaustedUntil.withLock { if $0 == reset { $0 = nil } }
        guard wait > .zero, wait <= policy.maximumRateLimitWait else { return }
        let delay = wait + .seconds(1)
        onRateLimit(RateLimitNotice(delay: delay, reset: reset, reason: "no request left"))
        try await sleep(delay)
    }
}

/// A retry a ``RetryingTransport`` is about to make, for progress output or a log.
public struct RetryNotice: Sendable, Equatable {
    /// The retry's number, from 1.
    public var retry: Int
    /// The most retries that will be made.
    public var maximumRetries: Int
    /// How long it waits first.
    public var delay: Duration
    /// Why: `HTTP 503`, or the connection error.
    public var reason: String

    /// The ``reason`` a notice gives for an error: a `URLError`'s description and code
    /// (`the request timed out (URLError -1001)`), any other error as it describes itself.
    /// - Parameter error: the error of the attempt.
    /// - Returns: a few words on it.
    /// - Complexity: that of the error's description.
    public static func reason(for error: any Error) -> String {
        if let error = error as? URLError {
            return "\(error.localizedDescription) (URLError \(error.code.rawValue))"
        }
        return String(describing: error)
    }

    /// Creates a notice.
    /// - Parameters:
    ///   - retry: the retry's number, from 1.
    ///   - maximumRetries: the most retries that will be made.
    ///   - delay: how long it waits first.
    ///   - reason: why.
    public init(retry: Int, maximumRetries: Int, delay: Duration, reason: String) {
        self.retry = retry
        self.maximumRetries = maximumRetries
        self.delay = delay
        self.reason = reason
    }
}

/// A wait of a ``RetryingTransport`` for a rate limit's reset, for progress output or a log.
public struct RateLimitNotice: Sendable, Equatable {
    /// How long it waits.
    public var delay: Duration
    /// When the limit resets, when the server said.
    public var reset: Date?
    /// Why: `HTTP 403`, or `no request left` before a request is sent.
    public var reason: String
    /// Whether the transport gives up instead of waiting: the reset is further away than
    /// ``RetryPolicy/maximumRateLimitWait``, and the refusal is returned.
    public var givesUp: Bool

    /// Creates a notice.
    /// - Parameters:
    ///   - delay: how long it waits.
    ///   - reset: when the limit resets, if known.
    ///   - reason: why.
    ///   - givesUp: whether it gives up instead of waiting.
    public init(delay: Duration, reset: Date?, reason: String, givesUp: Bool = false) {
        self.delay = delay
        self.reset = reset
        self.reason = reason
        self.givesUp = givesUp
    }
}
