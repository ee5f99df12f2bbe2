import Foundation
import PagingGraphQLClient
import PagingLock
import PagingTesting
import Testing

@Suite("RetryingTransport: retries, backoff and the server's rate limit")
struct RetryingTransportTests {
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
        let transport: AnsweringTransport
        let retrying: RetryingTransport
        let sleeps = Recorder<Duration>()
        let retries = Recorder<RetryNotice>()
        let waits = Recorder<RateLimitNotice>()

        init(_ answers: [Result<GraphQLHTTPResponse, URLError>], retries maximum: Int = 0) {
            transport = AnsweringTransport(answers)
            let (sleeps, retries, waits) = (self.sleeps, self.retries, self.waits)
            retrying = RetryingTransport(
                base: transport, policy: RetryPolicy(maximumRetries: maximum), sleep: sleeps.sleep,
                onRetry: { retries.record($0) }, onRateLimit: { waits.record($0) },
                date: { RetryingTransportTests.now })
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

    private static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> Result<
        GraphQLHTTPResponse, URLError
    > {
        .success(GraphQLHTTPResponse(statusCode: status, headers: headers, body: Data(text.utf8)))
    }

    @Test("429 waits as long as Retry-After asks; 5xx and dropped connections back off exponentially")
    func retryDelays() async throws {
        let transport = AnsweringTransport([
            Self.json("{}", status: 429, headers: ["Retry-After": "7"]),
            Self.json("{}", status: 503),
            .failure(URLError(.networkConnectionLost)),
            Self.json("{}", status: 502),
            Self.json(#"{"data": {}}"#),
        ])
        let sleeps = Recorder<Duration>()
        let notices = Recorder<RetryNotice>()
        let retrying = RetryingTransport(
            base: transport, policy: RetryPolicy(maximumRetries: 5), sleep: sleeps.sleep,
            onRetry: { notice in notices.record(notice) })
        let response = try await retrying.send(
            GraphQLHTTPRequest(
                url: URL(string: "http://example.com/graphql")!, body: Data(), timeout: .seconds(1)))
        #expect(response.statusCode == 200)
        #expect(sleeps.recorded == [.seconds(7), .seconds(1), .seconds(2), .seconds(4)])
        #expect(notices.recorded.map(\.reason).first == "HTTP 429")
    }

    @Test("after the last retry the last answer is returned; 4xx other than 408 and 429 is not retried")
    func retryLimit() async throws {
        let sleeps = Recorder<Duration>()
        let failing = RetryingTransport(
            base: AnsweringTransport([
                Self.json("{}", status: 500), Self.json("{}", status: 500), Self.json("{}", status: 500),
            ]),
            policy: RetryPolicy(maximumRetries: 2), sleep: sleeps.sleep, onRetry: { _ in })
        let request = GraphQLHTTPRequest(
            url: URL(string: "http://example.com")!, body: Data(), timeout: .seconds(1))
        #expect(try await failing.send(request).statusCode == 500)
        #expect(sleeps.recorded.count == 2)
        let notFound = RetryingTransport(
            base: AnsweringTransport([Self.json("{}", status: 404)]), policy: RetryPolicy(),
            sleep: sleeps.sleep,
            onRetry: { _ in })
        #expect(try await notFound.send(request).statusCode == 404)
        #expect(sleeps.recorded.count == 2)
    }
}
