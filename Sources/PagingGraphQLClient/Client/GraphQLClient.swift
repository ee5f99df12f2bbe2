public import Foundation

/// A GraphQL-over-HTTP client: it POSTs operations to one endpoint and reads
/// the answers as ``GraphQLResponse``s.
///
/// ```swift
/// let client = GraphQLClient(
///     endpoint: URL(string: "https://example.com/graphql")!,
///     headers: ["Authorization": "Bearer \(token)"],
///     timeout: .seconds(30)
/// )
/// let response = try await client.send(LaunchListQuery(variables: .init(pageSize: 20)))
/// ```
///
/// See <doc:SendingRequests> for how it works in detail.
public struct GraphQLClient: Sendable {
    /// The GraphQL endpoint.
    public var endpoint: URL
    /// Header fields sent with every request, such as `Authorization`, to
    /// the endpoint's origin: `PagingGraphQL`'s `URLSessionTransport`
    /// follows a redirect to another origin without them.
    public var headers: [String: String]
    /// How long a request may take before it fails with a
    /// ``GraphQLClientError/Code/transport`` error.
    public var timeout: Duration
    /// What carries the requests.
    public var transport: any GraphQLTransport
    /// The normalized record store responses are written to, and the
    /// pagers of this client follow; `nil` for none.
    public var store: GraphQLStore?
    /// What carries ``subscribe(_:onStart:)``'s subscriptions: a WebSocket connection shared by
    /// every subscription, and by every copy of this client; `nil` for none.
    public var webSocket: GraphQLWebSocketClient?

    /// Creates a client over a transport.
    ///
    /// `import PagingGraphQL` adds an initializer without `transport`,
    /// which sends over `URLSession`.
    /// - Parameters:
    ///   - endpoint: the GraphQL endpoint.
    ///   - headers: header fields sent with every request, to the endpoint's
    ///     origin only (the transport is to send a redirect to another
    ///     origin without them).
    ///   - timeout: how long a request may take; 60 seconds unless given.
    ///   - transport: what carries the requests.
    ///   - store: the normalized record store to write responses to, which
    ///     the client's pagers follow; `nil` for none.
    ///   - webSocket: what carries subscriptions; `nil` (the default) for none.
    public init(
        endpoint: URL,
        headers: [String: String] = [:],
        timeout: Duration = .seconds(60),
        transport: any GraphQLTransport,
        store: GraphQLStore? = nil,
        webSocket: GraphQLWebSocketClient? = nil
    ) {
        self.endpoint = endpoint
        self.headers = headers
        self.timeout = timeout
        self.transport = transport
        self.store = store
        self.webSocket = webSocket
    }

    /// Sends an operation and reads the answer.
    ///
    /// Data that comes with errors is returned with them, in one response:
    /// check ``GraphQLResponse/errors`` as well as ``GraphQLResponse/data``.
    ///
    /// With a ``store``, the response's data has been written to the store
    /// when this returns: observers heard one `StoreChange` for the
    /// response, or none when it changed nothing. If the store could not
    /// take the data, ``GraphQLResponse/storeError`` says why. This
    /// always sends a request, as the ``GraphQLFetchPolicy/networkOnly``
    /// policy does.
    ///
    /// - Parameters:
    ///   - operation: the operation, typed or untyped.
    ///   - headers: header fields for this request only; they replace the
    ///     client's fields of the same name.
    /// - Returns: the response, whose data is not `nil`.
    /// - Throws: ``GraphQLClientError`` when no data came (see its kinds);
    ///   `CancellationError` when the calling task was cancelled.
    public func send<Operation: GraphQLOperation>(
        _ operation: Operation,
        headers: [String: String] = [:]
    ) async throws -> GraphQLResponse<Operation.Data> {
        try await send(operation, plan: store.map { ClientStorePlan(operation, store: $0) }, headers: headers)
    }

    /// Sends an operation as planned for the store, and writes the data of
    /// its response there.
    func send<Operation: GraphQLOperation>(
        _ operation: Operation, plan: ClientStorePlan?, headers: [String: String]
    ) async throws -> GraphQLResponse<Operation.Data> {
        let request = try makeHTTPRequest(
            for: operation, document: plan?.sentDocument ?? operation.document, headers: headers)
        // From before it is sent until its response is written: a record deleted meanwhile stays
        // deleted (the response was answered before the deletion, or may have been).
        let send = plan == nil ? nil : store?.beginSend()
        defer { if let send { store?.endSend(send) } }
        let http: GraphQLHTTPResponse
        do {
            http = try await transport.send(request)
        } catch let error as CancellationError {
            throw error
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw GraphQLClientError.transport(error, url: endpoint)
        }
        try Task.checkCancellation()
        var response = try GraphQLResponse<Operation.Data>(decoding: http, url: endpoint)
        if let store, let plan {
            plan.write(&response, body: http.body, to: store, answering: send)
        }
        return response
    }

    /// The HTTP request ``send(_:headers:)`` sends for an operation: with a
    /// ``store``, its document is the store's rewrite of the operation's.
    /// - Parameters:
    ///   - operation: the operation.
    ///   - headers: header fields for this request only.
    /// - Returns: the request: method, headers, JSON body and timeout.
    /// - Throws: ``GraphQLClientError/Code/unencodableVariables`` when the
    ///   variables cannot be encoded as JSON.
    public func makeHTTPRequest<Operation: GraphQLOperation>(
        for operation: Operation,
        headers: [String: String] = [:]
    ) throws(GraphQLClientError) -> GraphQLHTTPRequest {
        let document = store.map { ClientStorePlan(operation, store: $0).sentDocument } ?? operation.document
        return try makeHTTPRequest(for: operation, document: document, headers: headers)
    }

    /// The HTTP request for an operation with the document text to send.
    func makeHTTPRequest<Operation: GraphQLOperation>(
        for operation: Operation, document: String, headers: [String: String]
    ) throws(GraphQLClientError) -> GraphQLHTTPRequest {
        let body: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            body = try encoder.encode(
                RequestBody(
                    query: document,
                    operationName: operation.operationName,
                    variables: operation.variables
                ))
        } catch {
            throw .unencodableVariables(error, url: endpoint)
        }
        var fields = [
            "Content-Type": "application/json",
            "Accept": "application/graphql-response+json, application/json",
        ]
        for layer in [self.headers, headers] {
            for (name, value) in layer {
                for existing in fields.keys where existing.caseInsensitiveCompare(name) == .orderedSame {
                    fields[existing] = nil
                }
                fields[name] = value
            }
        }
        return GraphQLHTTPRequest(
            url: endpoint, method: "POST", headers: fields, body: body, timeout: timeout)
    }
}

/// The JSON body of a GraphQL-over-HTTP POST.
private struct RequestBody<Variables: Encodable>: Encodable {
    var query: String
    var operationName: String?
    var variables: Variables
}
