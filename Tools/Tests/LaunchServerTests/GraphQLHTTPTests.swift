import Foundation
import Testing

@testable import LaunchServer

/// GraphQL over HTTP on loopback.
@Suite("GraphQL over HTTP")
struct GraphQLHTTPTests {
    @Test("POST answers application/json by default, the GraphQL media type when asked")
    func contentNegotiation() async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let plain = try await client.graphQL("{ launch(id: \"1\") { mission { name } } }")
            #expect(plain.status == 200)
            #expect(plain.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(plain.text == #"{"data":{"launch":{"mission":{"name":"FalconSat"}}}}"#)

            let typed = try await client.graphQL(
                "{ rockets { id } }", accept: "application/graphql-response+json, application/json;q=0.9")
            #expect(typed.status == 200)
            #expect(typed.header("Content-Type")?.hasPrefix("application/graphql-response+json") == true)
        }
    }

    @Test("a document that does not parse is 200 as application/json and 400 as graphql-response+json")
    func requestErrors() async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let plain = try await client.graphQL("{ launches( }")
            #expect(plain.status == 200)
            #expect(plain.text.contains("\"errors\""))
            let typed = try await client.graphQL("{ launches( }", accept: "application/graphql-response+json")
            #expect(typed.status == 400)
            let unknownField = try await client.graphQL(
                "{ spaceships { id } }", accept: "application/graphql-response+json")
            #expect(unknownField.status == 400)
        }
    }

    @Test("GET runs queries with variables and refuses mutations")
    func getRequests() async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let query = queryValue("query($id: ID!) { launch(id: $id) { id } }")
            let variables = queryValue(#"{"id": "42"}"#)
            let reply = try await client.send("GET", "/graphql?query=\(query)&variables=\(variables)")
            #expect(reply.status == 200)
            #expect(reply.text == #"{"data":{"launch":{"id":"42"}}}"#)

            let mutation = queryValue(#"mutation { cancelTrip(launchId: "1") { success } }"#)
            let refused = try await client.send("GET", "/graphql?query=\(mutation)")
            #expect(refused.status == 405)
            #expect(refused.header("Allow") == "POST")
        }
    }

    @Test("the index route lists the routes")
    func indexRoute() async throws {
        try await withLaunchServer { server in
            let reply = try await HTTPTestClient(baseURL: server.baseURL).send("GET", "/")
            #expect(reply.status == 200)
            #expect(reply.text.contains("/graphql"))
        }
    }
}
