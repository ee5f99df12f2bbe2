/// Makes synthetic launches for tests and benchmarks: row `i` depends on `i` alone, so the same
/// count always gives the same rows and a larger count extends a smaller one.
///
/// Launches are about ten minutes apart on average from FalconSat's date on, and every 50th
/// launch shares its second with the one before it, so ties on the date (which the tutorial's
/// timestamp cursors could not tell apart) are common.
struct LaunchGenerator: Sequence, Sendable {
    /// How many launches the sequence yields.
    let count: Int

    /// The first synthetic launch's date: 2006-03-24T22:30:00Z, FalconSat's.
    static let firstDate: Int64 = 1_143_239_400

    private static let sites = ["Kwajalein Atoll", "CCAFS SLC 40", "KSC LC 39A", "VAFB SLC 4E"]
    private static let rocketIDs = ["falcon1", "falcon9", "falconheavy"]

    /// Creates a generator of `count` launches (negative counts yield none).
    init(count: Int) {
        self.count = Swift.max(0, count)
    }

    /// Iterates the launches, numbered 1 to `count`.
    struct Iterator: IteratorProtocol {
        fileprivate var index: Int64 = 0
        fileprivate var date: Int64 = LaunchGenerator.firstDate
        fileprivate let count: Int64

        mutating func next() -> LaunchRow? {
            guard index < count else { return nil }
            index += 1
            let noise = LaunchGenerator.mix(UInt64(index))
            if index > 1 && index % 50 != 0 {
                date += 1 + Int64(noise % 1_199)
            }
            return LaunchRow(
                number: index,
                launchDate: date,
                missionName: "Synthetic \(index)",
                site: LaunchGenerator.sites[Int((noise >> 20) % 4)],
                rocketID: LaunchGenerator.rocketIDs[Int((noise >> 30) % 3)],
                missionPatchSmall: nil,
                missionPatchLarge: nil
            )
        }
    }

    func makeIterator() -> Iterator {
        Iterator(count: Int64(count))
    }

    /// The SplitMix64 finalizer: a well-mixed 64-bit value for `value`.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
