public import Foundation

/// Why a GraphQL request produced no data.
///
/// See <doc:SendingRequests> for how it works in detail.
public struct GraphQLClientError: Error, Sendable {
    /// The code of a ``GraphQLClientError``: what kind of failure it is;
    /// compare with `==` or `switch`
    /// over the static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case transport, httpStatus, notGraphQLResponse, undecodableResponse, graphQLErrors,
                unencodableVariables, cacheMiss, store
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// No response arrived: no connection, a timeout, a TLS failure.
        public static var transport: Self { Self(.transport) }
        /// A status outside 200...299 with a body that is not a GraphQL response.
        public static var httpStatus: Self { Self(.httpStatus) }
        /// A 2xx body that is not a GraphQL response.
        public static var notGraphQLResponse: Self { Self(.notGraphQLResponse) }
        /// A GraphQL response whose data or errors do not decode.
        public static var undecodableResponse: Self { Self(.undecodableResponse) }
        /// GraphQL errors and no data.
        public static var graphQLErrors: Self { Self(.graphQLErrors) }
        /// Variables that could not be encoded as JSON.
        public static var unencodableVariables: Self { Self(.unencodableVariables) }
        /// A cache-only fetch of data the store does not hold in full.
        public static var cacheMiss: Self { Self(.cacheMiss) }
        /// A cache-only fetch of an operation the store cannot read.
        public static var store: Self { Self(.store) }

        /// The name of the code, such as `httpStatus`.
        public var description: String { value.rawValue }
    }

    private enum Reason: Sendable {
        case transport(any Error)
        case httpStatus(Int, excerpt: String)
        case notGraphQLResponse(Int, excerpt: String, problem: String)
        case undecodableResponse(type: String, codingPath: String, problem: String)
        case graphQLErrors([GraphQLResponseError], statusCode: Int)
        case unencodableVariables(problem: String)
        case cacheMiss(StoreMiss, operationName: String?)
        case store(GraphQLStoreError)
    }

    private let reason: Reason

    /// The endpoint the request was sent to, when known.
    public let url: URL?

    /// How long the server asked the client to wait before asking again: the response's
    /// `Retry-After` header (seconds or an HTTP date, see
    /// ``GraphQLHTTPResponse/retryAfter(now:)``), counted from when the response was read.
    /// `nil` when no response arrived or it had no such header.
    ///
    /// Servers send it with 429 Too Many Requests and 503 Service Unavailable; the client never
    /// waits by itself:
    ///
    /// ```swift
    /// do {
    ///     return try await client.send(query)
    /// } catch let error as GraphQLClientError where error.statusCode == 429 {
    ///     try await Task.sleep(for: error.retryAfter ?? .seconds(30))
    ///     return try await client.send(query)
    /// }
    /// ```
    public internal(set) var retryAfter: Duration?

    private init(_ reason: Reason, url: URL?) {
        self.reason = reason
        self.url = url
    }

    /// What kind of failure this is.
    public var code: Code {
        switch reason {
        case .transport: .transport
        case .httpStatus: .httpStatus
        case .notGraphQLResponse: .notGraphQLResponse
        case .undecodableResponse: .undecodableResponse
        case .graphQLErrors: .graphQLErrors
        case .unencodableVariables: .unencodableVariables
        case .cacheMiss: .cacheMiss
        case .store: .store
        }
    }

    /// The HTTP status of the response, when one arrived.
    public var statusCode: Int? {
        switch reason {
        case .httpStatus(let status, _), .notGraphQLResponse(let status, _, _): status
        case .graphQLErrors(_, let status): status
        case .transport, .undecodableResponse, .unencodableVariables, .cacheMiss, .store: nil
        }
    }

    /// The start of the response body (at most 200 characters, whitespace
    /// collapsed), for a body that was not a GraphQL response.
    public var bodyExcerpt: String? {
        switch reason {
        case .httpStatus(_, let excerpt), .notGraphQLResponse(_, let excerpt, _): excerpt
        default: nil
        }
    }

    /// The transport's error, for ``Code/transport``.
    public var underlyingError: (any Error)? {
        if case .transport(let error) = reason { error } else { nil }
    }

    /// The errors the server reported, for ``Code/graphQLErrors``; empty
    /// otherwise.
    public var graphQLErrors: [GraphQLResponseError] {
        if case .graphQLErrors(let errors, _) = reason { errors } else { [] }
    }

    /// Where decoding failed, such as `data.launches.launches[3].site`, for
    /// ``Code/undecodableResponse``.
    public var codingPath: String? {
        if case .undecodableResponse(_, let path, _) = reason { path } else { nil }
    }

    /// The first field the store lacks, for ``Code/cacheMiss``: its path in
    /// the response, its record and its storage key.
    public var storeMiss: StoreMiss? {
        if case .cacheMiss(let miss, _) = reason { miss } else { nil }
    }

    /// Why the store cannot read the operation, for ``Code/store``.
    public var storeError: GraphQLStoreError? {
        if case .store(let error) = reason { error } else { nil }
    }
}

