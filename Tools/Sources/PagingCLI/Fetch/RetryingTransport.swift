import Foundation
import PagingGraphQLClient
import ToolsLock

/// A retry about to be made, for progress output.
struct RetryNotice: Sendable, Equatable {
    /// The retry's number, from 1.
    var retry: Int
    /// The most retries that will be made.
    var maximumRetries: Int
    /// How long it waits first.
    var delay: Duration
    /// Why: `HTTP 503`, or the connection error.
    var reason: String
}

/// A wait for a rate limit's reset, for progress output.
struct RateLimitNotice: Sendable, Equatable {
    /// How long it waits.
    var delay: Duration
    /// When the limit resets, when the server said.
    var reset: Date?
    /// Why: `HTTP 403`, or `no request left` before a request is sent.
    var reason: String
    /// Whether the export gives up instead of waiting: the reset is further away than it waits.
    var givesUp = false
}

/// A transport that retries transient failures: no response (a refused or dropped connection,
/// a timeout; not a body over the transport's size limit), HTTP 408, 429 and 5xx. It waits with
/// exponential backoff, or as long as a `Retry-After` header asks, through an injected `sleep`
/// so that tests do not wait.
///
/// It keeps to the server's rate limit too (``RateLimit``: `X-RateLimit-Remaining` and
/// `X-RateLimit-Reset`, as GitHub sends them): when a response says no request is left, the
/// next one waits for the reset; a request refused for the limit (403 or 429 with none left) is
/// sent again after the reset. Those waits are not failures and use up no retry; a reset further
/// away than ``RetryPolicy/maximumRateLimitWait`` fails the request instead. A 403 with
/// `Retry-After` (GitHub's secondary limits) is retried like a 429.
///
/// After the last retry it returns the last response (the client reports its status) or throws
/// the last error. Cancellation is never retried.
struct RetryingTransport: GraphQLTransport {
    /// The transport that sends each attempt.
    let base: any GraphQLTransport
    /// How often and how long.
    let policy: RetryPolicy
    /// How to wait.
    let sleep: @Sendable (Duration) async throws -> Void
    /// Told before each retry.
    let onRetry: @Sendable (RetryNotice) -> Void
    /// Told before each wait for a rate limit's reset.
    var onRateLimit: @Sendable (RateLimitNotice) -> Void = { _ in }
    /// The date and time, to count a reset given as a time from.
    var date: @Sendable () -> Date = { Date() }
    /// The reset to wait for before the next request, once a response said none is left.
    private let exhaustedUntil = Locked<Date?>(nil)

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
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
                reason = Self.describe(error)
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

    static func describe(_ error: any Error) -> String {
        if let error = error as? URLError {
            return "\(error.localizedDescription) (URLError \(error.code.rawValue))"
        }
        return String(describing: error)
    }
}
