/// How a ``RetryingTransport`` retries transient failures: how many times, how long it waits
/// before each retry, and how long it waits for a rate limit's reset.
///
/// The wait doubles from ``baseDelay`` up to ``maximumDelay``; a `Retry-After` header (seconds
/// or an HTTP date) replaces it, up to ``maximumRetryAfter``.
///
/// ```swift
/// let policy = RetryPolicy(maximumRetries: 3, baseDelay: .seconds(1))
/// policy.delay(beforeRetry: 3)  // 4 seconds
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt; 0 never retries. 5 unless given.
    public var maximumRetries: Int
    /// The wait before the first retry; half a second unless given.
    public var baseDelay: Duration
    /// The longest computed wait; 30 seconds unless given.
    public var maximumDelay: Duration
    /// The longest wait a `Retry-After` header may ask for; 2 minutes unless given.
    public var maximumRetryAfter: Duration
    /// The longest wait for a rate limit's reset (GitHub's window is an hour; 65 minutes unless
    /// given): a reset further away fails the request instead, with the server's answer.
    public var maximumRateLimitWait: Duration
    /// The most times one request is sent again after a rate limit's reset, in case the server
    /// keeps refusing it; 3 unless given.
    public var maximumRateLimitWaits: Int

    /// Creates a policy.
    /// - Parameters:
    ///   - maximumRetries: retries after the first attempt; 0 never retries.
    ///   - baseDelay: the wait before the first retry.
    ///   - maximumDelay: the longest computed wait.
    ///   - maximumRetryAfter: the longest wait a `Retry-After` header may ask for.
    ///   - maximumRateLimitWait: the longest wait for a rate limit's reset.
    ///   - maximumRateLimitWaits: the most waits for a reset for one request.
    public init(
        maximumRetries: Int = 5, baseDelay: Duration = .milliseconds(500),
        maximumDelay: Duration = .seconds(30),
        maximumRetryAfter: Duration = .seconds(120), maximumRateLimitWait: Duration = .seconds(3900),
        maximumRateLimitWaits: Int = 3
    ) {
        self.maximumRetries = maximumRetries
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
        self.maximumRateLimitWait = maximumRateLimitWait
        self.maximumRateLimitWaits = maximumRateLimitWaits
    }

    /// The wait before a retry: ``baseDelay`` doubled for each retry before it, at most
    /// ``maximumDelay``; or what the server asked for, at most ``maximumRetryAfter``.
    /// - Parameters:
    ///   - retry: the retry's number, 1 for the first.
    ///   - retryAfter: the wait a `Retry-After` header asked for, if any.
    /// - Returns: the wait.
    /// - Complexity: O(log(``maximumDelay`` / ``baseDelay``)).
    public func delay(beforeRetry retry: Int, retryAfter: Duration? = nil) -> Duration {
        if let retryAfter { return min(max(retryAfter, .zero), maximumRetryAfter) }
        var delay = baseDelay
        for _ in 1..<max(retry, 1) {
            delay = delay * 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }

    /// Whether an HTTP status is worth retrying: 408, 429 and every 5xx.
    /// - Parameter status: the response's status code.
    /// - Returns: `true` for a status a later attempt may not get.
    /// - Complexity: O(1).
    public static func isTransient(status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status)
    }
}
