/// What a GraphQL server answered: the data, and the errors next to it.
///
/// A response may carry data and errors together: a field that failed is
/// `null` in the data and described in ``errors``, the rest is there. The
/// client delivers such a response rather than dropping the data; it throws
/// ``GraphQLClientError`` only when there is no data at all.
///
/// ```swift
/// let response = try await client.send(query)
/// if let launches = response.data?.launches { show(launches) }
/// if !response.errors.isEmpty { warn(response.errors) }
/// ```
public struct GraphQLResponse<Data> {
    /// The data; `nil` only when the response had errors and no data, which
    /// ``GraphQLClient/send(_:headers:)`` reports by throwing instead.
    public var data: Data?
    /// The errors the server reported, empty when none.
    public var errors: [GraphQLResponseError]
    /// The response's `extensions` entry, such as tracing or cost data.
    public var extensions: [String: JSONValue]?
    /// The HTTP status of the response: 200 in the usual case; a non-2xx
    /// status kept when the body still was a GraphQL response with data.
    public var statusCode: Int
    /// The HTTP header fields of the response.
    public var headers: [String: String]
    /// Where the data came from: ``GraphQLResponseSource/network`` unless a
    /// fetch policy served it from the client's store
    /// (``GraphQLResponseSource/cache``).
    public var source: GraphQLResponseSource
    /// Why the data could not be written to the client's
    /// ``GraphQLClient/store``: the store cannot compile the document, or the
    /// data does not match it. `nil` when it was written, and when the client
    /// has no store. The response is delivered all the same.
    public var storeError: GraphQLStoreError?
    /// The store's commit count right after this response was written to
    /// it; `nil` when it was not, or when the write left a record of it
    /// deleted (deleted after its request was sent). A follower compares it
    /// with the store's count to know whether anything changed the store
    /// since.
    package var storeCommitCount: Int?

    /// Creates a response.
    /// - Parameters:
    ///   - data: the data.
    ///   - errors: the errors.
    ///   - extensions: the extensions entry.
    ///   - statusCode: the HTTP status.
    ///   - headers: the HTTP header fields.
    ///   - source: where the data came from; the network unless given.
    ///   - storeError: why the data could not be written to the client's
    ///     store; `nil` unless given.
    public init(
        data: Data?,
        errors: [GraphQLResponseError] = [],
        extensions: [String: JSONValue]? = nil,
        statusCode: Int = 200,
        headers: [String: String] = [:],
        source: GraphQLResponseSource = .network,
        storeError: GraphQLStoreError? = nil
    ) {
        self.data = data
        self.errors = errors
        self.extensions = extensions
        self.statusCode = statusCode
        self.headers = headers
        self.source = source
        self.storeError = storeError
    }

    /// Whether the response carries both data and errors.
    public var hasPartialData: Bool { data != nil && !errors.isEmpty }

    /// Whether the data was read from the client's store rather than
    /// received from the server.
    public var isFromCache: Bool { source == .cache }

    /// The same response with its data transformed.
    /// - Parameter transform: turns the data into another value.
    /// - Returns: the response with the transformed data and the same errors.
    /// - Throws: what `transform` throws.
    public func map<T>(_ transform: (Data) throws -> T) rethrows -> GraphQLResponse<T> {
        var mapped = GraphQLResponse<T>(
            data: try data.map(transform),
            errors: errors,
            extensions: extensions,
            statusCode: statusCode,
            headers: headers,
            source: source,
            storeError: storeError
        )
        mapped.storeCommitCount = storeCommitCount
        return mapped
    }
}

extension GraphQLResponse: Sendable where Data: Sendable {}
extension GraphQLResponse: Equatable where Data: Equatable {}
extension GraphQLResponse: Hashable where Data: Hashable {}
