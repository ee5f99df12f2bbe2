import Foundation
import LaunchServer
import PagingTesting
import Testing

@testable import PagingCLI

@Suite("paging fetch against the launch server")
struct FetchCommandTests {
    @Test("exports every launch exactly once, in order, paging forward")
    func forward() async throws {
        try await withLaunchServer { server in
            let expected = try await allLaunchIDs(server)
            let run = await Command.run([
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                "--page-size", "7",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(expected.count == 100)
            #expect(try ids(inJSONLines: run.standardOutput) == expected)
        }
    }

    @Test("exports every launch exactly once, last first, paging backward with --last")
    func backward() async throws {
        try await withLaunchServer { server in
            let expected = try await allLaunchIDs(server)
            let run = await Command.run([
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                "--page-size", "9", "--last",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(try ids(inJSONLines: run.standardOutput) == Array(expected.reversed()))
        }
    }

    @Test("a query without @connection pages through its first/after variables and pageInfo")
    func withoutConnectionDirective() async throws {
        try await withLaunchServer { server in
            let query =
                "query($first: Int, $after: String) { launchConnection(first: $first, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }"
            let run = await Command.run([
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", query, "--page-size",
                "30",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            let expectedIDs = try await allLaunchIDs(server)
            #expect(try ids(inJSONLines: run.standardOutput) == expectedIDs)
        }
    }

    @Test("--slurp writes one JSON array of every node")
    func slurp() async throws {
        try await withLaunchServer { server in
            let run = await Command.run([
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                "--slurp",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            let array =
                try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [[String: Any]]
            let expectedIDs = try await allLaunchIDs(server)
            #expect(array?.compactMap { $0["id"] as? String } == expectedIDs)
        }
    }

    @Test("transient failures are retried with backoff to the same result")
    func retriesInjectedFailures() async throws {
        try await withLaunchServer({ configuration in
            configuration.faults = FaultInjection(rate: 0.3, kinds: [.httpError, .droppedConnection])
            configuration.seed = 7
        }) { server in
            let sleeps = Recorder<Duration>()
            let run = await Command.run(
                [
                    "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                    "--page-size", "10", "--retries", "8",
                ], sleep: sleeps)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardError.contains("retrying in"))
            #expect(!sleeps.recorded.isEmpty)
            #expect(sleeps.recorded.allSatisfy { $0 >= .milliseconds(500) && $0 <= .seconds(30) })
            // The fault injector's answers interleave with allLaunchIDs's request; ask after.
            let exported = try ids(inJSONLines: run.standardOutput)
            #expect(exported.count == 100)
            #expect(Set(exported).count == 100)
        }
    }

    @Test("--max-pages stops with a cursor, and --resume exports the rest with nothing lost or repeated")
    func resumeAfterMaxPages() async throws {
        try await withLaunchServer { server in
            let arguments = [
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                "--page-size", "15",
            ]
            let first = await Command.run(arguments + ["--max-pages", "3"])
            #expect(first.status == 0, "\(first.standardError)")
            #expect(first.standardError.contains("stopped after 45 items in 3 pages"))
            let cursor = try #require(first.resumeCursor)
            let second = await Command.run(arguments + ["--resume", cursor])
            #expect(second.status == 0, "\(second.standardError)")
            let all = try ids(inJSONLines: first.standardOutput) + ids(inJSONLines: second.standardOutput)
            let expectedIDs = try await allLaunchIDs(server)
            #expect(all == expectedIDs)
        }
    }

    @Test("--max-items stops inside the list, and --resume continues after the last item written")
    func resumeAfterMaxItems() async throws {
        try await withLaunchServer { server in
            let arguments = [
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                "--page-size", "20", "--last",
            ]
            let first = await Command.run(arguments + ["--max-items", "33"])
            #expect(first.status == 0, "\(first.standardError)")
            #expect(try ids(inJSONLines: first.standardOutput).count == 33)
            let cursor = try #require(first.resumeCursor)
            let second = await Command.run(arguments + ["--resume", cursor])
            let all = try ids(inJSONLines: first.standardOutput) + ids(inJSONLines: second.standardOutput)
            let expectedIDs = try await allLaunchIDs(server)
            #expect(all == expectedIDs.reversed())
        }
    }

    @Test("a final failure prints the cursor, exits 1, and --resume finishes the export")
    func resumeAfterFailure() async throws {
        try await withLaunchServer({ configuration in
            configuration.faults = FaultInjection(rate: 0.25, kinds: [.httpError])
            configuration.seed = 3
        }) { server in
            let arguments = [
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                "--page-size", "10",
            ]
            var exported: [String] = []
            var runs: [CommandRun] = []
            var cursor: String?
            // Without retries, the seeded faults stop the export; each run resumes where the last stopped.
            for _ in 0..<40 {
                let run = await Command.run(
                    arguments + ["--retries", "0"] + (cursor.map { ["--resume", $0] } ?? []))
                runs.append(run)
                exported += try ids(inJSONLines: run.standardOutput)
                if run.status == 0 { break }
                #expect(run.status == 1)
                #expect(run.standardError.contains("HTTP 500"))
                cursor = run.resumeCursor ?? cursor
            }
            #expect(runs.contains { $0.status == 1 && $0.resumeCursor != nil })
            #expect(runs.last?.status == 0)
            #expect(exported.count == 100)
            #expect(Set(exported).count == 100)
        }
    }

    @Test("an interruption prints the cursor and exits 130")
    func interruption() async throws {
        try await withLaunchServer { server in
            let run = await Command.run(
                [
                    "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                ], interrupt: { handler in handler() })
            #expect(run.status == 130)
            #expect(run.standardError.contains("interrupted after"))
        }
    }

    @Test("the REST list is exported by following its Link headers")
    func restLinkHeaders() async throws {
        try await withLaunchServer { server in
            let url = server.baseURL.absoluteString + "/api/launches?per_page=13"
            let run = await Command.run(["fetch", "--rest", url])
            #expect(run.status == 0, "\(run.standardError)")
            let expectedIDs = try await allLaunchIDs(server)
            #expect(try ids(inJSONLines: run.standardOutput) == expectedIDs)
        }
    }

    @Test("the REST list resumes after --max-items stopped inside a page")
    func restResume() async throws {
        try await withLaunchServer { server in
            let arguments = [
                "fetch", "--rest", server.baseURL.absoluteString + "/api/launches", "--page-size", "8",
            ]
            let first = await Command.run(arguments + ["--max-items", "21"])
            let cursor = try #require(first.resumeCursor)
            let second = await Command.run(arguments + ["--resume", cursor])
            #expect(second.status == 0, "\(second.standardError)")
            let all = try ids(inJSONLines: first.standardOutput) + ids(inJSONLines: second.standardOutput)
            let expectedIDs = try await allLaunchIDs(server)
            #expect(all == expectedIDs)
        }
    }

    @Test("--output writes to a file, and a resumed export appends to it")
    func outputFile() async throws {
        try await withLaunchServer { server in
            let folder = try makeScratchFolder("paging-fetch")
            defer { removeScratchFolder(folder) }
            let path = folder.appendingPathComponent("launches.jsonl").path
            let arguments = [
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                "-o", path,
            ]
            let first = await Command.run(arguments + ["--max-pages", "1"])
            #expect(first.standardOutput.isEmpty)
            let cursor = try #require(first.resumeCursor)
            let second = await Command.run(arguments + ["--resume", cursor])
            #expect(second.status == 0, "\(second.standardError)")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let expectedIDs = try await allLaunchIDs(server)
            #expect(try ids(inJSONLines: text) == expectedIDs)
        }
    }
}

@Suite("paging fetch failures")
struct FetchFailureTests {
    @Test(
        "bad arguments exit 2 with a message saying what to do",
        arguments: [
            (["fetch"], "--endpoint"),
            (["fetch", "--endpoint", "http://127.0.0.1:1/graphql"], "--query"),
            (["fetch", "--endpoint", "not a url", "--query", "{ a }"], "is not an http or https URL"),
            (
                [
                    "fetch", "--endpoint", "http://127.0.0.1:1/graphql", "--query", "q.graphql",
                    "--page-size", "0",
                ], "--page-size"
            ),
            (
                [
                    "fetch", "--endpoint", "http://127.0.0.1:1/g", "--query", launchConnectionQuery,
                    "--variables", "[1]",
                ], "JSON object"
            ),
            (
                [
                    "fetch", "--endpoint", "http://127.0.0.1:1/g", "--query", launchConnectionQuery,
                    "--header", "NoColon",
                ], "Name: value"
            ),
            (
                ["fetch", "--endpoint", "http://127.0.0.1:1/g", "--query", "/no/such/file.graphql"],
                "cannot read the query file"
            ),
            (["fetch", "--rest", "http://127.0.0.1:1/api", "--last"], "REST list pages forward only"),
            (
                ["fetch", "--rest", "http://127.0.0.1:1/api", "--allow-partial"],
                "--allow-partial is for GraphQL"
            ),
            (["fetch", "--rest", "http://127.0.0.1:1/api", "--frobnicate"], "Unknown option"),
        ])
    func badArguments(arguments: [String], message: String) async {
        let run = await Command.run(arguments)
        #expect(run.status == 2)
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }

    @Test("a document that cannot be paged exits 2 and says how to mark the connection")
    func unpageableDocument() async {
        let run = await Command.run([
            "fetch", "--endpoint", "http://127.0.0.1:1/graphql", "--query",
            "query { launches { cursor hasMore } }",
        ])
        #expect(run.status == 2)
        #expect(run.standardError.contains("cannot be paged"))
        #expect(run.standardError.contains("@connection"))
    }

    @Test("a syntax error in the document exits 2 naming the line")
    func syntaxError() async {
        let run = await Command.run([
            "fetch", "--endpoint", "http://127.0.0.1:1/graphql", "--query", "query { a( }",
        ])
        #expect(run.status == 2)
        #expect(run.standardError.contains("cannot be paged"))
    }

    @Test(
        "a document that ends inside a \\u escape exits 2 with a syntax error, not a stopped process",
        arguments: [#"query { launches(after: "\u"#, #"query { launches(after: "\u12"#])
    func cutOffEscape(query: String) async {
        let run = await Command.run(["fetch", "--endpoint", "http://127.0.0.1:1/graphql", "--query", query])
        #expect(run.status == 2)
        #expect(run.standardError.contains("syntax error"), "\(run.standardError)")
    }

    @Test("an unreachable endpoint is retried, then exits 1 saying what to check")
    func unreachableEndpoint() async throws {
        // A port that was just closed: start a server, note its port, stop it.
        let server = try await LaunchServer.start()
        let url = server.graphQLURL.absoluteString
        await server.stop()
        let sleeps = Recorder<Duration>()
        let run = await Command.run(
            ["fetch", "--endpoint", url, "--query", launchConnectionQuery, "--retries", "3"], sleep: sleeps)
        #expect(run.status == 1)
        #expect(run.standardError.contains("got no response"))
        #expect(run.standardError.contains("server is running"))
        #expect(run.standardError.contains("nothing was exported"))
        #expect(sleeps.recorded == [.milliseconds(500), .seconds(1), .seconds(2)])
    }

    @Test("GraphQL errors are not retried and exit 1 with the server's message")
    func graphQLErrors() async throws {
        try await withLaunchServer { server in
            let sleeps = Recorder<Duration>()
            let run = await Command.run(
                [
                    "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                    "--page-size", "500",
                ], sleep: sleeps)
            #expect(run.status == 1)
            #expect(run.standardError.contains("first"))
            #expect(sleeps.recorded.isEmpty)
        }
    }
}
