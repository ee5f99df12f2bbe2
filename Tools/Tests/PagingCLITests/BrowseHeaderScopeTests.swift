import Foundation
import Testing

@testable import PagingCLI

/// `paging browse` without a terminal, on a scripted endpoint, with the secret header fields.
private func browse(_ server: ScriptedHTTPServer) async -> CommandRun {
    await Command.run(
        [
            "browse", "--endpoint", server.baseURL.absoluteString + "/graphql", "--query",
            CrossOriginScripts.fleetsQuery,
        ] + CrossOriginScripts.headerArguments)
}

@Suite("paging browse sends --header values only to the endpoint's origin")
struct BrowseHeaderScopeTests {
    @Test(
        "an endpoint that redirects to another origin gets the request there without the headers, and stderr says so once"
    )
    func redirectToAnotherOrigin() async throws {
        let moved = CrossOriginScripts.movedEndpoint(toOtherOrigin: true)
        try await ScriptedHTTPServer.withRunning(answer: moved) { server in
            let run = await browse(server)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.outputLines == ["Page 1: nodes 1–1", "  id: 1", "All 1 nodes loaded."])
            let requests = server.requests
            try #require(requests.count == 2)
            #expect(requests[0].authority == "127.0.0.1:\(server.port)")
            #expect(requests[0].headers["authorization"] == "Bearer s3cret-token")
            #expect(requests[0].headers["x-api-key"] == "k3y-value")
            #expect(requests[1].authority == "localhost:\(server.port)")
            #expect(requests[1].path == "/moved")
            #expect(requests[1].headers["authorization"] == nil)
            #expect(requests[1].headers["x-api-key"] == nil)
            let notices = run.standardError.components(separatedBy: "not sent to").count - 1
            #expect(notices == 1, "\(run.standardError)")
            #expect(
                run.standardError.contains("not sent to http://localhost:\(server.port)"),
                "\(run.standardError)")
            #expect(!run.standardError.contains("--send-headers-to-any-host"), "browse has no such option")
            #expect(!run.standardError.contains("s3cret-token"))
            #expect(!run.standardError.contains("k3y-value"))
        }
    }

    @Test("an endpoint that redirects within its own origin gets the request there with the headers")
    func redirectWithinTheOrigin() async throws {
        let moved = CrossOriginScripts.movedEndpoint(toOtherOrigin: false)
        try await ScriptedHTTPServer.withRunning(answer: moved) { server in
            let run = await browse(server)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.outputLines.last == "All 1 nodes loaded.")
            let requests = server.requests
            try #require(requests.count == 2)
            #expect(requests[1].authority == "127.0.0.1:\(server.port)")
            #expect(requests[1].path == "/moved")
            #expect(requests[1].headers["authorization"] == "Bearer s3cret-token")
            #expect(requests[1].headers["x-api-key"] == "k3y-value")
            #expect(!run.standardError.contains("not sent to"), "\(run.standardError)")
        }
    }

    @Test(
        "the help of browse and fetch says the headers go to the endpoint's origin only",
        arguments: ["browse", "fetch"])
    func helpSaysWhereTheHeadersGo(command: String) async {
        let run = await Command.run([command, "--help"])
        #expect(run.status == 0)
        // The help is wrapped to the terminal's width: compare it as one line.
        let help = run.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!help.contains("every request"))
        #expect(help.contains("It goes only to the endpoint's origin (scheme, host and port"))
        #expect(
            help.contains("a redirect or a next page on another origin is asked for without it"))
        #expect(help.contains("unless fetch --send-headers-to-any-host"))
    }
}
