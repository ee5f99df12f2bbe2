package import Foundation

/// Which header fields a redirected request keeps: the one rule of the package's transports,
/// `PagingGraphQL`'s `URLSessionTransport` (through `RedirectHeaderGuard`, which a session of
/// your own can use) and `PagingHTTPClient`'s `HTTPClientTransport`.
///
/// Header fields carry credentials, so they stay with the origin they were sent to, as curl and
/// browsers keep credentials:
///
/// - A redirect to the origin (see ``HTTPOrigin``) of the first request keeps every field.
/// - A redirect to another origin keeps only the fields that describe the body and the answers
///   understood, `Accept` and `Content-Type` (``isKeptAcrossOrigins(_:)``), and never carries
///   `Authorization`, `Cookie` or `Proxy-Authorization` (``withheldFields``), whoever set them.
/// - A rule made with a `permits` closure asks it instead of comparing origins: a URL it permits
///   keeps every field, credentials included, and any other (even on the first request's
///   origin) keeps only `Accept` and `Content-Type`.
///
/// A request that went to another origin goes on without those fields, even when a later
/// redirect leads back: follow each redirect from the request the previous one gave.
///
/// ```swift
/// let rule = RedirectFieldRule()
/// let fields = rule.fields(of: request.headers, redirectedTo: location, from: request.url)
/// ```
package struct RedirectFieldRule: Sendable {
    /// The fields that go to another origin when the first request had them, lowercased: they
    /// describe the body and the answers understood, never who asks.
    package static let keptAcrossOrigins: Set<String> = ["accept", "content-type"]

    /// The fields that never go to another origin, whoever set them (a session's own fields
    /// included).
    package static let withheldFields = ["Authorization", "Cookie", "Proxy-Authorization"]

    private let permits: (@Sendable (URL) -> Bool)?

    /// Creates a rule.
    /// - Parameter permits: whether a redirect to a URL keeps every field, decided by the caller
    ///   (for instance, a command line's option to send its fields to any host); `nil`, the
    ///   default, for: only on the origin of the first request.
    package init(permits: (@Sendable (_ url: URL) -> Bool)? = nil) {
        self.permits = permits
    }

    /// Whether a redirect to `target` keeps every field of a request first sent to `original`:
    /// what the `permits` closure says, when the rule has one (it replaces the origin test);
    /// otherwise, when both have the same ``HTTPOrigin``.
    /// - Parameters:
    ///   - target: the URL the redirect names.
    ///   - original: the URL of the first request; with none, every redirect counts as one to
    ///     another origin.
    /// - Returns: `true` when the redirect keeps every field.
    /// - Complexity: O(*n*) in the length of the URLs, plus the `permits` closure.
    package func keepsFields(to target: URL, from original: URL?) -> Bool {
        if let permits { return permits(target) }
        guard let origin = original.flatMap(HTTPOrigin.init) else { return false }
        return HTTPOrigin(target) == origin
    }

    /// Whether a field goes with a redirect to another origin: `Accept` and `Content-Type`, in
    /// any case.
    /// - Parameter name: the field's name.
    /// - Complexity: O(*n*) in the length of the name.
    package static func isKeptAcrossOrigins(_ name: String) -> Bool {
        keptAcrossOrigins.contains(name.lowercased())
    }

    /// The fields a redirected request is sent with: `fields` as they are when the redirect
    /// ``keepsFields(to:from:)``, and otherwise only those ``isKeptAcrossOrigins(_:)``.
    /// - Parameters:
    ///   - fields: the header fields of the request being redirected.
    ///   - target: the URL the redirect names.
    ///   - original: the URL of the first request.
    /// - Returns: the fields to send to `target`.
    /// - Complexity: O(*n*), where *n* is the number of fields.
    package func fields(of fields: [String: String], redirectedTo target: URL, from original: URL?)
        -> [String: String]
    {
        if keepsFields(to: target, from: original) { return fields }
        return fields.filter { Self.isKeptAcrossOrigins($0.key) }
    }
}

/// The limits the package's transports share.
package enum TransportLimits {
    /// The default largest response body a transport reads: 64 MiB, far beyond any page of a
    /// connection.
    package static let defaultMaximumResponseSize = 64 << 20
}

extension URLError {
    /// The error of a response body larger than a transport's limit, as `URLSessionTransport`
    /// and `HTTPClientTransport` give it: `dataLengthExceedsMaximum`, with a message naming
    /// the limit and the URL that failed.
    /// - Parameters:
    ///   - limit: the transport's limit, in bytes.
    ///   - url: the URL of the request, when known.
    /// - Returns: the error.
    package static func responseTooLarge(limit: Int, url: URL?) -> URLError {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: "the response is larger than the transport's limit of \(limit) bytes"
        ]
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        return URLError(.dataLengthExceedsMaximum, userInfo: info)
    }
}
