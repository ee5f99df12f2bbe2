/// Which share of requests fail, and how.
///
/// ```swift
/// var configuration = LaunchServerConfiguration()
/// configuration.faults = FaultInjection(rate: 0.2, kinds: [.httpError, .droppedConnection])
/// configuration.seed = 42  // the same seed fails the same requests
/// ```
public struct FaultInjection: Sendable, Hashable {
    /// The probability, 0 to 1, that a request fails.
    public var rate: Double
    /// The kinds of failure, drawn uniformly for each failing request.
    public var kinds: [FaultKind]

    /// Creates a fault injection.
    ///
    /// - Parameters:
    ///   - rate: The probability, 0 to 1, that a request fails.
    ///   - kinds: The kinds drawn from; all of them by default.
    public init(rate: Double, kinds: [FaultKind] = FaultKind.allCases) {
        self.rate = rate
        self.kinds = kinds
    }

    /// No request fails.
    public static let none = FaultInjection(rate: 0, kinds: [])
}
