/// A deterministic random number generator (SplitMix64): the same seed gives the same values.
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator.
    ///
    /// - Parameter seed: Any value; equal seeds give equal sequences.
    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return LaunchGenerator.mix(state &- 0x9E37_79B9_7F4A_7C15)
    }
}
