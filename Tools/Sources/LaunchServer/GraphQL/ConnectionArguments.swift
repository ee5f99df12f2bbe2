/// The arguments of a Relay connection field: `first`, `after`, `last`, `before`.
struct ConnectionArguments: Codable, Sendable {
    var first: Int?
    var after: String?
    var last: Int?
    var before: String?

    /// The most `first` or `last` may ask for, as on GitHub's API.
    static let maximumCount = 100
}

/// The arguments of `launchConnection`: a Relay connection's, and the text to search mission
/// names for.
struct LaunchConnectionArguments: Codable, Sendable {
    var first: Int?
    var after: String?
    var last: Int?
    var before: String?
    /// Only the launches whose mission name contains it, case-insensitive; all when absent or empty.
    var search: String?

    /// The connection's own arguments.
    var connection: ConnectionArguments {
        ConnectionArguments(first: first, after: after, last: last, before: before)
    }
}
