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
        #expect(urlRequest.timeoutInterval == 2.5)
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
