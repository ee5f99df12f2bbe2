import Foundation
import LaunchServer
import PagingGraphQL
import PagingTesting
import Testing

@testable import PagingCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The query of the nested tests: every rocket, and in each every launch.
let nestedQuery = """
    query Rockets($first: Int, $after: String, $last: Int, $before: String, $inner: Int, $innerAfter: String) {
      rocketConnection(first: $first, after: $after, last: $last, before: $before) @connection(key: "rockets") {
        edges { node { id name launches(first: $inner, after: $innerAfter) @connection(key: "launches") {
          edges { node { id mission { name } } }
          totalCount
        } } }
      }
    }
    """

/// Every rocket id and its launch ids, newest first, as the server has them, in one request.
func rocketLaunches(_ server: LaunchServer) async throws -> [(rocket: String, launches: [String])] {
    var request = URLRequest(url: server.graphQLURL)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(
        #"{"query":"{ rocketConnection(first: 100) { nodes { id launches(first: 100) { nodes { id } } } } }"}"#
            .utf8)
    let (data, _) = try await URLSession.shared.data(for: request)
    let object = try JSONValue(json: data)
    guard let rockets = object[path: ["data", "rocketConnection", "nodes"]]?.arrayValue else {
        throw TestFailure("unexpected answer: \(String(decoding: data, as: UTF8.self))")
    }
    return rockets.compactMap { rocket in
        guard let id = rocket["id"]?.stringValue,
            let launches = rocket[path: ["launches", "nodes"]]?.arrayValue
        else { return nil }
        return (id, launches.compactMap { $0["id"]?.stringValue })
    }
}

/// The lines of a nested export as (rocket id, launch ids), failing on a line of another shape.
func nestedLines(_ text: String) throws -> [(rocket: String, launches: [String])] {
    try text.split(separator: "\n").map { line in
        let value = try JSONValue(json: Data(line.utf8))
        guard let id = value["id"]?.stringValue, let edges = value[path: ["launches", "edges"]]?.arrayValue
        else {
            throw TestFailure("not a rocket with its launches: \(line)")
        }
        return (id, edges.compactMap { $0[path: ["node", "id"]]?.stringValue })
    }
}

/// The lines of a flattened export as "rocket/launch".
func flatLines(_ text: String) throws -> [String] {
    try text.split(separator: "\n").map { line in
        let value = try JSONValue(json: Data(line.utf8))
        guard let parent = value["parentId"]?.stringValue, let id = value["id"]?.stringValue,
            value["mission"]?["name"]?.stringValue != nil
        else { throw TestFailure("not a launch with its parent: \(line)") }
        return "\(parent)/\(id)"
    }
}

@Suite("paging fetch exports connections inside connections")
struct NestedFetchTests {
    @Test(
        "every launch of every rocket, nested in its rocket, at any page size and concurrency",
        arguments: [(1, 1), (2, 3), (7, 4), (100, 2)])
    func nested(pageSize: Int, concurrency: Int) async throws {
        try await withLaunchServer { (server: LaunchServer) async throws in
            let expected = try await rocketLaunches(server)
            #expect(expected.map(\.rocket) == ["falcon1", "falcon9", "falconheavy"])
            #expect(expected.map(\.launches.count).reduce(0, +) == 100)
            let run = await Command.run([
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", nestedQuery,
                "--page-size",
                String(pageSize), "--concurrency", String(concurrency),
            ])
            #expect(run.status == 0, "\(run.standardError)")
            let lines = try nestedLines(run.standardOutput)
            #expect(lines.map(\.rocket) == expected.map(\.rocket))
            #expect(lines.map(\.launches) == expected.map(\.launches))
            // What the export asked for to page is taken out again; what was selected stays.
            let first = try JSONValue(json: Data(try #require(run.outputLines.first).utf8))
            #expect(first["paging_id"] == nil && first["paging_type"] == nil)
            #expect(first["name"]?.stringValue == "Falcon 1")
            #expect(first[path: ["launches", "totalCount"]]?.intValue == expected[0].launches.count)
            #expect(first[path: ["launches", "pageInfo", "hasNextPage"]]?.boolValue == false)
            let innerPages = expected.map { max(1, ($0.launches.count + pageSize - 1) / pageSize) }.reduce(
                0, +)
            #expect(
                run.standardError.contains("inner: 100 nodes, \(innerPages) pages"), "\(run.standardError)")
        }
    }

    @Test("--flatten writes one line per launch with its rocket's id; --last pages the rockets backward")
    func flatten() async throws {
        try await withLaunchServer { (server: LaunchServer) async throws in
            let expected = try await rocketLaunches(server)
            let arguments = [
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", nestedQuery,
                "--page-size", "6",
                "--flatten",
            ]
            let run = await Command.run(arguments)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(
                try flatLines(run.standardOutput)
                    == expected.flatMap { r in r.launches.map { "\(r.rocket)/\($0)" } })
            let backward = await Command.run(arguments + ["--last", "--concurrency", "1"])
            #expect(backward.status == 0, "\(backward.standardError)")
            #expect(
                try flatLines(backward.standardOutput)
                    == expected.reversed().flatMap { r in r.launches.map { "\(r.rocket)/\($0)" } })
            let slurped = await Command.run(arguments + ["--slurp"])
            let array = try JSONValue(json: Data(slurped.standardOutput.utf8)).arrayValue
            #expect(array?.count == 100)
        }
    }

