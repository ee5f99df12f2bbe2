import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL
import PagingGraphQLClient
import Testing
import ToolsLock

@testable import PagingCLI
@testable import PagingHTTPClient

/// A GraphQL-shaped POST to `url`, with a secret field and the fields a redirect keeps.
private func post(_ url: URL, body: String = #"{"query":"{ a }"}"#) -> GraphQLHTTPRequest {
    GraphQLHTTPRequest(
        url: url,
        headers: [
            "Authorization": "Bearer s3cret", "Accept": "application/json",
            "Content-Type": "application/json",
        ],
        body: Data(body.utf8), timeout: patience)
}

/// Answers `/start` with `status` and a `Location` of `/end`, and `/end` with a JSON body.
private func redirecting(status: Int) -> @Sendable (ReceivedRequest, Int) -> CannedResponse {
    { request, _ in
        request.path == "/start"
            ? CannedResponse(status: status, headers: ["Location": "/end"], body: Data())
            : .json(#"{"data":{"a":1}}"#)
    }
}

@Suite("The commands' transport (AsyncHTTPClient) behaves as URLSessionTransport does")
struct HTTPClientTransportTests {
    @Test("a 303, and a 301 or 302 answering a POST, go on as a GET without the body")
    func redirectsThatBecomeGET() async throws {
        for status in [301, 302, 303] {
            try await ScriptedHTTPServer.withRunning(answer: redirecting(status: status)) { server in
                let transport = HTTPClientTransport(idleTimeout: patience)
                let response = try await transport.send(post(server.baseURL.appending(path: "start")))
                #expect(response.statusCode == 200)
                #expect(response.body == Data(#"{"data":{"a":1}}"#.utf8))
                let requests = server.requests
                #expect(requests.map(\.method) == ["POST", "GET"], "HTTP \(status)")
                #expect(requests.map(\.path) == ["/start", "/end"])
                #expect(requests.last?.body.isEmpty == true)
                #expect(requests.last?.headers["content-type"] == nil)
                // The same origin: the fields go on.
                #expect(requests.last?.headers["authorization"] == "Bearer s3cret")
            }
        }
    }

    @Test("a 307 or 308 repeats the POST with its body")
    func redirectsThatKeepThePOST() async throws {
        for status in [307, 308] {
            try await ScriptedHTTPServer.withRunning(answer: redirecting(status: status)) { server in
                let transport = HTTPClientTransport(idleTimeout: patience)
                _ = try await transport.send(
                    post(server.baseURL.appending(path: "start"), body: #"{"query":"{ b }"}"#))
                let requests = server.requests
                #expect(requests.map(\.method) == ["POST", "POST"], "HTTP \(status)")
                #expect(
                    requests.map { String(decoding: $0.body, as: UTF8.self) }
                        == Array(repeating: #"{"query":"{ b }"}"#, count: 2))
            }
        }
    }

    @Test("a redirect to another origin goes without the fields but Accept and Content-Type")
    func redirectToAnotherOrigin() async throws {
        try await ScriptedHTTPServer.withRunning(
            answer: CrossOriginScripts.movedEndpoint(toOtherOrigin: true)
        ) {
            server in
            let transport = HTTPClientTransport(idleTimeout: patience)
            let response = try await transport.send(post(server.baseURL.appending(path: "graphql")))
            #expect(response.statusCode == 200)
            let moved = try #require(server.requests.last)
            #expect(moved.authority == "localhost:\(server.port)")
            #expect(moved.headers["authorization"] == nil)
            #expect(moved.headers["accept"] == "application/json")
            #expect(moved.headers["content-type"] == "application/json")
            #expect(server.requests.first?.headers["authorization"] == "Bearer s3cret")
        }
    }

    @Test("the permits rule decides instead of the origin when it is given")
    func permitsRule() async throws {
        try await ScriptedHTTPServer.withRunning(
            answer: CrossOriginScripts.movedEndpoint(toOtherOrigin: true)
        ) {
            server in
            let asked = AskedURLs()
            let transport = HTTPClientTransport(idleTimeout: patience) { url in
                asked.append(url)
                return true
            }
            _ = try await transport.send(post(server.baseURL.appending(path: "graphql")))
            #expect(asked.urls.map(\.absoluteString) == ["http://localhost:\(server.port)/moved"])
            #expect(server.requests.last?.headers["authorization"] == "Bearer s3cret")
        }
    }

    @Test("a redirect loop fails with httpTooManyRedirects after the limit")
    func redirectLoop() async throws {
        try await ScriptedHTTPServer.withRunning(answer: { _, _ in
            CannedResponse(status: 302, headers: ["Location": "/again"], body: Data())
        }) { server in
            let transport = HTTPClientTransport(idleTimeout: patience, maximumRedirects: 3)
            let error = await #expect(throws: URLError.self) {
                try await transport.send(post(server.baseURL.appending(path: "start")))
            }
            #expect(error?.code == .httpTooManyRedirects)
            #expect(server.requests.count == 4)  // the request and 3 redirects
        }
    }

    @Test("a body over the limit fails with dataLengthExceedsMaximum; one at the limit is read")
    func bodyLimit() async throws {
        let body = String(repeating: "x", count: 100)
        try await ScriptedHTTPServer.withRunning(answer: { _, _ in .json(body) }) { server in
            let exact = HTTPClientTransport(idleTimeout: patience, maximumResponseSize: 100)
            let whole = try await exact.send(post(server.baseURL))
            #expect(whole.body.count == 100)
            let small = HTTPClientTransport(idleTimeout: patience, maximumResponseSize: 99)
            let error = await #expect(throws: URLError.self) { try await small.send(post(server.baseURL)) }
            #expect(error?.code == .dataLengthExceedsMaximum)
            #expect(error?.localizedDescription.contains("limit of 99 bytes") == true)
        }
    }

    @Test("every request has a User-Agent: its own, or the transport's; a GET goes without a body")
    func userAgentAndGET() async throws {
        try await ScriptedHTTPServer.withRunning(answer: { _, _ in .json("[]") }) { server in
            let transport = HTTPClientTransport(idleTimeout: patience)
            _ = try await transport.send(
                GraphQLHTTPRequest(url: server.baseURL, method: "GET", body: Data(), timeout: patience))
            _ = try await transport.send(
                GraphQLHTTPRequest(
                    url: server.baseURL, headers: ["User-Agent": "mine/1.0"], body: Data("{}".utf8),
                    timeout: patience))
            let requests = server.requests
            #expect(
                requests.map(\.headers["user-agent"]) == [HTTPClientTransport.defaultUserAgent, "mine/1.0"])
            #expect(requests.map(\.method) == ["GET", "POST"])
            #expect(requests.first?.body.isEmpty == true)
        }
    }

    @Test("a port nobody listens on fails with cannotConnectToHost, naming the URL")
    func connectionRefused() async throws {
        // A server's port once it has stopped: nothing listens there.
        let port = try await ScriptedHTTPServer.withRunning(answer: { _, _ in .json("{}") }) { $0.port }
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/graphql"))
        let transport = HTTPClientTransport(idleTimeout: patience)
        let error = await #expect(throws: URLError.self) { try await transport.send(post(url)) }
        #expect(error?.code == .cannotConnectToHost, "\(String(describing: error))")
        #expect(error?.failingURL == url)
    }

    @Test("a field sent twice reads as one, its values joined with commas")
    func repeatedHeaderFields() {
        var headers = HTTPHeaders()
        headers.add(name: "Link", value: "<a>; rel=\"next\"")
        headers.add(name: "link", value: "<b>; rel=\"last\"")
        headers.add(name: "Content-Type", value: "application/json")
        let response = HTTPClientResponse(status: .ok, headers: headers)
        #expect(
            HTTPClientTransport.headers(of: response) == [
                "Link": "<a>; rel=\"next\", <b>; rel=\"last\"", "Content-Type": "application/json",
            ])
    }

    @Test("the proxy comes from the environment as curl reads it, and no_proxy exempts hosts")
    func proxyFromTheEnvironment() throws {
        // swift-format-ignore: NeverForceUnwrap
        let github = URL(string: "https://api.github.com/graphql")!
        // swift-format-ignore: NeverForceUnwrap
        let local = URL(string: "http://127.0.0.1:8080/graphql")!
        func proxy(_ url: URL, _ environment: [String: String]) throws -> HTTPClient.Configuration.Proxy? {
            try HTTPClientTransport.proxy(for: url, environment: environment)
        }
        #expect(try proxy(github, [:]) == nil)
        #expect(
            try proxy(github, ["https_proxy": "proxy.corp:3128"]) == .server(host: "proxy.corp", port: 3128))
        #expect(
            try proxy(github, ["HTTPS_PROXY": "http://proxy.corp"]) == .server(host: "proxy.corp", port: 1080)
        )
        #expect(try proxy(github, ["http_proxy": "proxy.corp:3128"]) == nil)
        #expect(
            try proxy(local, ["http_proxy": "proxy.corp:3128"]) == .server(host: "proxy.corp", port: 3128))
        // Not HTTP_PROXY, which a CGI request's Proxy header sets.
        #expect(try proxy(local, ["HTTP_PROXY": "proxy.corp:3128"]) == nil)
        #expect(
            try proxy(local, ["ALL_PROXY": "socks5h://tunnel:9050"])
                == .socksServer(host: "tunnel", port: 9050))
        #expect(
            try proxy(github, ["https_proxy": "http://me:p%40ss@proxy.corp:8080"])
                == .server(
                    host: "proxy.corp", port: 8080, authorization: .basic(username: "me", password: "p@ss")))
        let corporate = ["https_proxy": "proxy.corp:3128", "http_proxy": "proxy.corp:3128"]
        for exempt in ["github.com", ".github.com", "api.github.com", "localhost, github.com", "*"] {
            #expect(try proxy(github, corporate.merging(["no_proxy": exempt]) { $1 }) == nil, "\(exempt)")
        }
        #expect(try proxy(github, corporate.merging(["NO_PROXY": "hub.com"]) { $1 }) != nil)
        #expect(try proxy(local, corporate.merging(["no_proxy": "127.0.0.1"]) { $1 }) == nil)
        // A proxy it cannot use is an error that names the variable, never its credentials.
        for unusable in ["https://proxy.corp:443", "socks5://me:s3cret@tunnel:9050", "http://"] {
            let error = #expect(throws: HTTPClientTransport.UnusableProxy.self) {
                try proxy(github, ["https_proxy": unusable])
            }
            #expect(error?.variable == "https_proxy")
            #expect(error?.description.contains("s3cret") == false)
        }
        #expect(
            throws: HTTPClientTransport.UnusableProxy(
                variable: "https_proxy", proxy: "https://proxy.corp:443")
        ) { try proxy(github, ["https_proxy": "https://proxy.corp:443"]) }
    }

    @Test("a body without a length is read in parts up to the limit, and refused past it")
    func chunkedBodyLimit() async throws {
        let body = String(repeating: "y", count: 100)
        try await ScriptedHTTPServer.withRunning(answer: { _, _ in
            CannedResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8),
                announcesLength: false)
        }) { server in
            let exact = HTTPClientTransport(idleTimeout: patience, maximumResponseSize: 100)
            let whole = try await exact.send(post(server.baseURL))
            #expect(whole.body == Data(body.utf8))
            #expect(whole.value(forHeader: "Content-Length") == nil)
            let small = HTTPClientTransport(idleTimeout: patience, maximumResponseSize: 60)
            let error = await #expect(throws: URLError.self) { try await small.send(post(server.baseURL)) }
            #expect(error?.code == .dataLengthExceedsMaximum)
        }
    }

    @Test("it asks for gzip and reads a gzip body uncompressed")
    func gzipBody() async throws {
        // `{"data":{"a":1}}` compressed by Python's gzip module (mtime 0).
        let compressed: [UInt8] = [
            31, 139, 8, 0, 0, 0, 0, 0, 2, 255, 171, 86, 74, 73, 44, 73, 84, 178, 170, 86, 2, 18, 134, 181,
            181, 0,
            117, 173, 91, 150, 16, 0, 0, 0,
        ]
        try await ScriptedHTTPServer.withRunning(answer: { _, _ in
            CannedResponse(
                status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                body: Data(compressed))
        }) { server in
            let transport = HTTPClientTransport(idleTimeout: patience)
            let response = try await transport.send(post(server.baseURL))
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"data":{"a":1}}"#)
            #expect(server.requests.first?.headers["accept-encoding"] == "gzip, deflate")
        }
    }

    @Test("a URL's credentials go as Basic authentication; the request's own Authorization wins")
    func credentialsInTheURL() async throws {
        try await ScriptedHTTPServer.withRunning(answer: { _, _ in .json("{}") }) { server in
            let url = try #require(URL(string: "http://me:p%40ss@127.0.0.1:\(server.port)/graphql"))
            let transport = HTTPClientTransport(idleTimeout: patience)
            _ = try await transport.send(
                GraphQLHTTPRequest(url: url, body: Data("{}".utf8), timeout: patience))
            _ = try await transport.send(post(url))
            // "me:p@ss" in base64.
            #expect(
                server.requests.map(\.headers["authorization"]) == ["Basic bWU6cEBzcw==", "Bearer s3cret"])
        }
    }

    @Test("a URL that is not http or https fails with unsupportedURL, sending nothing")
    func unsupportedScheme() async throws {
        let url = try #require(URL(string: "ftp://127.0.0.1/graphql"))
        let error = await #expect(throws: URLError.self) {
            try await HTTPClientTransport(idleTimeout: patience).send(post(url))
        }
        #expect(error?.code == .unsupportedURL)
    }

    @Test("the client's and NIO's errors become URLSession's codes; the caller's cancellation stays one")
    func errorCodes() async throws {
        let url = try #require(URL(string: "http://127.0.0.1/graphql"))
        func code(_ error: any Error) -> URLError.Code? {
            (HTTPClientTransport.translate(error, url: url) as? URLError)?.code
        }
        #expect(code(HTTPClientError.readTimeout) == .timedOut)
        #expect(code(HTTPClientError.deadlineExceeded) == .timedOut)
        #expect(code(HTTPClientError.connectTimeout) == .timedOut)
        #expect(code(HTTPClientError.remoteConnectionClosed) == .networkConnectionLost)
        // The client's own cancellation of a request (an HTTP/2 connection that closed first) is
        // a lost connection, which `paging fetch` retries, not the caller's cancellation.
        #expect(code(HTTPClientError.cancelled) == .networkConnectionLost)
        #expect(code(HTTPParserError.invalidEOFState) == .networkConnectionLost)
        #expect(code(HTTPParserError.invalidStatus) == .badServerResponse)
        #expect(code(NIOSSLError.uncleanShutdown) == .networkConnectionLost)
        #expect(code(NIOHTTPDecompression.DecompressionError.limit) == .dataLengthExceedsMaximum)
        #expect(code(IOError(errnoCode: ECONNRESET, reason: "read")) == .networkConnectionLost)
        #expect(code(IOError(errnoCode: ECONNREFUSED, reason: "connect")) == .cannotConnectToHost)
        // The errno table Network.framework's errors go through on Apple platforms too.
        #expect(code(IOError(errnoCode: EHOSTUNREACH, reason: "connect")) == .cannotConnectToHost)
        #expect(code(IOError(errnoCode: ENETUNREACH, reason: "connect")) == .cannotConnectToHost)
        #expect(code(IOError(errnoCode: ETIMEDOUT, reason: "connect")) == .timedOut)
        let translated = HTTPClientTransport.translate(HTTPClientError.readTimeout, url: url) as? URLError
        #expect(translated?.failingURL == url)
        #expect(translated?.localizedDescription.contains("timed out") == true)

        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            return HTTPClientTransport.translate(HTTPClientError.readTimeout, url: url) is CancellationError
        }
        task.cancel()
        #expect(await task.value)
    }
}

/// The URLs a permits rule was asked about.
private final class AskedURLs: Sendable {
    private let storage = Locked<[URL]>([])
    var urls: [URL] { storage.withLock { $0 } }
    func append(_ url: URL) { storage.withLock { $0.append(url) } }
}
