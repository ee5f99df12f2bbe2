import Foundation
import PagingLock
import PagingTestSupport
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLSessionTransport")
struct URLSessionTransportTests {
    @Test("turns a request into a URLRequest with its method, headers, body and timeout")
    func buildsTheURLRequest() {
        let request = GraphQLHTTPRequest(
            url: testEndpoint,
            headers: ["Authorization": "Bearer t", "Content-Type": "application/json"],
            body: Data("{}".utf8),
            timeout: .milliseconds(2500)
        )
        let urlRequest = URLSessionTransport.urlRequest(for: request)
        #expect(urlRequest.url == testEndpoint)
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(urlRequest.httpBody == Data("{}".utf8))
        #if canImport(FoundationNetworking)
            // FoundationNetworking waits whole seconds only: rounded up, never down.
            #expect(urlRequest.timeoutInterval == 3)
        #else
            #expect(urlRequest.timeoutInterval == 2.5)
        #endif
    }

    @Test(
        "the client's timeout, not the session's, ends a request the server never answers",
        .timeLimit(.minutes(HangLimit.minutes(1))))
    func requestTimeoutOutranksTheSessions() async throws {
        let listener = try LoopbackListener()  // accepts connections in its backlog, never answers
        defer { listener.close() }
        let configuration = URLSessionConfiguration.ephemeral
        // Far past the time limit: only the request's own timeout ends the request in time.
        configuration.timeoutIntervalForRequest = 600
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let client = GraphQLClient(
            endpoint: try #require(URL(string: "http://127.0.0.1:\(listener.port)/graphql")),
            timeout: .seconds(1), transport: URLSessionTransport(session: session))
        let error = try await #require(throws: GraphQLClientError.self) {
            try await client.send(UntypedOperation(document: "{ a }"))
        }
        #expect(error.code == .transport)
        #expect((error.underlyingError as? URLError)?.code == .timedOut)
    }

    @Test("a timeout under a second leaves a prompt answer the time to arrive")
    func subsecondTimeout() async throws {
        let server = try LoopbackHTTPServer(maximumRequests: 5) { _, _ in
            LoopbackHTTPServer.Response(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Data(#"{"data":{"a":1}}"#.utf8))
        }
        defer { server.close() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let client = GraphQLClient(
            endpoint: try #require(URL(string: "http://127.0.0.1:\(server.port)/graphql")),
            timeout: .milliseconds(500), transport: URLSessionTransport(session: session))
        // FoundationNetworking truncates a timeout to whole seconds: unrounded, half a second
        // would be none, and every request would fail at once. A second is short on a machine
        // slowed by a sanitizer and every other test, so up to five tries may be taken: one
        // answer is enough to show that the timeout was not none.
        var answer: GraphQLResponse<UntypedOperation.Data>?
        var failures: [any Error] = []
        for _ in 0..<5 where answer == nil {
            do { answer = try await client.send(UntypedOperation(document: "{ a }")) } catch {
                failures.append(error)
            }
        }
        let response = try #require(answer, "every try failed: \(failures)")
        #expect(response.data?["a"] == 1)
        #if canImport(FoundationNetworking)
            #expect(URLSessionTransport.timeoutInterval(.milliseconds(500)) == 1)
        #else
            #expect(URLSessionTransport.timeoutInterval(.milliseconds(500)) == 0.5)
        #endif
    }

    @Test("a refused connection on loopback is a transport error")
    func refusedConnection() async throws {
        let listener = try LoopbackListener()
        let port = listener.port
        listener.close()  // nothing listens on the port any more
        let client = GraphQLClient(
            endpoint: URL(string: "http://127.0.0.1:\(port)/graphql")!, timeout: .seconds(10))
        await #expect {
            _ = try await client.send(UntypedOperation(document: "{ a }"))
        } throws: { error in
            (error as? GraphQLClientError)?.code == .transport
        }
    }

    @Test("cancelling the task cancels a request the server never answers")
    func cancelsAHangingRequest() async throws {
        let listener = try LoopbackListener()  // accepts connections in its backlog, never answers
        defer { listener.close() }
        let transport = URLSessionTransport(session: URLSession(configuration: .ephemeral))
        let request = GraphQLHTTPRequest(
            url: URL(string: "http://127.0.0.1:\(listener.port)/graphql")!,
            body: Data("{}".utf8),
            timeout: .seconds(600)
        )
        let task = Task { try await transport.send(request) }
        try await listener.waitForConnection()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    /// A GraphQL response of `count` bytes: `{"data":{"a":"xxx…"}}`.
    private static func body(ofSize count: Int) -> Data {
        let frame = #"{"data":{"a":""}}"#
        return Data(
            (#"{"data":{"a":""# + String(repeating: "x", count: count - frame.utf8.count) + #""}}"#).utf8)
    }

    /// Sends one request to a server that answers `response`, through a transport with `limit`.
    /// - Parameter server: the server used, for the caller to question.
    private static func send(
        _ response: LoopbackHTTPServer.Response, limit: Int?,
        session: URLSession = URLSession(configuration: .ephemeral), timeout: Duration = .seconds(30),
        server: ((LoopbackHTTPServer) async -> Void)? = nil
    ) async throws -> GraphQLHTTPResponse {
        let loopback = try LoopbackHTTPServer(maximumRequests: 1) { _, _ in response }
        defer { loopback.close() }
        defer { session.finishTasksAndInvalidate() }
        let transport = URLSessionTransport(session: session, maximumResponseSize: limit)
        do {
            let answer = try await transport.send(
                GraphQLHTTPRequest(
                    url: try #require(URL(string: "http://127.0.0.1:\(loopback.port)/graphql")),
                    body: Data("{}".utf8), timeout: timeout))
            await server?(loopback)
            return answer
        } catch {
            await server?(loopback)
            throw error
        }
    }

    @Test(
        "a body over the limit fails with dataLengthExceedsMaximum and is not read on, announced or not",
        arguments: [true, false])
    func responseOverTheLimit(announced: Bool) async throws {
        // The server writes 256 KiB of a 64 MiB body, then waits for the client to hang up: a
        // transport that reads on waits for the rest instead, and the server gives up after its
        // two minutes. The request's own timeout is longer, so that a transport that reads on
        // cannot pass by hanging up at its timeout. (A 10-second wait was too short for the
        // client to hang up under AddressSanitizer with every test running at once.)
        let response = LoopbackHTTPServer.Response(
            status: 200, headers: ["Content-Type": "application/json"], body: Self.body(ofSize: 64 << 20),
            announcesLength: announced, stopsAfter: 256 << 10)
        let hungUp = Lock<Bool?>(nil)
        let error = try await #require(throws: URLError.self) {
            try await Self.send(response, limit: 64 << 10, timeout: .seconds(600)) { server in
                let early = await server.clientHungUpEarly(onAnswer: 1)
                hungUp.withLock { $0 = early }
            }
        }
        #expect(error.code == .dataLengthExceedsMaximum)
        #expect(error.localizedDescription.contains("limit of 65536 bytes"))
        #expect(hungUp.withLock { $0 } == true, "the transport read on past its limit")
    }

    @Test("a body up to the limit arrives whole; with no limit, any size does")
    func responseWithinTheLimit() async throws {
        let exact = Self.body(ofSize: 64 << 10)
        for announced in [true, false] {
            let response = LoopbackHTTPServer.Response(status: 200, body: exact, announcesLength: announced)
            #expect(try await Self.send(response, limit: exact.count).body == exact)
        }
        let large = Self.body(ofSize: 4 << 20)
        let unlimited = try await Self.send(LoopbackHTTPServer.Response(status: 200, body: large), limit: nil)
        #expect(unlimited.body == large)
        #expect(URLSessionTransport(session: .shared).maximumResponseSize == 64 << 20)
    }

    @Test("the client reports a body over the limit as a transport error")
    func clientSeesTheLimit() async throws {
        let server = try LoopbackHTTPServer(maximumRequests: 1) { _, _ in
            LoopbackHTTPServer.Response(status: 200, body: Self.body(ofSize: 8 << 10))
        }
        defer { server.close() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let client = GraphQLClient(
            endpoint: try #require(URL(string: "http://127.0.0.1:\(server.port)/graphql")),
            transport: URLSessionTransport(session: session, maximumResponseSize: 1024))
        let error = try await #require(throws: GraphQLClientError.self) {
            try await client.send(UntypedOperation(document: "{ a }"))
        }
        #expect(error.code == .transport)
        #expect((error.underlyingError as? URLError)?.code == .dataLengthExceedsMaximum)
        #expect(error.message.contains("is larger than the transport accepts"))
        #expect(error.message.contains("maximumResponseSize"))
    }

    /// A session delegate of the app's own, which the transport must leave in charge.
    private final class AppDelegate: NSObject, URLSessionDataDelegate, Sendable {}

    @Test("in a session with a delegate of its own, the limit is checked once the body has arrived")
    func limitWithTheSessionsDelegate() async throws {
        let session = URLSession(configuration: .ephemeral, delegate: AppDelegate(), delegateQueue: nil)
        let over = LoopbackHTTPServer.Response(status: 200, body: Self.body(ofSize: 16 << 10))
        let error = try await #require(throws: URLError.self) {
            try await Self.send(over, limit: 8 << 10, session: session)
        }
        #expect(error.code == .dataLengthExceedsMaximum)
        let within = LoopbackHTTPServer.Response(status: 200, body: Self.body(ofSize: 8 << 10))
        let other = URLSession(configuration: .ephemeral, delegate: AppDelegate(), delegateQueue: nil)
        #expect(try await Self.send(within, limit: 8 << 10, session: other).body.count == 8 << 10)
    }

    @Test("transports over URLSession.shared share one reading session; others each have their own")
    func readingSessions() {
        let first = URLSessionTransport()
        let second = URLSessionTransport(session: .shared, maximumResponseSize: 1024)
        #expect(first.reading != nil)
        #expect(first.reading === second.reading)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let own = URLSessionTransport(session: session)
        #expect(own.reading != nil && own.reading !== first.reading)
        let delegated = URLSession(configuration: .ephemeral, delegate: AppDelegate(), delegateQueue: nil)
        defer { delegated.finishTasksAndInvalidate() }
        #expect(URLSessionTransport(session: delegated).reading == nil)
    }

    @Test("a status and header fields arrive with the body read by the transport itself")
    func responseFields() async throws {
        let response = LoopbackHTTPServer.Response(
            status: 429, headers: ["Retry-After": "7", "Content-Type": "text/plain"], body: Data("slow".utf8))
        let answer = try await Self.send(response, limit: 1024)
        #expect(answer.statusCode == 429)
        #expect(answer.value(forHeader: "retry-after") == "7")
        #expect(answer.retryAfter() == .seconds(7))
        #expect(answer.body == Data("slow".utf8))
    }
}
