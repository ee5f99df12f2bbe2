public import Foundation

/// An HTTP response as a ``GraphQLTransport`` returns it: a status, header
/// fields and the body, not yet read as GraphQL.
public struct GraphQLHTTPResponse: Hashable, Sendable {
    /// The HTTP status code, such as 200.
    public var statusCode: Int
    /// The header fields, by name. Names are compared without regard to case
    /// by ``value(forHeader:)``.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    /// - Parameters:
    ///   - statusCode: the HTTP status code.
    ///   - headers: the header fields.
    ///   - body: the body.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// Whether the status is in 200...299.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }

    /// The value of a header field, whatever the case of its name.
    /// - Parameter name: the field name, such as `content-type`.
    /// - Returns: the value, or `nil` when the response has no such field.
    /// - Complexity: O(*n*), where *n* is the number of header fields.
    public func value(forHeader name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// How long the server asks the client to wait before it asks again: the `Retry-After`
    /// header (RFC 9110, section 10.2.3), as delay seconds (`120`) or as an HTTP date
    /// (`Wed, 25 Nov 2026 10:30:00 GMT`, counted from `now`; a date already past is no wait).
    ///
    /// Servers send it with 429 Too Many Requests and 503 Service Unavailable. The client does not
    /// wait by itself; a caller that retries reads it here, or from
    /// ``GraphQLClientError/retryAfter`` when the request failed.
    ///
    /// ```swift
    /// let response = try await transport.send(request)
    /// if response.statusCode == 429, let wait = response.retryAfter() {
    ///     try await Task.sleep(for: wait)
    /// }
    /// ```
    ///
    /// - Parameter now: the time an HTTP date is counted from; the current time unless given.
    /// - Returns: the wait, or `nil` when there is no such header or its value is neither a
    ///   number of seconds nor an HTTP date.
    /// - Complexity: O(*n*), where *n* is the number of header fields.
    public func retryAfter(now: Date = Date()) -> Duration? {
        value(forHeader: "Retry-After").flatMap { Self.retryAfter($0, now: now) }
    }

    /// Reads a `Retry-After` value; see ``retryAfter(now:)``.
    static func retryAfter(_ value: String, now: Date) -> Duration? {
        let value = value.trimmingCharacters(in: .whitespaces)
        if !value.isEmpty, value.allSatisfy(\.isASCIIDigit) {
            // Delay seconds; an absurd count (more digits than an Int holds) waits a very long time.
            return .seconds(Int(value) ?? Int.max)
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        let milliseconds = (date.timeIntervalSince(now) * 1000).rounded(.up)
        return .milliseconds(Int(max(0, min(milliseconds, 1e15))))
    }
}

/// The HTTP date of header fields (RFC 9110, section 5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`,
/// and the two obsolete forms a recipient must still accept.
enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",  // IMF-fixdate, what servers send today
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",  // obsolete RFC 850 form
        "EEE MMM d HH:mm:ss yyyy",  // obsolete asctime() form
    ]

    /// The date, or `nil` when the text is in none of the forms.
    static func parse(_ text: String) -> Date? {
        // A formatter per call: `DateFormatter` is not Sendable, and a date is read once per
        // answer that asks the client to wait.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        let text = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
