/// The arguments of a Relay connection field: `first`, `after`, `last`, `before`.
struct ConnectionArguments: Codable, Sendable {
    var first: Int?
    var after: String?
    var last: Int?
    var before: String?

    /// The most `first` or `last` may ask for, as on GitHub's API.
    static let maximumCount = 100
}
