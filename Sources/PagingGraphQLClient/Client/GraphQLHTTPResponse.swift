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
}
