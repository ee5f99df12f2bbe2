import Foundation
import LaunchServer
import Testing

@testable import PagingCLI

/// `paging browse --live --subscription FILE`: any server's connection kept live by a subscription
/// of the user's, against the launch server on loopback.
@Suite("paging browse --live")
struct BrowseLiveTests {
    /// The launches, newest first, under a `@connection` key the subscription names.
    static let query = """
        query Live($first: Int, $after: String) {
          launchConnection(first: $first, after: $after) @connection(key: "Browse_live") {
            edges { node { id mission { name } } }
          }
        }
        """

    /// Each launch scheduled, put at the top of the list by the store.
    static let subscription = """
        subscription Added {
          launchAdded @prependNode(connections: ["Browse_live"]) { id mission { name } }
        }
        """

    @Test(
        "without a terminal it prints the first page, then each launch scheduled as it arrives, once, oldest first"
    )
    func printsArrivals() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("added.graphql")
        try Self.subscription.write(to: file, atomically: true, encoding: .utf8)
        try await withLaunchServer({ $0.scheduleEvery = .milliseconds(50) }) { server in
            let run = await Command.run([
                "browse", "--endpoint", server.graphQLURL.absoluteString, "--query", Self.query,
                "--fields", "mission.name", "--page-size", "5", "--live", "--subscription", file.path,
                "--live-count", "3",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            let lines = run.outputLines
            #expect(lines.first == "Live: nodes 1–5, newest first", "\(lines)")
            let arrived = lines.filter { $0.hasPrefix("New: ") }
            #expect(arrived.count == 3, "\(lines)")
            let numbers = arrived.compactMap { line in
                line.range(of: "Scheduled mission ").flatMap {
                    Int(line[$0.upperBound...].prefix(while: \.isNumber))
                }
            }
            #expect(
                numbers.count == 3 && numbers == numbers.sorted() && Set(numbers).count == 3, "\(arrived)")
        }
    }

    @Test("a subscription the server refuses ends the command with why, rather than waiting for nodes")
    func refusedSubscription() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("unknown.graphql")
        try """
        subscription Unknown {
          launchRemoved @prependNode(connections: ["Browse_live"]) { id }
        }
        """.write(to: file, atomically: true, encoding: .utf8)
        try await withLaunchServer { server in
            let run = await Command.run([
                "browse", "--endpoint", server.graphQLURL.absoluteString, "--query", Self.query,
                "--fields", "mission.name", "--page-size", "5", "--live", "--subscription", file.path,
                "--live-count", "3",
            ])
            #expect(run.status == 1, "\(run.standardOutput)")
            #expect(
                run.standardError.contains("the live list ended before 3 nodes came"), "\(run.standardError)")
            #expect(!run.outputLines.contains { $0.hasPrefix("New: ") }, "\(run.outputLines)")
        }
    }

    @Test("--live needs --subscription, and a subscription; --subscription needs --live")
    func usage() async throws {
        let missing = await Command.run([
            "browse", "--endpoint", "http://127.0.0.1:1/graphql", "--query", Self.query, "--live",
        ])
        #expect(missing.status == 2, "\(missing.standardError)")
        #expect(missing.standardError.contains("--live needs --subscription"), "\(missing.standardError)")
        let alone = await Command.run([
            "browse", "--endpoint", "http://127.0.0.1:1/graphql", "--query", Self.query, "--subscription",
            Self.subscription,
        ])
        #expect(alone.status == 2)
        #expect(alone.standardError.contains("add --live"), "\(alone.standardError)")
        let query = await Command.run([
            "browse", "--endpoint", "http://127.0.0.1:1/graphql", "--query", Self.query, "--live",
            "--subscription", Self.query,
        ])
        #expect(query.status == 2)
        #expect(query.standardError.contains("must be a subscription"), "\(query.standardError)")
    }
}
