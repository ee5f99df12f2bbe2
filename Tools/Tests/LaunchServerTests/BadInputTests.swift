import Foundation
import Testing

@testable import LaunchServer

/// Every bad input of issue 4 gets a clear error, over loopback HTTP, and the server keeps
/// serving afterwards.
@Suite("Bad input")
struct BadInputTests {
    struct GraphQLBody: Decodable {
        let errors: [GraphQLErrorBody]?
    }

    /// A GraphQL document that must fail with an error naming `argument`.
    struct ArgumentCase: Sendable, CustomStringConvertible {
        let query: String
        let argument: String
        let phrase: String
        var description: String { query }
    }

    static let truncated = String(
        LaunchCursor.encode(KeysetPosition(date: 1_597_761_060, id: 100)).dropLast(4))
    static let forged = Data("v1:1597761060:100:deadbeef".utf8).base64EncodedString()

    static let argumentCases: [ArgumentCase] = [
        ArgumentCase(
            query: "{ launchConnection(first: -1) { totalCount } }", argument: "first",
            phrase: "between 0 and 100"),
        ArgumentCase(
            query: "{ launchConnection(first: 101) { totalCount } }", argument: "first",
            phrase: "limit of 100"),
        ArgumentCase(
            query: "{ launchConnection(last: -3) { totalCount } }", argument: "last",
            phrase: "between 0 and 100"),
        ArgumentCase(
            query: "{ launchConnection(last: 5000) { totalCount } }", argument: "last", phrase: "limit of 100"
        ),
        ArgumentCase(
            query: "{ launchConnection(first: 1, last: 1) { totalCount } }", argument: "first",
            phrase: "both `first` and `last`"),
        ArgumentCase(
            query: "{ launchConnection { totalCount } }", argument: "first",
            phrase: "must provide a `first` or `last`"),
        ArgumentCase(
            query: "{ launchConnection(first: 1, after: \"garbage!\") { totalCount } }", argument: "after",
            phrase: "not a valid cursor"),
        ArgumentCase(
            query: "{ launchConnection(last: 1, before: \"\(truncated)\") { totalCount } }",
            argument: "before", phrase: "not a valid cursor"),
        ArgumentCase(
            query: "{ launchConnection(first: 1, after: \"\(forged)\") { totalCount } }", argument: "after",
            phrase: "integrity check"),
        ArgumentCase(
            query: "{ launches(pageSize: -5) { cursor } }", argument: "pageSize", phrase: "between 0 and 100"),
        ArgumentCase(
            query: "{ launches(pageSize: 1000) { cursor } }", argument: "pageSize",
            phrase: "between 0 and 100"),
        ArgumentCase(
            query: "{ launches(after: \"1143239400\") { cursor } }", argument: "after",
            phrase: "not a valid cursor"),
        ArgumentCase(
            query: "{ rocket(id: \"falcon9\") { launches(first: 200) { totalCount } } }", argument: "first",
            phrase: "limit of 100"),
    ]

