import Foundation
import Testing
import ToolsLock

@testable import LaunchServer

/// A wall clock a test moves by hand.
final class ManualDate: Sendable {
    private let value: Locked<Date>
    init(_ start: Date) { value = Locked(start) }
    func advance(by seconds: TimeInterval) { value.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var now: @Sendable () -> Date { { self.value.withLock { $0 } } }
}

@Suite("The rate limit, GitHub's way")
struct RateLimitTests {
    /// 2026-11-25 10:00:00.250 UTC.
    static let start = Date(timeIntervalSince1970: 1_795_600_800.25)

    @Test("each window answers its requests, counting down; beyond them none; a new window after the reset")
    func windows() {
        let clock = ManualDate(Self.start)
        let limiter = RateLimiter(policy: RateLimitPolicy(requests: 3, window: .seconds(60)), date: clock.now)
        let reset = 1_795_600_861  // start + 60 s, up to a whole second
        let first = (0..<4).map { _ in limiter.admit() }
        #expect(first.map(\.allowed) == [true, true, true, false])
        #expect(first.map(\.remaining) == [2, 1, 0, 0])
        #expect(first.map(\.used) == [1, 2, 3, 3])
        #expect(Set(first.map(\.reset)) == [reset])
        #expect(Set(first.map(\.limit)) == [3])
        clock.advance(by: 59)
        #expect(limiter.admit().allowed == false)
        clock.advance(by: 2)  // past the reset
        let next = limiter.admit()
        #expect(next.allowed && next.remaining == 2 && next.reset > reset)
    }

    @Test("over HTTP: the fields on every answer, then a 403 with none left and a JSON message")
    func overHTTP() async throws {
        let clock = ManualDate(Self.start)
        try await withLaunchServer({ configuration in
            configuration.rateLimit = RateLimitPolicy(requests: 2, window: .seconds(3600))
            configuration.date = clock.now
        }) { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let first = try await client.send("GET", "/api/launches?per_page=1")
            #expect(first.status == 200)
            #expect(first.header("X-RateLimit-Limit") == "2")
            #expect(first.header("X-RateLimit-Remaining") == "1")
            #expect(first.header("X-RateLimit-Reset") == "1795604401")
            let second = try await client.graphQL("{ launchConnection(first: 1) { nodes { id } } }")
            #expect(second.status == 200)
            #expect(second.header("X-RateLimit-Remaining") == "0")
            let refused = try await client.send("GET", "/api/launches?per_page=1")
            #expect(refused.status == 403)
            #expect(refused.header("X-RateLimit-Remaining") == "0")
            #expect(refused.header("X-RateLimit-Reset") == "1795604401")
            #expect(refused.errorMessage?.hasPrefix("API rate limit exceeded") == true)
            clock.advance(by: 3601)
            #expect(try await client.send("GET", "/api/launches?per_page=1").status == 200)
        }
    }

    @Test("a rate limit of no requests, or of a window under a second, is refused at start")
    func badPolicy() async {
        for policy in [RateLimitPolicy(requests: 0), RateLimitPolicy(requests: 5, window: .milliseconds(10))]
        {
            var configuration = LaunchServerConfiguration()
            configuration.rateLimit = policy
            await #expect(throws: LaunchServerError.self) { try await LaunchServer.start(configuration) }
        }
    }
}
