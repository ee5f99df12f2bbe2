import Foundation
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

private struct LaunchListQuery: GraphQLOperation {
    struct Variables: Encodable, Sendable { var pageSize: Int; var after: String? }
    struct Data: Decodable, Sendable, Equatable {
        struct Launches: Decodable, Sendable, Equatable {
            var cursor: String; var hasMore: Bool; var launches: [Launch?]
        }
        struct Launch: Decodable, Sendable, Equatable { var id: String; var site: String? }
        var launches: Launches?
    }
    let document =
        "query LaunchList($pageSize: Int, $after: String) { launches(pageSize: $pageSize, after: $after) { cursor hasMore launches { id site } } }"
    var operationName: String? { "LaunchList" }
    var variables: Variables
}

@Suite("GraphQLClient")
struct GraphQLClientTests {
    @Test("POSTs the query, operation name and variables as JSON with the GraphQL-over-HTTP headers")
    func sendsTheRequestShape() async throws {
        let transport = ScriptedTransport([.response(.json(#"{"data":{"launches":null}}"#))])
        let client = GraphQLClient(endpoint: testEndpoint, timeout: .seconds(7), transport: transport)
        _ = try await client.send(LaunchListQuery(variables: .init(pageSize: 20, after: "c1")))

        let request = try #require(transport.requests.first)
        #expect(request.url == testEndpoint)
        #expect(request.method == "POST")
        #expect(request.timeout == .seconds(7))
        #expect(request.value(forHeader: "content-type") == "application/json")
        #expect(request.value(forHeader: "ACCEPT") == "application/graphql-response+json, application/json")
        let body = try JSONValue(json: request.body)
        #expect(body["query"]?.stringValue?.hasPrefix("query LaunchList") == true)
        #expect(body["operationName"] == "LaunchList")
        #expect(body["variables"] == ["pageSize": 20, "after": "c1"])
    }

    @Test("sends the client's headers and the call's headers, the call's winning whatever the case")
    func sendsCustomHeaders() async throws {
        let transport = ScriptedTransport([.response(.json(#"{"data":{}}"#))])
        let client = GraphQLClient(
            endpoint: testEndpoint,
            headers: ["Authorization": "Bearer old", "X-Client": "tests"],
            transport: transport
        )
        _ = try await client.send(
            UntypedOperation(document: "{ a }"),
            headers: ["authorization": "Bearer new", "Accept": "application/json"])

        let request = try #require(transport.requests.first)
        #expect(request.value(forHeader: "Authorization") == "Bearer new")
        #expect(request.headers.keys.filter { $0.lowercased() == "authorization" }.count == 1)
        #expect(request.value(forHeader: "x-client") == "tests")
        #expect(request.value(forHeader: "accept") == "application/json")
    }

    @Test("decodes typed data, skipping nothing the type keeps")
    func decodesTypedData() async throws {
        let transport = ScriptedTransport([
            .response(
                .json(
                    #"{"data":{"launches":{"cursor":"c2","hasMore":true,"launches":[{"id":"1","site":"KSC"},null]}}}"#
                ))
        ])
        let client = GraphQLClient(endpoint: testEndpoint, transport: transport)
        let response = try await client.send(LaunchListQuery(variables: .init(pageSize: 2, after: nil)))
        #expect(response.data?.launches?.cursor == "c2")
        #expect(response.data?.launches?.launches == [.init(id: "1", site: "KSC"), nil])
        #expect(response.errors.isEmpty)
        #expect(response.statusCode == 200)
        #expect(!response.hasPartialData)
        let body = try JSONValue(json: try #require(transport.requests.first).body)
        #expect(body["variables"] == ["pageSize": 2], "a nil variable is left out")
    }

    @Test("delivers partial data together with its errors")
    func deliversPartialData() async throws {
        let transport = ScriptedTransport([
            .response(
                .json(
                    #"""
                    {"data":{"launches":{"cursor":"c2","hasMore":false,"launches":[{"id":"1","site":null}]}},
                     "errors":[{"message":"Site unavailable","locations":[{"line":1,"column":90}],"path":["launches","launches",0,"site"],"extensions":{"code":"UPSTREAM"}}]}
                    """#))
        ])
        let client = GraphQLClient(endpoint: testEndpoint, transport: transport)
        let response = try await client.send(LaunchListQuery(variables: .init(pageSize: 1, after: nil)))

        #expect(response.hasPartialData)
        #expect(response.data?.launches?.launches.first??.id == "1")
        let error = try #require(response.errors.first)
        #expect(error.message == "Site unavailable")
        #expect(error.locations == [GraphQLResponseError.Location(line: 1, column: 90)])
        #expect(error.path == ["launches", "launches", 0, "site"])
        #expect(error.extensions?["code"] == "UPSTREAM")
        #expect(error.description == "Site unavailable (at launches.launches[0].site, line 1, column 90)")
    }

    @Test("returns untyped data as JSON values")
    func returnsUntypedData() async throws {
        let transport = ScriptedTransport([
            .response(.json(#"{"data":{"launches":{"hasMore":true}},"extensions":{"cost":3}}"#))
        ])
        let client = GraphQLClient(endpoint: testEndpoint, transport: transport)
        let response = try await client.send(
            UntypedOperation(document: "{ launches { hasMore } }", variables: ["x": [1, 2]]))
        #expect(response.data?[path: ["launches", "hasMore"]] == true)
        #expect(response.extensions?["cost"] == 3)
        let body = try JSONValue(json: try #require(transport.requests.first).body)
        #expect(body["variables"] == ["x": [1, 2]])
        #expect(body["operationName"] == nil)
    }

    @Test("keeps a non-2xx status when the body still carries data")
    func keepsStatusWithData() async throws {
        let transport = ScriptedTransport([
            .response(.json(#"{"data":{"a":1},"errors":[{"message":"partial"}]}"#, status: 500))
        ])
        let client = GraphQLClient(endpoint: testEndpoint, transport: transport)
        let response = try await client.send(UntypedOperation(document: "{ a }"))
        #expect(response.statusCode == 500)
        #expect(response.data == ["a": 1])
        #expect(response.errors.map(\.message) == ["partial"])
    }

    @Test("cancelling the calling task cancels the request and throws CancellationError")
    func cancellationCancelsTheRequest() async throws {
        let transport = ScriptedTransport([.gated(.json(#"{"data":{}}"#))])
        let client = GraphQLClient(endpoint: testEndpoint, transport: transport)
        let task = Task { try await client.send(UntypedOperation(document: "{ a }")) }
        await transport.waitForRequests(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.cancellations == 1)
    }

    @Test("a gated reply is delivered once released")
    func gatedReplyIsDelivered() async throws {
        let transport = ScriptedTransport([.gated(.json(#"{"data":{"a":1}}"#))])
        let client = GraphQLClient(endpoint: testEndpoint, transport: transport)
        let task = Task { try await client.send(UntypedOperation(document: "{ a }")) }
        await transport.waitForRequests(1)
        transport.release()
        #expect(try await task.value.data == ["a": 1])
        #expect(transport.cancellations == 0)
    }
}
