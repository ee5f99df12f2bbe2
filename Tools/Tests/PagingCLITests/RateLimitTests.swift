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

@Suite("fetch keeps to the server's rate limit")
struct RateLimitTests {
    /// 2026-11-25 10:00:00 UTC, the tests' fixed now.
    static let now = Date(timeIntervalSince1970: 1_795_600_800)

    private static func answer(_ status: Int, _ headers: [String: String], body: String = "{}")
        -> Result<GraphQLHTTPResponse, URLError>
    {
        .success(GraphQLHTTPResponse(statusCode: status, headers: headers, body: Data(body.utf8)))
    }

    /// GitHub's fields: none left, the reset `seconds` from ``now``, as a time.
    private static func exhausted(resetIn seconds: Int) -> [String: String] {
        [
            "X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": String(Int(now.timeIntervalSince1970) + seconds),
        ]
    }

    // swift-format-ignore: NeverForceUnwrap
    private static let request = GraphQLHTTPRequest(
        url: URL(string: "https://api.example.test/graphql")!, body: Data(), timeout: .seconds(1))

    private struct Run {
        let transport: ScriptedTransport
        let retrying: RetryingTransport
        let sleeps = Recorder<Duration>()
        let retries = Recorder<RetryNotice>()
        let waits = Recorder<RateLimitNotice>()

        init(_ answers: [Result<GraphQLHTTPResponse, URLError>], retries maximum: Int = 0) {
            transport = ScriptedTransport(answers)
            let (sleeps, retries, waits) = (self.sleeps, self.retries, self.waits)
            retrying = RetryingTransport(
                base: transport, policy: RetryPolicy(maximumRetries: maximum), sleep: sleeps.sleep,
                onRetry: { retries.record($0) }, onRateLimit: { waits.record($0) },
                date: { RateLimitTests.now })
        }
    }

    @Test("the fields are read as GitHub sends them, and as the IETF draft does (seconds until the reset)")
    func reading() {
        let github = GraphQLHTTPResponse(statusCode: 200, headers: Self.exhausted(resetIn: 90), body: Data())
        #expect(
            RateLimit(github, now: Self.now)
                == RateLimit(remaining: 0, reset: Self.now.addingTimeInterval(90)))
        let draft = GraphQLHTTPResponse(
            statusCode: 200, headers: ["ratelimit-remaining": "12", "ratelimit-reset": "30"], body: Data())
        #expect(
            RateLimit(draft, now: Self.now)
                == RateLimit(remaining: 12, reset: Self.now.addingTimeInterval(30)))
        let noReset = GraphQLHTTPResponse(
            statusCode: 200, headers: ["X-RateLimit-Remaining": "3"], body: Data())
        #expect(RateLimit(noReset, now: Self.now) == RateLimit(remaining: 3, reset: nil))
        for value in ["", "many", "-1"] {
            let odd = GraphQLHTTPResponse(
                statusCode: 200, headers: ["X-RateLimit-Remaining": value], body: Data())
            #expect(RateLimit(odd, now: Self.now) == nil)
        }
        #expect(RateLimit(GraphQLHTTPResponse(statusCode: 200, body: Data()), now: Self.now) == nil)
    }

    @Test("a 403 for the rate limit is sent again after the reset, using up no retry")
    func refusedThenWaited() async throws {
        let run = Run([
            Self.answer(403, Self.exhausted(resetIn: 100), body: #"{"message":"API rate limit exceeded"}"#),
            Self.answer(200, ["X-RateLimit-Remaining": "4999"], body: #"{"data":{}}"#),
        ])
        let response = try await run.retrying.send(Self.request)
        #expect(response.statusCode == 200)
        #expect(run.transport.sent.count == 2)
        #expect(run.sleeps.recorded == [.seconds(101)])  // to the reset, and a second of slack
        #expect(run.retries.recorded.isEmpty)
        #expect(run.waits.recorded.map(\.reset) == [Self.now.addingTimeInterval(100)])
    }

    @Test("when an answer says no request is left, the next request waits for the reset first")
    func waitsBeforeTheNextRequest() async throws {
        let run = Run([
            Self.answer(200, Self.exhausted(resetIn: 30), body: #"{"data":{}}"#),
            Self.answer(200, ["X-RateLimit-Remaining": "4999"], body: #"{"data":{}}"#),
            Self.answer(200, ["X-RateLimit-Remaining": "4998"], body: #"{"data":{}}"#),
        ])
        _ = try await run.retrying.send(Self.request)
        #expect(run.sleeps.recorded.isEmpty)
        _ = try await run.retrying.send(Self.request)
        #expect(run.sleeps.recorded == [.seconds(31)])
        _ = try await run.retrying.send(Self.request)
        #expect(run.sleeps.recorded == [.seconds(31)])
        #expect(run.transport.sent.count == 3)
    }

    @Test("a reset further away than the export waits is not waited for: the refusal is the answer")
    func resetTooFar() async throws {
        let run = Run([Self.answer(403, Self.exhausted(resetIn: 2 * 3600))], retries: 5)
        let response = try await run.retrying.send(Self.request)
        #expect(response.statusCode == 403)
        #expect(run.sleeps.recorded.isEmpty)
        #expect(run.transport.sent.count == 1)
        #expect(run.waits.recorded.map(\.givesUp) == [true])
    }

    @Test("a server that keeps refusing after each reset is answered after a few waits")
    func keepsRefusing() async throws {
        let refusals = (0..<5).map { _ in Self.answer(429, Self.exhausted(resetIn: 10)) }
        let run = Run(refusals, retries: 0)
        let response = try await run.retrying.send(Self.request)
        #expect(response.statusCode == 429)
        #expect(run.transport.sent.count == RetryPolicy().maximumRateLimitWaits + 1)
    }

    @Test("a 403 with Retry-After (a secondary limit) is retried after it; a plain 403 is not retried")
    func secondaryLimit() async throws {
        let run = Run(
            [Self.answer(403, ["Retry-After": "60"]), Self.answer(200, [:], body: #"{"data":{}}"#)],
            retries: 2)
        #expect(try await run.retrying.send(Self.request).statusCode == 200)
        #expect(run.sleeps.recorded == [.seconds(60)])
        let plain = Run([Self.answer(403, [:])], retries: 2)
        #expect(try await plain.retrying.send(Self.request).statusCode == 403)
        #expect(plain.transport.sent.count == 1)
    }

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
