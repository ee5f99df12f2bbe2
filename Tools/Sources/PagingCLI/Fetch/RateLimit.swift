import Foundation
import PagingGraphQLClient

/// What a response says about the client's rate limit: the requests left in the current window
/// and when the window resets, from the fields GitHub and many others send
/// (`X-RateLimit-Remaining`, `X-RateLimit-Reset`) or the IETF draft's (`RateLimit-Remaining`,
/// `RateLimit-Reset`).
struct RateLimit: Sendable, Equatable {
    /// The requests left before the window resets.
    var remaining: Int
    /// When the window resets; `nil` when the response does not say.
    var reset: Date?

    /// A reset value at least this large is a time (seconds since 1970, GitHub's form); smaller,
    /// it is the seconds until the reset (the IETF draft's form, and some APIs').
    static let epochThreshold = 1_000_000_000

    /// Reads the rate limit fields of a response.
    /// - Parameters:
    ///   - response: the response.
    ///   - now: the current time, for a reset given in seconds from now.
    /// - Returns: the limit, or `nil` when the response has no remaining count.
    init?(_ response: GraphQLHTTPResponse, now: Date) {
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
    init(remaining: Int, reset: Date?) {
        self.remaining = remaining
        self.reset = reset
    }

    /// Whether the window is used up.
    var isExhausted: Bool { remaining == 0 }

    /// How long until the reset, from `now`, never less than zero; `nil` when the reset is not known.
    func wait(from now: Date) -> Duration? {
        reset.map { .milliseconds(Int(max(0, $0.timeIntervalSince(now) * 1000).rounded(.up))) }
    }

    /// Whether a response is a refusal for the rate limit: 429, or 403 with the window used up or
    /// with `Retry-After` (GitHub's secondary limits answer so).
    static func isRefusal(_ response: GraphQLHTTPResponse, limit: RateLimit?) -> Bool {
        switch response.statusCode {
        case 429: true
        case 403: limit?.isExhausted == true || response.value(forHeader: "Retry-After") != nil
        default: false
        }
    }

    /// The time of day of a reset, for the progress line: `14:05:09 UTC`.
    static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }
}