extension GraphQLClientError {
    static func transport(_ error: any Error, url: URL?) -> Self {
        Self(.transport(error), url: url)
    }

    static func httpStatus(_ status: Int, body: Data, url: URL?) -> Self {
        Self(.httpStatus(status, excerpt: BodyExcerpt.make(body)), url: url)
    }

    static func notGraphQLResponse(_ status: Int, body: Data, problem: String, url: URL?) -> Self {
        Self(.notGraphQLResponse(status, excerpt: BodyExcerpt.make(body), problem: problem), url: url)
    }

    static func undecodableResponse(_ error: DecodingError, type: Any.Type, url: URL?) -> Self {
        let (path, problem) = DecodingErrorText.describe(error)
        return Self(
            .undecodableResponse(type: String(reflecting: type), codingPath: path, problem: problem), url: url
        )
    }

    static func undecodableNode(_ error: DecodingError, type: Any.Type, nodePath: [GraphQLPathSegment])
        -> Self
    {
        let (inner, problem) = DecodingErrorText.describe(error)
        let path =
            GraphQLPathSegment.describe([.key("data")] + nodePath)
            + (inner == "(root)" ? "" : inner.hasPrefix("[") ? inner : ".\(inner)")
        return Self(
            .undecodableResponse(type: String(reflecting: type), codingPath: path, problem: problem), url: nil
        )
    }

    static func undecodableConnection(path: [GraphQLPathSegment], problem: String) -> Self {
        let text = GraphQLPathSegment.describe([.key("data")] + path)
        return Self(.undecodableResponse(type: "a connection", codingPath: text, problem: problem), url: nil)
    }

    static func graphQLErrors(_ errors: [GraphQLResponseError], statusCode: Int, url: URL?) -> Self {
        Self(.graphQLErrors(errors, statusCode: statusCode), url: url)
    }

    static func cacheMiss(_ miss: StoreMiss, operationName: String?) -> Self {
        Self(.cacheMiss(miss, operationName: operationName), url: nil)
    }

    static func store(_ error: GraphQLStoreError) -> Self {
        Self(.store(error), url: nil)
    }

    static func unencodableVariables(_ error: any Error, url: URL?) -> Self {
        let problem = (error as? EncodingError).map(DecodingErrorText.describe) ?? String(describing: error)
        return Self(.unencodableVariables(problem: problem), url: url)
    }
}

extension GraphQLClientError: CustomStringConvertible {
    /// The message.
    public var description: String { message }

