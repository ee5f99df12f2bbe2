/// A launch ready to be inserted: the columns of the `launch` table (without its push key,
/// which is derived from the date and id).
struct LaunchRow: Sendable, Hashable {
    /// The launch's numeric id.
    var number: Int64
    /// Seconds since 1970-01-01T00:00:00Z.
    var launchDate: Int64
    /// The mission's name.
    var missionName: String
    /// The launch site's short name.
    var site: String?
    /// The id of a rocket of the ``RocketCatalog``.
    var rocketID: String
    /// The address of the small patch image.
    var missionPatchSmall: String?
    /// The address of the large patch image.
    var missionPatchLarge: String?
    /// Whether a trip on this launch is booked.
    var isBooked: Bool = false
}
