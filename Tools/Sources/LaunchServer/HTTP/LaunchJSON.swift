/// A launch in the REST routes' JSON.
struct LaunchJSON: Encodable, Sendable {
    /// A rocket in the REST routes' JSON.
    struct RocketJSON: Encodable, Sendable {
        let id: String
        let name: String
        let type: String
    }

    let id: String
    let missionName: String
    let site: String?
    let launchDate: String
    let launchDateUnix: Int64
    let rocket: RocketJSON
    let missionPatchSmall: String?
    let missionPatchLarge: String?
    let isBooked: Bool

    init(_ launch: Launch) {
        id = launch.id.rawValue
        missionName = launch.mission.name
        site = launch.site
        launchDate = launch.launchDateISO8601
        launchDateUnix = launch.launchDate
        rocket = RocketJSON(id: launch.rocket.rocketID, name: launch.rocket.name, type: launch.rocket.type)
        missionPatchSmall = launch.mission.missionPatchSmall
        missionPatchLarge = launch.mission.missionPatchLarge
        isBooked = launch.isBooked
    }
}