    /// A sentence or two a person can act on, naming the endpoint, the
    /// status, the body's start or the decoding path as fits the code.
    public var message: String {
        let endpoint = url.map { " to \($0.absoluteString)" } ?? ""
        let server = url.map { "The server at \($0.absoluteString)" } ?? "The server"
        switch reason {
        case .transport(let error as URLError) where error.code == .dataLengthExceedsMaximum:
            return "The response\(endpoint) is larger than the transport accepts, so it was not read: "
                + "\(Self.describe(error)). If responses this large are expected, raise the transport's "
                + "limit (URLSessionTransport's maximumResponseSize); otherwise ask for smaller pages."
        case .transport(let error):
            return "The GraphQL request\(endpoint) got no response: \(Self.describe(error)). "
                + "Check the network connection and that the endpoint URL is right and the server is running."
        case .httpStatus(let status, let excerpt):
            return "\(server) answered HTTP \(status)\(Self.reasonPhrase(status)) "
                + "instead of a GraphQL response. The body begins: \(excerpt)"
        case .notGraphQLResponse(let status, let excerpt, let problem):
            return "\(server) answered HTTP \(status), but the body is not a GraphQL response: \(problem). "
                + "Check that the URL is the GraphQL endpoint. The body begins: \(excerpt)"
        case .undecodableResponse(let type, let path, let problem):
            return "The GraphQL response could not be decoded as \(type) at \(path): \(problem). "
                + "Check that the type matches the fields the document selects."
        case .graphQLErrors(let errors, let status):
            let statusText = (200..<300).contains(status) ? "" : " (HTTP \(status))"
            let count = errors.count == 1 ? "a GraphQL error" : "\(errors.count) GraphQL errors"
            let list = errors.map(\.description).joined(separator: "; ")
            return "\(server) answered with \(count) and no data\(statusText): \(list)"
        case .unencodableVariables(let problem):
            return
                "The variables could not be encoded as JSON, so the request\(endpoint) was not sent: \(problem)"
        case .cacheMiss(let miss, let operationName):
            let operation = operationName.map { "the operation \"\($0)\"" } ?? "the operation"
            return
                "The store does not hold all the data of \(operation), and the fetch policy is cache-only, "
                + "so nothing was sent. The first missing field: \(miss) "
                + "Fetch it with the cacheFirst or networkOnly policy first."
        case .store(let error):
            return "The store cannot read the operation, and the fetch policy is cache-only, "
                + "so nothing was sent: \(error.message)"
        }
    }

    private static func reasonPhrase(_ status: Int) -> String {
        let phrases = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout",
            413: "Content Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Content",
            429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status].map { " \($0)" } ?? ""
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? URLError {
            return "\(error.localizedDescription) (URLError \(error.code.rawValue))"
        }
        return String(describing: error)
    }
}

/// The start of a response body, for error messages.
enum BodyExcerpt {
    /// At most `limit` characters of the body, whitespace collapsed, quoted.
    static func make(_ body: Data, limit: Int = 200) -> String {
        guard !body.isEmpty else { return "(an empty body)" }
        guard let text = String(data: body, encoding: .utf8) else {
            return "(\(body.count) bytes that are not UTF-8 text)"
        }
        let collapsed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if collapsed.count <= limit { return "\"\(collapsed)\"" }
        return "\"\(collapsed.prefix(limit))…\""
    }
}

/// Coding paths and problems of coding errors, as text.
enum DecodingErrorText {
    /// The coding path as `data.launches[3].site`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        let segments: [GraphQLPathSegment] = codingPath.map { key in
            if let index = key.intValue { .index(index) } else { .key(key.stringValue) }
        }
        return GraphQLPathSegment.describe(segments)
    }

    static func describe(_ error: DecodingError) -> (path: String, problem: String) {
        switch error {
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "expected a value of type \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "expected a value of type \(type), found null or nothing")
        case .keyNotFound(let key, let context):
            return (path(context.codingPath + [key]), "the key \"\(key.stringValue)\" is missing")
        case .dataCorrupted(let context):
            return (path(context.codingPath), context.debugDescription)
        @unknown default:
            return ("(unknown)", String(describing: error))
        }
    }

    static func describe(_ error: EncodingError) -> String {
        switch error {
        case .invalidValue(let value, let context):
            return "\(value) at \(path(context.codingPath)) cannot be encoded: \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }
}