    @Test(
        "stopped at random places, inside inner connections too, --resume goes on with nothing lost or repeated"
    )
    func randomStops() async throws {
        let seed = SeededGenerator.testSeed()
        print("NestedFetchTests.randomStops seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        try await withLaunchServer { (server: LaunchServer) async throws in
            let expected = try await rocketLaunches(server)
            for flatten in [true, false] {
                for _ in 0..<3 {
                    let pageSize = Int.random(in: 1...12, using: &random)
                    var arguments = [
                        "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", nestedQuery,
                        "--page-size", String(pageSize),
                    ]
                    if flatten { arguments.append("--flatten") }
                    var output = ""
                    var cursor: String?
                    var runs = 0
                    while runs < 200 {
                        runs += 1
                        let limit =
                            flatten
                            ? ["--max-items", String(Int.random(in: 1...30, using: &random))]
                            : ["--max-items", "1"]
                        let run = await Command.run(
                            arguments + limit + [
                                "--concurrency", String(Int.random(in: 1...4, using: &random)),
                            ]
                                + (cursor.map { ["--resume", $0] } ?? []))
                        #expect(run.status == 0, "\(run.standardError)")
                        output += run.standardOutput
                        guard let next = run.resumeCursor else { break }
                        cursor = next
                    }
                    if flatten {
                        #expect(
                            try flatLines(output)
                                == expected.flatMap { r in r.launches.map { "\(r.rocket)/\($0)" } },
                            "seed \(seed), page size \(pageSize)")
                        #expect(runs > 3)
                    } else {
                        let lines = try nestedLines(output)
                        #expect(lines.map(\.rocket) == expected.map(\.rocket), "seed \(seed)")
                        #expect(lines.map(\.launches) == expected.map(\.launches), "seed \(seed)")
                    }
                }
            }
        }
    }

    @Test(
        "failures at seeded requests, outer and inner, stop the export; each --resume goes on to the exact whole",
        arguments: [true, false])
    func resumesAfterFaults(flatten: Bool) async throws {
        // Dropped connections among them: the commands' transport sees a kept-alive connection
        // closed on a request at once (URLSession on Linux waited out its whole timeout).
        try await withLaunchServer({ configuration in
            configuration.faults = FaultInjection(
                rate: 0.3, kinds: [.httpError, .graphQLError, .droppedConnection])
            configuration.seed = 11
        }) { (server: LaunchServer) async throws in
            // The nested output writes a rocket whole, so its 92 launches must come in one run:
            // in pages of 30, a run of 5 requests without a fault is likely enough.
            var arguments = [
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", nestedQuery,
                "--page-size",
                flatten ? "4" : "30", "--retries", "0", "--concurrency", "1",
            ]
            if flatten { arguments.append("--flatten") }
            var output = ""
            var cursor: String?
            var failures = 0
            for _ in 0..<200 {
                let run = await Command.run(arguments + (cursor.map { ["--resume", $0] } ?? []))
                output += run.standardOutput
                if run.status == 0 { break }
                #expect(run.status == 1, "\(run.standardError)")
                failures += 1
                cursor = run.resumeCursor ?? cursor
            }
            #expect(failures > 2)
            // The fault injector's answers would interleave with a request of the test's own: ask after.
            var clean = LaunchServerConfiguration()
            clean.faults = .none
            let expected = try await LaunchServer.withRunning(clean) { try await rocketLaunches($0) }
            if flatten {
                #expect(
                    try flatLines(output) == expected.flatMap { r in r.launches.map { "\(r.rocket)/\($0)" } })
            } else {
                let lines = try nestedLines(output)
                #expect(lines.map(\.rocket) == expected.map(\.rocket))
                #expect(lines.map(\.launches) == expected.map(\.launches))
            }
        }
    }

    @Test("with retries, injected faults at both levels change nothing in the output")
    func retriesFaults() async throws {
        try await withLaunchServer({ configuration in
            configuration.faults = FaultInjection(rate: 0.3, kinds: [.httpError, .droppedConnection])
            configuration.seed = 5
        }) { (server: LaunchServer) async throws in
            let sleeps = Recorder<Duration>()
            let run = await Command.run(
                [
                    "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", nestedQuery,
                    "--page-size",
                    "5", "--retries", "10", "--flatten", "--concurrency", "3",
                ], sleep: sleeps)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardError.contains("retrying in"))
            #expect(!sleeps.recorded.isEmpty)
            let lines = try flatLines(run.standardOutput)
            #expect(lines.count == 100)
            #expect(Set(lines).count == 100)
        }
    }

    @Test("what cannot be exported nested is refused up front, saying what to change")
    func refusals() async throws {
        try await withLaunchServer { (server: LaunchServer) async throws in
            let endpoint = server.graphQLURL.absoluteString
            func fetch(_ query: String, _ extra: [String] = []) async -> CommandRun {
                await Command.run(["fetch", "--endpoint", endpoint, "--query", query] + extra)
            }
            let flat = await fetch(launchConnectionQuery, ["--flatten"])
            #expect(flat.status == 2)
            #expect(
                flat.standardError.contains(
                    "--flatten writes the nodes of a connection inside the nodes of another"))

            let clash = nestedQuery.replacingOccurrences(
                of: "node { id mission", with: "node { parentId: id mission")
            let clashed = await fetch(clash, ["--flatten"])
            #expect(clashed.status == 2)
            #expect(clashed.standardError.contains("give that field an alias"), "\(clashed.standardError)")

            let partial = await fetch(nestedQuery, ["--allow-partial"])
            #expect(partial.status == 2)
            #expect(partial.standardError.contains("--allow-partial is not available"))

            let outside = """
                query($first: Int, $after: String, $a: String) {
                  rocketConnection(first: $first, after: $after) @connection(key: "r") {
                    pageInfo { hasNextPage endCursor }
                    edges { cursor node { id } }
                    totalCount
                  }
                  launchConnection(first: 2, after: $a) @connection(key: "l") { nodes { id } }
                }
                """
            let sideBySide = await fetch(outside)
            #expect(sideBySide.status == 2)
            #expect(sideBySide.standardError.contains("@connection"), "\(sideBySide.standardError)")

            let bad = await fetch(nestedQuery, ["--resume", "nested1.!!!"])
            #expect(bad.status == 2)
            #expect(bad.standardError.contains("(That is --resume.)"), "\(bad.standardError)")
            #expect(
                bad.standardError.contains("is not a position this export printed"), "\(bad.standardError)")

            // A token left inside an inner connection by a flattened export.
            let stopped = await fetch(nestedQuery, ["--flatten", "--page-size", "2", "--max-items", "2"])
            let midway = try #require(stopped.resumeCursor)
            #expect(midway.hasPrefix("nested1."))
            let notFlat = await fetch(nestedQuery, ["--resume", midway])
            #expect(notFlat.status == 2)
            #expect(notFlat.standardError.contains("resume with --flatten"), "\(notFlat.standardError)")
        }
    }

    @Test(
        "a resume token inside an inner connection continues it: the rest of Falcon 1's launches, then the others"
    )
    func resumesInsideAnInnerConnection() async throws {
        try await withLaunchServer { (server: LaunchServer) async throws in
            let expected = try await rocketLaunches(server)
            let falcon1 = try #require(expected.first { $0.rocket == "falcon1" }?.launches)
            // Stopped after 2 of the first rocket's launches: the token stands inside them.
            let arguments = [
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", nestedQuery,
                "--page-size", "2", "--flatten",
            ]
            let stopped = await Command.run(arguments + ["--max-items", "2"])
            #expect(stopped.status == 0, "\(stopped.standardError)")
            #expect(try flatLines(stopped.standardOutput) == falcon1.prefix(2).map { "falcon1/\($0)" })
            let token = try #require(stopped.resumeCursor)
            #expect(token.hasPrefix("nested1."))
            let run = await Command.run([
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", nestedQuery,
                "--page-size", "2",
                "--flatten", "--resume", token,
            ])
            #expect(run.status == 0, "\(run.standardError)")
            let all = expected.flatMap { r in r.launches.map { "\(r.rocket)/\($0)" } }
            #expect(try flatLines(run.standardOutput) == Array(all.dropFirst(2)))
            #expect(falcon1.count > 2)
        }
    }
}
