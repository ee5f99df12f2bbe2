import Foundation

/// How transient failures are retried: how many times, and how long to wait before each retry.
///
/// The wait doubles from ``baseDelay`` up to ``maximumDelay``; a `Retry-After` header (seconds
/// or an HTTP date) replaces it, up to ``maximumRetryAfter``.
struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt; 0 never retries.
    var maximumRetries: Int = 5
    /// The wait before the first retry.
    var baseDelay: Duration = .milliseconds(500)
    /// The longest computed wait.
    var maximumDelay: Duration = .seconds(30)
    /// The longest wait a `Retry-After` header may ask for.
    var maximumRetryAfter: Duration = .seconds(120)
    /// The longest wait for a rate limit's reset (GitHub's window is an hour); a reset further
    /// away fails the export, which can be resumed then.
    var maximumRateLimitWait: Duration = .seconds(3900)
    /// The most times one request is sent again after a rate limit's reset, in case the server
    /// keeps refusing it.
    var maximumRateLimitWaits = 3

    /// The wait before retry number `retry` (1 for the first retry).
    /// - Complexity: O(1).
    func delay(beforeRetry retry: Int, retryAfter: Duration? = nil) -> Duration {
        if let retryAfter { return min(max(retryAfter, .zero), maximumRetryAfter) }
        var delay = baseDelay
        for _ in 1..<max(retry, 1) {
            delay = delay * 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }

    /// Whether an HTTP status is worth retrying: 408, 429 and every 5xx.
    static func isTransient(status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status)
    }
}
