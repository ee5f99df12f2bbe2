/// A launch as the client reads it from the GraphQL API: the fields every test selects.
struct Launch: Codable, Identifiable, Hashable, Sendable {
    /// The mission of a launch.
    struct Mission: Codable, Hashable, Sendable {
        var name: String
    }

    var id: String
    var site: String?
    var mission: Mission?
    /// ISO 8601, UTC.
    var launchDate: String?
    var isBooked: Bool?

    /// The selection set that decodes into a `Launch`.
    static let selection = "id site mission { name } launchDate isBooked"
}

/// A launch as the REST routes (`/timeline.json`, `/api/launches`) return it.
struct RESTLaunch: Decodable, Identifiable, Hashable, Sendable {
    var id: String
    var missionName: String
    var site: String?
    var launchDate: String
    var launchDateUnix: Int64
}
