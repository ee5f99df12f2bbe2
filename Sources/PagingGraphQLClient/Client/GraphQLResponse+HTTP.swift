public import Foundation

extension GraphQLResponse where Data: Decodable {
    /// Reads an HTTP response as a GraphQL response.
    ///
    /// The rules, after the GraphQL-over-HTTP specification:
    ///
    /// - A body that is a GraphQL response (a JSON object with `data` or
    ///   `errors`) is read whatever the status, because with
    ///   `application/graphql-response+json` a server answers 4xx or 5xx
    ///   with a well-formed response when a request fails as a whole.
    ///   - With data (errors or not), it is returned, status kept in
    ///     ``statusCode``: data is never dropped.
    ///   - With errors and no data, it throws ``GraphQLClientError/Code/graphQLErrors``,
    ///     status kept in ``GraphQLClientError/statusCode``.
    /// - Any other body throws ``GraphQLClientError/Code/httpStatus`` for a
    ///   status outside 200...299 and ``GraphQLClientError/Code/notGraphQLResponse``
    ///   for a 2xx, each with the start of the body.
    /// - A GraphQL response whose data does not decode into `Data` throws
    ///   ``GraphQLClientError/Code/undecodableResponse`` with the coding path.
    ///
    /// - Parameters:
    ///   - http: the HTTP response.
    ///   - url: the endpoint, named in error messages.
    /// - Throws: ``GraphQLClientError`` as described above, with the response's `Retry-After`
    ///   in ``GraphQLClientError/retryAfter``.
    public init(decoding http: GraphQLHTTPResponse, url: URL? = nil) throws(GraphQLClientError) {
        do {
            self = try Self.read(http, url: url)
        } catch {
            var error = error
            error.retryAfter = http.retryAfter()
            throw error
        }
    }

    /// Reads an HTTP response as ``init(decoding:url:)`` describes.
    private static func read(_ http: GraphQLHTTPResponse, url: URL?) throws(GraphQLClientError) -> Self {
        // The body is read by ``JSONReader`` first, and only JSON it accepts (nested at most 512
        // levels deep) goes to `JSONDecoder`: Foundation's decoder traps, ending the process, on
        // some bodies that are not JSON (more than 512 unclosed brackets), which any server can send.
        guard let json = try? JSONReader.read(http.body) else {
            let problem = Self.shapeProblem(of: http.body) ?? "it is not JSON"
            if http.isSuccess {
                throw .notGraphQLResponse(http.statusCode, body: http.body, problem: problem, url: url)
            }
            throw .httpStatus(http.statusCode, body: http.body, url: url)
        }
        let wire: WireResponse<Data>
        do {
            wire = try Self.fastWire(json) ?? JSONDecoder().decode(WireResponse<Data>.self, from: http.body)
        } catch {
            if let problem = Self.shapeProblem(of: http.body) {
                if http.isSuccess {
                    throw .notGraphQLResponse(http.statusCode, body: http.body, problem: problem, url: url)
                }
                throw .httpStatus(http.statusCode, body: http.body, url: url)
            }
            if !http.isSuccess,
                (try? JSONDecoder().decode(WireResponse<JSONValue>.self, from: http.body))?.data == nil
            {
                // An error page that happens to be JSON with an `errors`
                // entry of another format: report the status.
                throw .httpStatus(http.statusCode, body: http.body, url: url)
            }
            if let error = error as? DecodingError {
                throw .undecodableResponse(error, type: Data.self, url: url)
            }
            throw .notGraphQLResponse(
                http.statusCode, body: http.body, problem: String(describing: error), url: url)
        }
        let errors = wire.errors ?? []
        guard let data = wire.data else {
            if !errors.isEmpty {
                throw .graphQLErrors(errors, statusCode: http.statusCode, url: url)
            }
            if !http.isSuccess {
                throw .httpStatus(http.statusCode, body: http.body, url: url)
            }
            throw .notGraphQLResponse(
                http.statusCode,
                body: http.body,
                problem: Self.shapeProblem(of: http.body) ?? "its \"data\" is null and it has no \"errors\"",
                url: url
            )
        }
        return Self(
            data: data, errors: errors, extensions: wire.extensions, statusCode: http.statusCode,
            headers: http.headers)
    }

    /// The body, as ``JSONReader`` read it, when the data is untyped
    /// (``JSONValue``): one pass instead of `Decodable`'s containers. `nil`
    /// when the data is typed, or the body is not a plain response (the
    /// `Decodable` path then reads it and says what is wrong).
    private static func fastWire(_ body: JSONValue) -> WireResponse<Data>? {
        guard Data.self == JSONValue.self, case .object(let members) = body else {
            return nil
        }
        var wire = WireResponse<Data>()
        switch members["data"] {
        case nil, .null?: break
        case let data?:
            guard let data = data as? Data else { return nil }
            wire.data = data
        }
        switch members["errors"] {
        case nil, .null?: break
        case let errors?:
            guard let decoded = try? errors.decode([GraphQLResponseError].self) else { return nil }
            wire.errors = decoded
        }
        switch members["extensions"] {
        case nil, .null?: break
        case .object(let extensions)?: wire.extensions = extensions
        default: return nil
        }
        return wire
    }

    /// Why a body is not a GraphQL response, or `nil` when it is one.
    private static func shapeProblem(of body: Foundation.Data) -> String? {
        if body.isEmpty { return "it is empty" }
        guard let json = try? JSONValue(json: body) else { return "it is not JSON" }
        guard case .object(let members) = json else { return "it is JSON but not an object" }
        guard members["data"] != nil || members["errors"] != nil else {
            return "it is a JSON object without \"data\" or \"errors\""
        }
        return nil
    }
}

/// The body of a GraphQL response as it is on the wire.
private struct WireResponse<Data: Decodable>: Decodable {
    var data: Data?
    var errors: [GraphQLResponseError]?
    var extensions: [String: JSONValue]?
}
