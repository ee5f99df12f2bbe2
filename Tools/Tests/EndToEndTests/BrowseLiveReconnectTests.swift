import Foundation
import LaunchServer
import Testing

@testable import PagingCLI

/// `paging browse --live` whose WebSocket goes through a relay the test breaks: the launches
/// scheduled while it was down come after the reconnection, with those scheduled after it, each
/// once (each pair in the order scheduled: an event can come before the catch-up).
@Suite("paging browse --live, reconnecting", .timeLimit(.minutes(30)))
struct BrowseLiveReconnectTests {
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

    /// Waits for a condition on what the command printed or the sockets the relay counts:
    /// bounded by ``patience``, so that a client that never connects fails the test rather than
    /// hanging it.
    private static func waitFor(_ what: String, _ condition: () -> Bool) async throws {
        struct Waited: Error, CustomStringConvertible { let description: String }
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        while !condition() {
            guard clock.now < deadline else { throw Waited(description: "waited \(patience) for \(what)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test(
        "the connection reset: the launches scheduled meanwhile and those after, each once, in the order scheduled"
    )
    func reconnects() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("added.graphql")
        try Self.subscription.write(to: file, atomically: true, encoding: .utf8)
        try await withLaunchServer { server in
            let proxy = try FaultyTCPProxy.start(relayingTo: server.port)
            defer { proxy.stop() }
            var components = URLComponents(url: server.webSocketURL, resolvingAgainstBaseURL: false)
            components?.port = proxy.port
            let socketURL = try #require(components?.url)
            let output = TextBuffer()
            let browsing = Task {
                await PagingProcess.run(
                    [
                        "browse", "--endpoint", server.graphQLURL.absoluteString, "--query", Self.query,
                        "--fields", "mission.name", "--page-size", "5", "--live", "--subscription",
                        file.path, "--websocket", socketURL.absoluteString, "--live-count", "4",
                    ], output: output)
            }
            defer { browsing.cancel() }
            @Sendable func schedule(_ mission: String) async throws {
                let response = try await server.client.send(SubscriptionEndToEndTests.schedule(mission))
                #expect(response.data?["scheduleLaunch"]?["id"]?.stringValue != nil)
            }
            // The list loads its first page once the subscription is in place.
            try await Self.waitFor("the first page") { output.text.contains("Live: ") }
            #expect(proxy.accepted.withLock { $0 } == 1)
            proxy.dropAll()
            // The server has let the old subscription go before anything is scheduled.
            await server.waitForSubscriptions(0)
            try await schedule("Meanwhile 1")
            try await schedule("Meanwhile 2")
            try await Self.waitFor("the reconnection") { proxy.accepted.withLock { $0 } >= 2 }
            // Scheduled once the server listens again: a launch scheduled between the reconnection
            // and that was lost in 1 run of 11 under load (RELIABILITY.md, "A live list across a
            // reset"), a window left open.
            await server.waitForSubscriptions(1)
            try await schedule("After 1")
            try await schedule("After 2")
            let run = await browsing.value
            #expect(run.status == 0, "\(run.standardError)")
            let lines = run.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.first == "Live: nodes 1–5, newest first", "\(lines)")
            // Each once; each pair in the order it was scheduled. An event can come before the
            // catch-up that brings the launches scheduled while the connection was down.
            let arrived = lines.filter { $0.hasPrefix("New: ") }
            #expect(
                arrived.sorted() == ["New: After 1", "New: After 2", "New: Meanwhile 1", "New: Meanwhile 2"],
                "\(lines)")
            for (older, newer) in [("Meanwhile 1", "Meanwhile 2"), ("After 1", "After 2")] {
                let first = arrived.firstIndex(of: "New: " + older)
                let second = arrived.firstIndex(of: "New: " + newer)
                guard let first, let second else { continue }  // the sorted check above failed
                #expect(first < second, "\(lines)")
            }
        }
    }
}