    @Test("bad GraphQL arguments get an error naming the argument", arguments: argumentCases)
    func badArguments(_ testCase: ArgumentCase) async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let reply = try await client.graphQL(testCase.query)
            #expect(reply.status == 200)
            let body = try JSONDecoder().decode(GraphQLBody.self, from: reply.body)
            let error = try #require(body.errors?.first)
            #expect(error.extensions?["argument"] == testCase.argument)
            #expect(error.extensions?["code"] == "BAD_USER_INPUT")
            #expect(error.message.contains(testCase.phrase), "\(error.message)")
            #expect(error.message.contains("`\(testCase.argument)`"), "\(error.message)")
            try await expectStillServing(client)
        }
    }

    @Test("wrong argument types are GraphQL validation errors")
    func wrongTypes() async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            for query in [
                "{ launchConnection(first: \"ten\") { totalCount } }",
                "{ launches(pageSize: 2.5) { cursor } }",
                "{ launch(id: true) { id } }",
            ] {
                let reply = try await client.graphQL(query)
                let body = try JSONDecoder().decode(GraphQLBody.self, from: reply.body)
                #expect(body.errors?.isEmpty == false, "\(query)")
            }
            let variables = try await client.graphQL(
                "query($n: Int) { launchConnection(first: $n) { totalCount } }", variables: ["n": "many"])
            #expect(
                try JSONDecoder().decode(GraphQLBody.self, from: variables.body).errors?.first?.message
                    .contains("$n") == true)
            try await expectStillServing(client)
        }
    }

    /// A raw HTTP request that must be refused with a status and a phrase in its message.
    struct HTTPCase: Sendable, CustomStringConvertible {
        let method: String
        let path: String
        let body: String?
        let status: Int
        let phrase: String
        var description: String { "\(method) \(path) \(body ?? "")" }
    }

    static let httpCases: [HTTPCase] = [
        HTTPCase(method: "POST", path: "/graphql", body: "{not json", status: 400, phrase: "not valid JSON"),
        HTTPCase(method: "POST", path: "/graphql", body: "[1, 2]", status: 400, phrase: "JSON object"),
        HTTPCase(
            method: "POST", path: "/graphql", body: "{\"variables\": {}}", status: 400, phrase: "`query`"),
        HTTPCase(method: "POST", path: "/graphql", body: "{\"query\": 5}", status: 400, phrase: "`query`"),
        HTTPCase(
            method: "POST", path: "/graphql", body: "{\"query\": \"{ rockets { id } }\", \"variables\": [1]}",
            status: 400, phrase: "`variables`"),
        HTTPCase(method: "POST", path: "/graphql", body: "", status: 400, phrase: "not valid JSON"),
        // 513 unclosed brackets: Foundation's JSONDecoder traps on exactly these (found by fuzzing),
        // which stopped the server; they are refused as any other text that is not JSON.
        HTTPCase(
            method: "POST", path: "/graphql", body: String(repeating: "[", count: 513), status: 400,
            phrase: "not valid JSON"),
        HTTPCase(
            method: "GET", path: "/graphql?query=%7Bx%7D&variables=" + String(repeating: "%5B", count: 513),
            body: nil, status: 400, phrase: "`variables` parameter is not valid JSON"),
        HTTPCase(
            method: "GET", path: "/timeline.json?orderBy=" + String(repeating: "%5B", count: 513), body: nil,
            status: 400, phrase: "valid JSON encoded path"),
        HTTPCase(method: "GET", path: "/graphql", body: nil, status: 400, phrase: "`query` parameter"),
        HTTPCase(method: "DELETE", path: "/graphql", body: nil, status: 405, phrase: "GET and POST"),
        HTTPCase(method: "GET", path: "/nowhere", body: nil, status: 404, phrase: "No route"),
        HTTPCase(method: "GET", path: "/api/launches/7", body: nil, status: 404, phrase: "No route"),
        HTTPCase(method: "POST", path: "/api/launches", body: "{}", status: 405, phrase: "accepts GET"),
        HTTPCase(
            method: "GET", path: "/api/launches?per_page=0", body: nil, status: 400,
            phrase: "per_page must be between 1 and 100"),
        HTTPCase(
            method: "GET", path: "/api/launches?per_page=101", body: nil, status: 400,
            phrase: "per_page must be between 1 and 100"),
        HTTPCase(
            method: "GET", path: "/api/launches?per_page=-4", body: nil, status: 400, phrase: "per_page"),
        HTTPCase(
            method: "GET", path: "/api/launches?per_page=ten", body: nil, status: 400, phrase: "whole number"),
        HTTPCase(
            method: "GET", path: "/api/launches?page=0", body: nil, status: 400,
            phrase: "page must be 1 or more"),
        HTTPCase(
            method: "GET", path: "/timeline.json?limitToLast=5", body: nil, status: 400,
            phrase: "orderBy must be defined"),
        HTTPCase(
            method: "GET", path: "/timeline.json?orderBy=$key&limitToLast=5", body: nil, status: 400,
            phrase: "valid JSON encoded path"),
        HTTPCase(
            method: "GET", path: "/timeline.json?orderBy=%22$value%22", body: nil, status: 400,
            phrase: "not supported"),
        HTTPCase(
            method: "GET", path: "/timeline.json?orderBy=%22$key%22&limitToLast=0", body: nil, status: 400,
            phrase: "positive integer"),
        HTTPCase(
            method: "GET", path: "/timeline.json?orderBy=%22$key%22&limitToLast=-2", body: nil, status: 400,
            phrase: "positive integer"),
        HTTPCase(
            method: "GET", path: "/timeline.json?orderBy=%22$key%22&limitToLast=abc", body: nil, status: 400,
            phrase: "positive integer"),
        HTTPCase(
            method: "GET", path: "/timeline.json?orderBy=%22$key%22&limitToLast=5000", body: nil, status: 400,
            phrase: "at most 1000"),
        HTTPCase(
            method: "GET", path: "/timeline.json?orderBy=%22$key%22&limitToFirst=1&limitToLast=1", body: nil,
            status: 400, phrase: "cannot both"),
        HTTPCase(
            method: "GET", path: "/timeline.json?orderBy=%22$key%22&endAt=-Mabc", body: nil, status: 400,
            phrase: "double quotes"),
        HTTPCase(
            method: "GET", path: "/timeline.json?orderBy=%22$key%22&endAt=5", body: nil, status: 400,
            phrase: "must be a JSON string"),
        HTTPCase(method: "POST", path: "/timeline.json", body: "{}", status: 405, phrase: "accepts GET"),
    ]

    @Test("bad HTTP requests get a clear JSON error with the right status", arguments: httpCases)
    func badRequests(_ testCase: HTTPCase) async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let reply = try await client.send(
                testCase.method, testCase.path, headers: ["Content-Type": "application/json"],
                body: testCase.body.map { Data($0.utf8) })
            #expect(reply.status == testCase.status, "\(reply.text)")
            #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
            let message =
                reply.errorMessage
                ?? (try? JSONDecoder().decode(GraphQLBody.self, from: reply.body))?.errors?.first?.message
            #expect(message?.contains(testCase.phrase) == true, "\(reply.text)")
            try await expectStillServing(client)
        }
    }

    @Test("a body over the size limit gets 413, and the server keeps serving")
    func oversizeBody() async throws {
        try await withLaunchServer({ $0.maximumBodySize = 1_024 }) { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let padding = String(repeating: " ", count: 4_096)
            let reply = try await client.send(
                "POST", "/graphql", headers: ["Content-Type": "application/json"],
                body: Data("{\"query\": \"{ rockets { id } }\(padding)\"}".utf8))
            #expect(reply.status == 413)
            #expect(reply.text.contains("larger than this server accepts (1024 bytes)"))
            try await expectStillServing(client)
        }
    }

    /// GraphQLSwift's lexer stops the process on a `\u` escape cut off by the end of the
    /// document: one such request used to stop the server.
    @Test(
        "a query that ends inside a \\u escape is a syntax error, by POST and by GET, and the server keeps serving",
        arguments: [#"{ launch(id: "\u"#, #"{ launch(id: "\u12"#, #"{ launch(id: "x\\\uuu"#])
    func cutOffEscape(query: String) async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let posted = try await client.graphQL(query)
            let encoded = try #require(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let got = try await client.send("GET", "/graphql?query=\(encoded)")
            for reply in [posted, got] {
                let errors = try JSONDecoder().decode(GraphQLBody.self, from: reply.body).errors ?? []
                #expect(errors.first?.message.contains("Syntax Error") == true, "\(reply.text)")
            }
            try await expectStillServing(client)
        }
    }

    /// GraphQLSwift hashes operations by identity but compares them by content, and its
    /// validation keys dictionaries by them: a document with two equal operations could stop the
    /// process ("Duplicate keys of type 'OperationDefinition'"), depending on the hash seed. A
    /// hundred copies of an operation, anonymous or named, made that happen without the server's
    /// check. Repeated fragments cannot trap (the validation keeps fragments by name); they are
    /// here for the same answer. Each case is invalid by a rule of the spec, and gets that
    /// rule's errors.
    @Test(
        "a document with repeated definitions gets the spec's error, and the server keeps serving",
        arguments: [
            (
                String(repeating: "{ rockets { id } } ", count: 100),
                "This anonymous operation must be the only defined operation.", 100
            ),
            (
                String(repeating: "query Rockets { rockets { id } } ", count: 100),
                #"There can be only one operation named "Rockets"."#, 99
            ),
            (
                "{ rockets { ...Id } } "
                    + String(repeating: "fragment Id on Rocket { id } ", count: 100),
                #"There can be only one fragment named "Id"."#, 99
            ),
        ])
    func repeatedDefinitions(query: String, message: String, count: Int) async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let reply = try await client.graphQL(query)
            let errors = try JSONDecoder().decode(GraphQLBody.self, from: reply.body).errors ?? []
            #expect(errors.count == count, "\(reply.text.prefix(300))")
            #expect(errors.allSatisfy { $0.message == message }, "\(reply.text.prefix(300))")
            try await expectStillServing(client)
        }
    }

    /// A normal request still succeeds.
    func expectStillServing(_ client: HTTPTestClient) async throws {
        let reply = try await client.graphQL("{ launches(pageSize: 1) { hasMore } }")
        #expect(reply.status == 200)
        #expect(reply.text == #"{"data":{"launches":{"hasMore":true}}}"#)
    }
}
