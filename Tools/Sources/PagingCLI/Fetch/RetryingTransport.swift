import Foundation
import PagingGraphQL

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

/// A transport that retries transient failures: no response (a refused or dropped connection,
/// a timeout; not a body over the transport's size limit), HTTP 408, 429 and 5xx. It waits with exponential backoff, or as long as a
/// `Retry-After` header asks, through an injected `sleep` so that tests do not wait.
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

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        var retry = 0
        while true {
            try Task.checkCancellation()
            let reason: String
            var retryAfter: Duration?
            do {
                let response = try await base.send(request)
                guard RetryPolicy.isTransient(status: response.statusCode), retry < policy.maximumRetries
                else {
                    return response
                }
                reason = "HTTP \(response.statusCode)"
                if response.statusCode == 429 || response.statusCode == 503 {
                    retryAfter = response.retryAfter()
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

    static func describe(_ error: any Error) -> String {
        if let error = error as? URLError {
            return "\(error.localizedDescription) (URLError \(error.code.rawValue))"
        }
        return String(describing: error)
    }
}
