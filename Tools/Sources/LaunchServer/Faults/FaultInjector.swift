import Synchronization

/// Draws the delay and the fault of each request from the configured options and seed.
///
/// Every request draws the same number of random values, so the sequence of decisions depends
/// on the seed and the order of requests only.
final class FaultInjector: Sendable {
    private let latency: Latency
    private let faults: FaultInjection
    private let generator: Mutex<SeededGenerator>

    /// Creates an injector.
    ///
    /// - Parameters:
    ///   - latency: The delay option.
    ///   - faults: The failure option.
    ///   - seed: The seed of the random draws.
    init(latency: Latency, faults: FaultInjection, seed: UInt64) {
        self.latency = latency
        self.faults = faults
        self.generator = Mutex(SeededGenerator(seed: seed))
    }

    /// The decision for the next request.
    func next() -> FaultDecision {
        generator.withLock { generator in
            let latencyDraw = generator.next()
            let faultDraw = Double(generator.next() >> 11) / Double(1 << 53)
            let kindDraw = generator.next()
            let delay: Duration
            switch latency {
            case .none:
                delay = .zero
            case .fixed(let duration):
                delay = max(.zero, duration)
            case .random(let range):
                let low = Self.nanoseconds(max(.zero, range.lowerBound))
                let high = max(low, Self.nanoseconds(range.upperBound))
                let span = UInt64(high - low) + 1
                delay = .nanoseconds(low + Int64(latencyDraw % span))
            }
            var fault: FaultKind?
            if !faults.kinds.isEmpty && faultDraw < faults.rate {
                fault = faults.kinds[Int(kindDraw % UInt64(faults.kinds.count))]
            }
            return FaultDecision(delay: delay, fault: fault)
        }
    }

    /// A duration in whole nanoseconds (saturating).
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled &+ attoseconds / 1_000_000_000
    }
}
