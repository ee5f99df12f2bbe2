public import Foundation

/// An HTTP request as a ``GraphQLTransport`` sends it: the client has made
/// the body and the headers, the transport only carries them.
public struct GraphQLHTTPRequest: Hashable, Sendable {
    /// The endpoint.
    public var url: URL
    /// The method: `POST` for every request the client makes.
    public var method: String
    /// The header fields, by name. Names are compared without regard to case
    /// by ``value(forHeader:)``.
    public var headers: [String: String]
    /// The body: the JSON of `query`, `operationName` and `variables`.
    public var body: Data
    /// How long the request may take before the transport gives up.
    public var timeout: Duration

    /// Creates a request.
    /// - Parameters:
    ///   - url: the endpoint.
    ///   - method: the HTTP method.
    ///   - headers: the header fields.
    ///   - body: the body.
    ///   - timeout: how long the request may take.
    public init(
        url: URL, method: String = "POST", headers: [String: String] = [:], body: Data, timeout: Duration
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// The value of a header field, whatever the case of its name.
    /// - Parameter name: the field name, such as `content-type`.
    /// - Returns: the value, or `nil` when the request has no such field.
    /// - Complexity: O(*n*), where *n* is the number of header fields.
    public func value(forHeader name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
