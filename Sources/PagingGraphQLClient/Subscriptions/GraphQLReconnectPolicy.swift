/// When a ``GraphQLWebSocketClient`` reconnects after its connection was lost:
/// exponential backoff with full jitter, up to a number of attempts or without end.
///
/// Before the *n*th attempt in a row the client waits a random time between zero
/// and ``initialDelay`` × 2^(*n*−1), at most ``maximumDelay``; a connection that
/// was acknowledged starts the count again. Drawing the whole wait at random
/// ("full jitter") spreads the clients a server restart dropped, so they do not
/// all come back at once.
///
/// ```swift
/// let policy = GraphQLReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(30))
/// policy.delayCeiling(beforeAttempt: 3)  // 4 seconds: the wait is drawn from 0...4 s
/// ```
public struct GraphQLReconnectPolicy: Sendable, Hashable {
    /// The ceiling of the wait before the first attempt; one second unless given.
    public var initialDelay: Duration
    /// The largest ceiling of a wait; 30 seconds unless given.
    public var maximumDelay: Duration
    /// The most attempts in a row before the client gives up and ends every
    /// subscription with the last failure; `nil` (the default) for no limit, 0 never
    /// to reconnect.
    public var maximumAttempts: Int?

    /// Creates a policy.
    /// - Parameters:
    ///   - initialDelay: the ceiling of the wait before the first attempt.
    ///   - maximumDelay: the largest ceiling of a wait.
    ///   - maximumAttempts: the most attempts in a row; `nil` for no limit, 0 for none.
    public init(
        initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30),
        maximumAttempts: Int? = nil
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    /// A policy that never reconnects: the first failure ends every subscription.
    public static var never: Self { Self(maximumAttempts: 0) }

    /// Whether the policy allows an attempt.
    /// - Parameter attempt: the attempt's number in a row, from 1.
    /// - Returns: `true` when ``maximumAttempts`` is `nil` or at least `attempt`.
    /// - Complexity: O(1).
    public func allows(attempt: Int) -> Bool {
        maximumAttempts.map { attempt <= $0 } ?? true
    }

    /// The longest wait before an attempt: ``initialDelay`` doubled for each attempt
    /// before it, at most ``maximumDelay``.
    /// - Parameter attempt: the attempt's number in a row, from 1.
    /// - Returns: the ceiling, never negative.
    /// - Complexity: O(log(``maximumDelay`` / ``initialDelay``)).
    public func delayCeiling(beforeAttempt attempt: Int) -> Duration {
        let maximum = max(maximumDelay, .zero)
        var ceiling = max(initialDelay, .zero)
        guard ceiling > .zero else { return .zero }
        for _ in 1..<max(attempt, 1) {
            ceiling = ceiling * 2
            if ceiling >= maximum { return maximum }
        }
        return min(ceiling, maximum)
    }

    /// The wait before an attempt, drawn at random (to the nanosecond) between zero
    /// and ``delayCeiling(beforeAttempt:)``.
    ///
    /// ```swift
    /// var random = SystemRandomNumberGenerator()
    /// let wait = policy.delay(beforeAttempt: 2, using: &random)  // in 0...2 s
    /// ```
    /// - Parameters:
    ///   - attempt: the attempt's number in a row, from 1.
    ///   - generator: the source of randomness; a seeded one gives the same waits again.
    /// - Returns: the wait.
    /// - Complexity: O(log(``maximumDelay`` / ``initialDelay``)).
    public func delay(beforeAttempt attempt: Int, using generator: inout some RandomNumberGenerator)
        -> Duration
    {
        let ceiling = delayCeiling(beforeAttempt: attempt).components
        let (seconds, secondsOverflow) = ceiling.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (nanoseconds, sumOverflow) = seconds.addingReportingOverflow(ceiling.attoseconds / 1_000_000_000)
        let limit = secondsOverflow || sumOverflow ? Int64.max : nanoseconds
        return .nanoseconds(Int64.random(in: 0...max(limit, 0), using: &generator))
    }
}
