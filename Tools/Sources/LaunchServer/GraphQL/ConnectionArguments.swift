/// The arguments of a Relay connection field: `first`, `after`, `last`, `before`.
struct ConnectionArguments: Codable, Sendable {
    var first: Int?
    var after: String?
    var last: Int?
    var before: String?

    /// The most `first` or `last` may ask for, as on GitHub's API.
    static let maximumCount = 100
}

/// The arguments of `launchConnection`: a Relay connection's, the filters, and the order.
struct LaunchConnectionArguments: Codable, Sendable {
    var first: Int?
    var after: String?
    var last: Int?
    var before: String?
    /// Only the launches whose mission name contains it, case-insensitive; all when absent or empty.
    var search: String?
    /// Only the launches whose trip is booked (`true`) or not (`false`); all when absent.
    var booked: Bool?
    /// Only the launches from exactly this site; all when absent.
    var site: String?
    /// The list's order; newest first when absent.
    var orderBy: LaunchOrder?

    /// The connection's own arguments.
    var connection: ConnectionArguments {
        ConnectionArguments(first: first, after: after, last: last, before: before)
    }

    /// The filters: `search`, `booked` and `site`.
    var scope: LaunchScope {
        LaunchScope(search: search, booked: booked, site: site)
    }
}
