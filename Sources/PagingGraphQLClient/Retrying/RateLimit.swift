public import Foundation

/// What a response says about the client's rate limit: the requests left in the current window
/// and when the window resets, from the fields GitHub and many others send
/// (`X-RateLimit-Remaining`, `X-RateLimit-Reset`) or the IETF draft's (`RateLimit-Remaining`,
/// `RateLimit-Reset`).
///
/// ```swift
/// if let limit = RateLimit(response, now: Date()), limit.isExhausted {
///     print("no request left until", limit.reset ?? "the server says when")
/// }
/// ```
public struct RateLimit: Sendable, Equatable {
    /// The requests left before the window resets.
    public var remaining: Int
    /// When the window resets; `nil` when the response does not say.
    public var reset: Date?

    /// A reset value at least this large is a time (seconds since 1970, GitHub's form); smaller,
    /// it is the seconds until the reset (the IETF draft's form, and some APIs').
    public static let epochThreshold = 1_000_000_000

    /// Reads the rate limit fields of a response.
    /// - Parameters:
    ///   - response: the response.
    ///   - now: the current time, for a reset given in seconds from now.
    /// - Returns: the limit, or `nil` when the response has no remaining count.
    /// - Complexity: O(*n*) in the number of header fields.
    public init?(_ response: GraphQLHTTPResponse, now: Date) {
        func field(_ name: String) -> String? {
            (response.value(forHeader: "X-RateLimit-\(name)")
                ?? response.value(forHeader: "RateLimit-\(name)"))?
                .trimmingCharacters(in: .whitespaces)
        }
        guard let remaining = field("Remaining").flatMap({ Int($0) }), remaining >= 0 else { return nil }
        self.remaining = remaining
        // A fractional reset (some APIs send milliseconds after the point) is rounded up.
        if let value = field("Reset").flatMap({ Double($0) }), value.isFinite, value >= 0 {
            reset =
                value >= Double(Self.epochThreshold)
                ? Date(timeIntervalSince1970: value.rounded(.up))
                : now.addingTimeInterval(value.rounded(.up))
        } else {
            reset = nil
        }
    }

    /// Creates a limit.
    /// - Parameters:
    ///   - remaining: the requests left before the window resets.
    ///   - reset: when the window resets, if known.
    public init(remaining: Int, reset: Date?) {
        self.remaining = remaining
        self.reset = reset
    }

    /// Whether the window is used up.
    public var isExhausted: Bool { remaining == 0 }

    /// How long until the reset, never less than zero.
    /// - Parameter now: the current time.
    /// - Returns: the wait, or `nil` when the reset is not known.
    /// - Complexity: O(1).
    public func wait(from now: Date) -> Duration? {
        reset.map { .milliseconds(Int(max(0, $0.timeIntervalSince(now) * 1000).rounded(.up))) }
    }

    /// Whether a response is a refusal for the rate limit: 429, or 403 with the window used up or
    /// with `Retry-After` (GitHub's secondary limits answer so).
    /// - Parameters:
    ///   - response: the response.
    ///   - limit: what the response says of the limit, if anything.
    /// - Returns: `true` when the server refused the request for its rate limit.
    /// - Complexity: O(*n*) in the number of header fields.
    public static func isRefusal(_ response: GraphQLHTTPResponse, limit: RateLimit?) -> Bool {
        switch response.statusCode {
        case 429: true
        case 403: limit?.isExhausted == true || response.value(forHeader: "Retry-After") != nil
        default: false
        }
    }
}
