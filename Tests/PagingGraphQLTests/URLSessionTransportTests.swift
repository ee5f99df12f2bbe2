import Foundation
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
        .timeLimit(.minutes(1)))
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
        let server = try LoopbackHTTPServer(maximumRequests: 1) { _, _ in
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
        // would be none, and the request would fail at once.
        let response = try await client.send(UntypedOperation(document: "{ a }"))
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
}
