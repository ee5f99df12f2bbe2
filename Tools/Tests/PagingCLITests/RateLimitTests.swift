import Foundation
import LaunchServer
import PagingGraphQL
import PagingTesting
import Testing
import ToolsLock

@testable import PagingCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("fetch shows the waits for the server's rate limit")
struct RateLimitProgressTests {
    /// 2026-11-25 10:00:00 UTC, the tests' fixed now.
    static let now = Date(timeIntervalSince1970: 1_795_600_800)

    @Test("the progress line shows the wait and the time of the reset")
    func progressLine() {
        let text = Locked("")
        let progress = ProgressReporter(
            style: .lines(interval: .seconds(2)), sink: TextSink { chunk in text.withLock { $0 += chunk } },
            now: { .zero })
        progress.rateLimited(
            RateLimitNotice(
                delay: .seconds(101), reset: Self.now.addingTimeInterval(100), reason: "no request left"))
        #expect(text.withLock { $0 } == "rate limit: waiting 1m 41s until 10:01:40 UTC (no request left)\n")
    }
}

@Suite("paging fetch against a launch server with a rate limit")
struct FetchRateLimitTests {
    /// The wall clock of the server and of the command: the command's waits move it.
    final class SharedDate: Sendable {
        private let value = Locked(Date(timeIntervalSince1970: 1_795_600_800))
        func advance(by duration: Duration) {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            value.withLock { $0 = $0.addingTimeInterval(seconds) }
        }
        var now: @Sendable () -> Date { { self.value.withLock { $0 } } }
    }

    @Test("the export waits for each reset the server names, and writes every launch once, using no retry")
    func waitsForResets() async throws {
        let expected = try await withLaunchServer { try await allLaunchIDs($0) }
        let clock = SharedDate()
        try await withLaunchServer({ configuration in
            configuration.rateLimit = RateLimitPolicy(requests: 4, window: .seconds(60))
            configuration.date = clock.now
        }) { (server: LaunchServer) async throws in
            let sleeps = Recorder<Duration>()
            let run = await Command.run(
                [
                    "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                    "--page-size", "10", "--retries", "0",
                ], sleep: sleeps, date: clock.now, onSleep: { clock.advance(by: $0) })
            #expect(run.status == 0, "\(run.standardError)")
            #expect(try ids(inJSONLines: run.standardOutput) == expected)
            // Ten pages, four a window: the fourth answer of each window says none is left, and the
            // export waits out the rest of that window (60 s from its first request, a second of
            // slack) before the fifth and the ninth page. No request was refused.
            #expect(sleeps.recorded == [.seconds(61), .seconds(61)])
            #expect(run.standardError.components(separatedBy: "rate limit: waiting").count - 1 == 2)
            #expect(!run.standardError.contains("retrying"))
        }
    }

    @Test("a refused request is sent again after the reset, the wait shown with the reset's time")
    func refusedThenResumed() async throws {
        let clock = SharedDate()
        try await withLaunchServer({ configuration in
            configuration.rateLimit = RateLimitPolicy(requests: 1, window: .seconds(120))
            configuration.date = clock.now
        }) { (server: LaunchServer) async throws in
            // Another client used the window up before the export began.
            var request = URLRequest(url: server.baseURL.appending(path: "api/launches"))
            request.httpMethod = "GET"
            let (_, used) = try await URLSession.shared.data(for: request)
            #expect((used as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-RateLimit-Remaining") == "0")
            let sleeps = Recorder<Duration>()
            let run = await Command.run(
                [
                    "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                    "--page-size", "100", "--retries", "0",
                ], sleep: sleeps, date: clock.now, onSleep: { clock.advance(by: $0) })
            #expect(run.status == 0, "\(run.standardError)")
            #expect(try ids(inJSONLines: run.standardOutput).count == 100)
            #expect(sleeps.recorded == [.seconds(121)])
            #expect(
                run.standardError.contains("rate limit: waiting 2m 1s until 10:02:00 UTC"),
                "\(run.standardError)")
        }
    }
}
