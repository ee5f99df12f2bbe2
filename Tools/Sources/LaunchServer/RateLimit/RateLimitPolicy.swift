import Foundation
import ToolsLock

/// How many requests the server answers in a window of time, as GitHub's API does: every
/// response says how many are left (`X-RateLimit-Limit`, `X-RateLimit-Remaining`,
/// `X-RateLimit-Used`) and when the window resets (`X-RateLimit-Reset`, in seconds since 1970),
/// and a request beyond the limit gets HTTP 403 with none left.
///
/// ```swift
/// var configuration = LaunchServerConfiguration()
/// configuration.rateLimit = RateLimitPolicy(requests: 100, window: .seconds(60))
/// ```
public struct RateLimitPolicy: Sendable, Hashable {
    /// The requests answered in each window.
    public var requests: Int
    /// How long a window lasts; a window starts with the first request after the last one ended.
    public var window: Duration

    /// Creates a policy.
    /// - Parameters:
    ///   - requests: the requests answered in each window, 1 or more.
    ///   - window: how long a window lasts, at least a second; an hour unless given.
    public init(requests: Int, window: Duration = .seconds(3600)) {
        self.requests = requests
        self.window = window
    }
}

/// Counts the requests of the current window, for ``LaunchResponder``.
final class RateLimiter: Sendable {
    /// What a request may do, and the fields that say so.
    struct Verdict: Sendable, Equatable {
        /// Whether the request is answered; `false` when the window's requests are used up.
        var allowed: Bool
        /// The window's size.
        var limit: Int
        /// The requests left in the window after this one.
        var remaining: Int
        /// The requests used in the window, this one included when it is allowed.
        var used: Int
        /// When the window resets, in whole seconds since 1970.
        var reset: Int
    }

    private struct Window {
        var end: Date
        var used: Int
    }

    private let policy: RateLimitPolicy
    private let date: @Sendable () -> Date
    private let window = Locked<Window?>(nil)

    init(policy: RateLimitPolicy, date: @escaping @Sendable () -> Date) {
        self.policy = policy
        self.date = date
    }

    /// Counts a request.
    /// - Complexity: O(1).
    func admit() -> Verdict {
        let now = date()
        let seconds =
            Double(policy.window.components.seconds) + Double(policy.window.components.attoseconds) / 1e18
        return window.withLock { window in
            var current = window ?? Window(end: .distantPast, used: 0)
            if now >= current.end {
                // A reset on a whole second, as the field carries one.
                let end = (now.timeIntervalSince1970 + seconds).rounded(.up)
                current = Window(end: Date(timeIntervalSince1970: end), used: 0)
            }
            let allowed = current.used < policy.requests
            if allowed { current.used += 1 }
            window = current
            return Verdict(
                allowed: allowed, limit: policy.requests, remaining: policy.requests - current.used,
                used: current.used, reset: Int(current.end.timeIntervalSince1970))
        }
    }
}
