import ToolsLock

/// Draws the delay and the fault of each request from the configured options and seed.
///
/// Every request draws the same number of random values, so the sequence of decisions depends
/// on the seed and the order of requests only.
final class FaultInjector: Sendable {
    private let latency: Latency
    private let faults: FaultInjection
    private let seed: UInt64
    /// The number of values drawn so far.
    private let drawn = Locked<UInt64>(0)

    /// Creates an injector.
    ///
    /// - Parameters:
    ///   - latency: The delay option.
    ///   - faults: The failure option.
    ///   - seed: The seed of the random draws.
    init(latency: Latency, faults: FaultInjection, seed: UInt64) {
        self.latency = latency
        self.faults = faults
        self.seed = seed
    }

    /// The decision for the next request.
    func next() -> FaultDecision {
        let first = drawn.withLock { drawn in
            defer { drawn &+= 3 }
            return drawn
        }
        do {
            let latencyDraw = draw(first)
            let faultDraw = Double(draw(first &+ 1) >> 11) / Double(1 << 53)
            let kindDraw = draw(first &+ 2)
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

    /// The value number `index` of the seed's sequence (SplitMix64: the
    /// golden-ratio step times the index, added to the seed, then mixed), so
    /// a request's values depend only on the seed and how many came before.
    private func draw(_ index: UInt64) -> UInt64 {
        LaunchGenerator.mix(seed &+ index &* 0x9E37_79B9_7F4A_7C15)
    }

    /// A duration in whole nanoseconds (saturating).
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled &+ attoseconds / 1_000_000_000
    }
}
