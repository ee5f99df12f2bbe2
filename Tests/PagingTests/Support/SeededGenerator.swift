/// A small, fast random number generator with a seed (SplitMix64), so a
/// randomized test can print its seed and replay it.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed for a randomized test: `PAGING_SEED` from the environment to
    /// replay a run, or a fresh one.
    static func testSeed() -> UInt64 {
        if let text = ProcessInfoShim.environment("PAGING_SEED"), let seed = UInt64(text) { return seed }
        return UInt64.random(in: 0...UInt64.max)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the environment without Foundation.
enum ProcessInfoShim {
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
