import Foundation
import Testing

@testable import PagingCLI

private let headers = CrossOriginScripts.headerArguments

/// A REST list of three pages: the first on the origin the export starts on, whose `Link`
/// header names the next page on another origin (`localhost` instead of `127.0.0.1`), where the
/// list goes on for one more page.
private func listAcrossOrigins(_ request: ReceivedRequest, port: Int) -> CannedResponse {
    switch request.query {
    case "page=2":
        return .json(#"[{"id": "3"}]"#, headers: ["Link": "</items?page=3>; rel=\"next\""])
    case "page=3":
        return .json(#"[{"id": "4"}]"#)
    default:
        return .json(
            #"[{"id": "1"}, {"id": "2"}]"#,
            headers: ["Link": "<http://localhost:\(port)/items?page=2>; rel=\"next\""])
    }
}

@Suite("paging fetch sends --header values only to the origin the export started on")
struct FetchHeaderScopeTests {
    @Test(
        "a Link to another origin is followed without the headers, and stderr says so once, naming the host")
    func linkToAnotherOrigin() async throws {
        try await ScriptedHTTPServer.withRunning(answer: listAcrossOrigins) { server in
            let run = await Command.run(
                ["fetch", "--rest", server.baseURL.absoluteString + "/items"] + headers)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(try ids(inJSONLines: run.standardOutput) == ["1", "2", "3", "4"])
            let requests = server.requests
            try #require(requests.count == 3)
            #expect(requests[0].authority == "127.0.0.1:\(server.port)")
            #expect(requests[0].headers["authorization"] == "Bearer s3cret-token")
            #expect(requests[0].headers["x-api-key"] == "k3y-value")
            for request in requests.dropFirst() {
                #expect(request.authority == "localhost:\(server.port)")
                #expect(request.headers["authorization"] == nil)
                #expect(request.headers["x-api-key"] == nil)
            }
            let notices = run.standardError.components(separatedBy: "not sent to").count - 1
            #expect(notices == 1, "\(run.standardError)")
            #expect(run.standardError.contains("http://localhost:\(server.port)"), "\(run.standardError)")
            #expect(run.standardError.contains("--send-headers-to-any-host"), "\(run.standardError)")
            #expect(!run.standardError.contains("s3cret-token"))
            #expect(!run.standardError.contains("k3y-value"))
        }
    }

    @Test("--send-headers-to-any-host sends the headers to every host the export visits")
    func sendHeadersToAnyHost() async throws {
        try await ScriptedHTTPServer.withRunning(answer: listAcrossOrigins) { server in
            let run = await Command.run(
                ["fetch", "--rest", server.baseURL.absoluteString + "/items", "--send-headers-to-any-host"]
                    + headers)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(server.requests.count == 3)
            #expect(server.requests.allSatisfy { $0.headers["authorization"] == "Bearer s3cret-token" })
            #expect(server.requests.allSatisfy { $0.headers["x-api-key"] == "k3y-value" })
            #expect(!run.standardError.contains("not sent to"), "\(run.standardError)")
        }
    }

    @Test("a GraphQL endpoint that redirects to another origin gets the request without the headers")
    func graphQLRedirectToAnotherOrigin() async throws {
        let moved = CrossOriginScripts.movedEndpoint(toOtherOrigin: true)
        try await ScriptedHTTPServer.withRunning(answer: moved) { server in
            let run = await Command.run(
                [
                    "fetch", "--endpoint", server.baseURL.absoluteString + "/graphql", "--query",
                    CrossOriginScripts.fleetsQuery,
                ]
                    + headers)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(try ids(inJSONLines: run.standardOutput) == ["1"])
            let requests = server.requests
            try #require(requests.count == 2)
            #expect(requests[0].headers["authorization"] == "Bearer s3cret-token")
            #expect(requests[1].path == "/moved")
            #expect(requests[1].headers["authorization"] == nil)
            #expect(requests[1].headers["x-api-key"] == nil)
            #expect(run.standardError.contains("http://localhost:\(server.port)"), "\(run.standardError)")
            #expect(!run.standardError.contains("s3cret-token"))
        }
    }

    @Test("a REST page that redirects to another origin is fetched there without the headers")
    func restRedirectToAnotherOrigin() async throws {
        try await ScriptedHTTPServer.withRunning(answer: { request, port in
            request.path == "/items"
                ? CannedResponse(
                    status: 302, headers: ["Location": "http://localhost:\(port)/copy"], body: Data())
                : .json(#"[{"id": "1"}]"#)
        }) { server in
            let run = await Command.run(
                ["fetch", "--rest", server.baseURL.absoluteString + "/items"] + headers)
            #expect(run.status == 0, "\(run.standardError)")
            let requests = server.requests
            try #require(requests.count == 2)
            #expect(requests[0].headers["authorization"] == "Bearer s3cret-token")
            #expect(requests[1].authority == "localhost:\(server.port)")
            #expect(requests[1].headers["authorization"] == nil)
            #expect(requests[1].headers["x-api-key"] == nil)
            #expect(
                run.standardError.contains("not sent to http://localhost:\(server.port)"),
                "\(run.standardError)")
        }
    }
}
