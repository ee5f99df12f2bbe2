/// Which launches a new database is filled with.
///
/// ```swift
/// var configuration = LaunchServerConfiguration()
/// configuration.dataset = .synthetic(count: 1_000_000)
/// ```
public enum LaunchDataset: Sendable, Hashable {
    /// The 100 real SpaceX launches bundled with the package, from FalconSat (2006, the oldest)
    /// to Starlink-10 (2020, the newest).
    case spaceX
    /// `count` synthetic launches from a deterministic generator: the same count always gives the same
    /// rows, and the first `n` rows of a larger count are the rows of `n`.
    case synthetic(count: Int)
    /// No launches at all.
    case empty
}
