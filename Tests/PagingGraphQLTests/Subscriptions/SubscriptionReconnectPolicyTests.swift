import PagingTesting
import Testing

@testable import PagingGraphQLClient

/// Exponential backoff with full jitter.
@Suite("The reconnect policy")
struct SubscriptionReconnectPolicyTests {
    @Test("the ceiling doubles from the initial delay up to the maximum")
    func ceilings() {
        let policy = GraphQLReconnectPolicy(initialDelay: .milliseconds(500), maximumDelay: .seconds(5))
        #expect(
            (1...7).map(policy.delayCeiling(beforeAttempt:)) == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5),
                .seconds(5),
            ])
        #expect(policy.delayCeiling(beforeAttempt: 10_000) == .seconds(5), "no overflow")
        #expect(GraphQLReconnectPolicy(initialDelay: .zero).delayCeiling(beforeAttempt: 3) == .zero)
    }

    @Test("each wait is drawn between zero and its ceiling, the same again from the same seed")
    func jitter() {
        let seed = SeededGenerator.testSeed()
        print("SubscriptionReconnectPolicyTests.jitter seed \(seed); replay with PAGING_SEED=\(seed)")
        let policy = GraphQLReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(30))
        var first = SeededGenerator(seed: seed)
        var second = SeededGenerator(seed: seed)
        var distinct = Set<Duration>()
        for attempt in 1...200 {
            let delay = policy.delay(beforeAttempt: attempt, using: &first)
            #expect(
                delay >= .zero && delay <= policy.delayCeiling(beforeAttempt: attempt), "attempt \(attempt)")
            #expect(policy.delay(beforeAttempt: attempt, using: &second) == delay)
            distinct.insert(delay)
        }
        #expect(distinct.count > 150, "full jitter: the waits differ")
    }

    @Test("attempts are allowed up to the maximum, or without end")
    func attempts() {
        #expect(GraphQLReconnectPolicy(maximumAttempts: 2).allows(attempt: 2))
        #expect(!GraphQLReconnectPolicy(maximumAttempts: 2).allows(attempt: 3))
        #expect(!GraphQLReconnectPolicy.never.allows(attempt: 1))
        #expect(GraphQLReconnectPolicy().allows(attempt: 1_000_000))
    }
}
