import Foundation

/// A small random number generator with a seed (SplitMix64), so that a
/// randomized test can print its seed and replay it.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// The seed of a randomized test: `PAGING_SEED` from the environment to
    /// replay a run, or a fresh one.
    static func testSeed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["PAGING_SEED"], let seed = UInt64(text) {
            return seed
        }
        return UInt64.random(in: 0...UInt64.max)
    }
}
