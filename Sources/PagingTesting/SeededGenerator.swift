#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A small, fast random number generator with a seed (SplitMix64): equal
/// seeds give equal sequences on every platform, so a randomized test can
/// print its seed and replay a failure from it.
///
/// ```swift
/// let seed = SeededGenerator.testSeed()
/// print("seed \(seed); replay with PAGING_SEED=\(seed)")
/// var random = SeededGenerator(seed: seed)
/// let count = Int.random(in: 1...20, using: &random)
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator.
    /// - Parameter seed: any value; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    /// - Complexity: O(1).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// The seed for a randomized test: the value of the environment
    /// variable `variable` (by default `PAGING_SEED`) to replay a run, or a
    /// fresh random one. Print it, so that a failure can be replayed.
    /// - Parameter variable: the environment variable to read.
    public static func testSeed(from variable: String = "PAGING_SEED") -> UInt64 {
        if let text = getenv(variable).map({ String(cString: $0) }), let seed = UInt64(text) { return seed }
        return UInt64.random(in: 0...UInt64.max)
    }
}
