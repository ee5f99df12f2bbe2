import Foundation
import PagingLock
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirects of the client's requests, through a server on 127.0.0.1 that moves the endpoint
/// to `localhost` on the same port: another origin, on loopback only.
@Suite("RedirectHeaderGuard")
struct RedirectHeaderGuardTests {
    static let fields = ["Authorization": "Bearer s3cret-token", "X-Api-Key": "k3y"]

    @Test("a client whose endpoint redirects to another origin does not send its Authorization header there")
    func clientRedirectedToAnotherOrigin() async throws {
        let (first, moved, port) = try await Self.sendThroughRedirect(to: "localhost")

        #expect(first.headers["authorization"] == "Bearer s3cret-token")
        #expect(moved.headers["host"] == "localhost:\(port)")
        #expect(moved.headers["authorization"] == nil)
        #expect(moved.headers["x-api-key"] == nil)
        #expect(moved.headers["content-type"] == "application/json")
    }

    @Test("a client whose endpoint redirects within its origin keeps its Authorization header")
    func clientRedirectedWithinTheOrigin() async throws {
        let (_, moved, port) = try await Self.sendThroughRedirect(to: "127.0.0.1")

        #expect(moved.headers["host"] == "127.0.0.1:\(port)")
        #expect(moved.headers["authorization"] == "Bearer s3cret-token")
        #expect(moved.headers["x-api-key"] == "k3y")
    }

    @Test("an app's session without a delegate keeps the header fields to the endpoint's origin too")
    func sessionWithoutADelegate() async throws {
        let server = try LoopbackHTTPServer(script: Self.movedEndpoint(to: "localhost"))
        defer { server.close() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let client = GraphQLClient(
            endpoint: try Self.endpoint(of: server), headers: Self.fields,
            transport: URLSessionTransport(session: session))

        _ = try await client.send(UntypedOperation(document: "{ a }"), headers: ["Cookie": "id=1"])

        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].headers["cookie"] == "id=1")
        #expect(requests[1].headers["host"] == "localhost:\(server.port)")
        #expect(requests[1].headers["authorization"] == nil)
        #expect(requests[1].headers["cookie"] == nil)
    }

    @Test("a redirect to another origin keeps only Accept and Content-Type of the first request's fields")
    func redirectRequestToAnotherOrigin() throws {
        let original = try Self.request(
            "https://api.example.com/graphql",
            fields: ["Accept": "application/json", "Content-Type": "application/json", "X-Api-Key": "k3y"])
        let redirect = try Self.request(
            "https://cdn.example.net/graphql",
            fields: [
                "Accept": "application/json", "Content-Type": "application/json", "X-Api-Key": "k3y",
                "Cookie": "id=1", "Proxy-Authorization": "Basic cA==", "Authorization": "Bearer t",
            ])

        let followed = RedirectHeaderGuard().request(following: redirect, from: original)

        #expect(followed.url == redirect.url)
        #expect(
            followed.allHTTPHeaderFields == [
                "Accept": "application/json", "Content-Type": "application/json",
            ])
    }

    @Test("a redirect within the origin, a default port spelled out, keeps every field")
    func redirectRequestWithinTheOrigin() throws {
        let original = try Self.request("https://api.example.com/graphql", fields: Self.fields)
        let redirect = try Self.request("https://API.example.com:443/v2/graphql", fields: Self.fields)

        let followed = RedirectHeaderGuard().request(following: redirect, from: original)

        #expect(followed.allHTTPHeaderFields == Self.fields)
    }

    @Test("a permits closure decides which redirects keep the fields, instead of the origin")
    func permitsClosure() throws {
        let original = try Self.request("https://api.example.com/graphql", fields: Self.fields)
        let elsewhere = try Self.request("https://cdn.example.net/graphql", fields: Self.fields)
        let asked = RequestLog()

        let anywhere = RedirectHeaderGuard(permits: { url in
            asked.append(url)
            return true
        }).request(following: elsewhere, from: original)
        let nowhere = RedirectHeaderGuard(permits: { _ in false }).request(
            following: original, from: original)

        #expect(anywhere.allHTTPHeaderFields == Self.fields)
        #expect(asked.urls == [elsewhere.url])
        #expect(nowhere.allHTTPHeaderFields == [:])
    }

    // MARK: - Support

    /// Answers `POST /graphql` with a 307 to `/moved` on `host` and the same port, and
    /// `/moved` with `{"data":{"a":1}}`.
    static func movedEndpoint(to host: String) -> LoopbackHTTPServer.Script {
        { request, port in
            if request.target == "/graphql" {
                return .init(status: 307, headers: ["Location": "http://\(host):\(port)/moved"])
            }
            return .init(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Data(#"{"data":{"a":1}}"#.utf8))
        }
    }

    /// Sends a query with ``fields`` from a client made with `GraphQLClient(endpoint:headers:)`
    /// to an endpoint that moves to `host`.
    /// - Returns: the request to the endpoint, the one to where it moved, and the server's port.
    static func sendThroughRedirect(
        to host: String
    ) async throws -> (LoopbackHTTPServer.Request, LoopbackHTTPServer.Request, UInt16) {
        let server = try LoopbackHTTPServer(script: movedEndpoint(to: host))
        defer { server.close() }
        let client = GraphQLClient(endpoint: try endpoint(of: server), headers: fields)

        let response = try await client.send(UntypedOperation(document: "{ a }"))

        #expect(response.data == ["a": 1])
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[1].target == "/moved")
        return (requests[0], requests[1], server.port)
    }

    static func endpoint(of server: LoopbackHTTPServer) throws -> URL {
        try #require(URL(string: "http://127.0.0.1:\(server.port)/graphql"))
    }

    static func request(_ url: String, fields: [String: String]) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: url)))
        for (name, value) in fields { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }
}

/// The URLs a `permits` closure was asked about.
private final class RequestLog: Sendable {
    private let asked = Lock<[URL?]>([])

    var urls: [URL?] { asked.withLock { $0 } }

    func append(_ url: URL) {
        asked.withLock { $0.append(url) }
    }
}
