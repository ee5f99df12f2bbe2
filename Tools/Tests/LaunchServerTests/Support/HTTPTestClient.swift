import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real HTTP client (URLSession) for the tests that go over loopback.
struct HTTPTestClient: Sendable {
    /// A response: status, headers, body.
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// A header, by case-insensitive name.
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }

        /// The body as text.
        var text: String { String(decoding: body, as: UTF8.self) }

        /// The `error` member of a REST error body.
        var errorMessage: String? {
            (try? JSONDecoder().decode([String: String].self, from: body))?["error"]
        }
    }

    let baseURL: URL
    private var session: URLSession { Self.session }

    /// The one session of every client of the tests, for the whole run: on Linux, a URL session
    /// ended while one of its sockets has an event pending can crash libdispatch
    /// (swift-corelibs-foundation issues 4791 and 5469). Without a cache or cookies, so that
    /// tests share connections and nothing else.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        return URLSession(configuration: configuration)
    }()

    init(baseURL: URL) {
        self.baseURL = baseURL
    }

    /// Sends a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - pathAndQuery: Such as `/api/launches?page=2`, already percent-encoded.
    ///   - headers: Request headers.
    ///   - body: The request body.
    func send(
        _ method: String = "GET", _ pathAndQuery: String, headers: [String: String] = [:], body: Data? = nil
    )
        async throws -> Reply
    {
        guard let url = URL(string: baseURL.absoluteString + pathAndQuery) else {
            throw URLError(.badURL)
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String {
                fields[name] = value
            }
        }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    /// POSTs a GraphQL request as JSON.
    func graphQL(_ query: String, variables: [String: any Sendable & Encodable] = [:], accept: String? = nil)
        async throws -> Reply
    {
        struct Body: Encodable {
            let query: String
            let variables: [String: AnyEncodable]
        }
        struct AnyEncodable: Encodable {
            let value: any Encodable
            func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
        }
        let body = try JSONEncoder().encode(
            Body(query: query, variables: variables.mapValues { AnyEncodable(value: $0) }))
        var headers = ["Content-Type": "application/json"]
        if let accept { headers["Accept"] = accept }
        return try await send("POST", "/graphql", headers: headers, body: body)
    }
}

/// Percent-encodes a query parameter value.
func queryValue(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}
