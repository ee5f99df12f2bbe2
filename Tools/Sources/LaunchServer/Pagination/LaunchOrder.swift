/// The orders `launchConnection` can list launches in (GraphQL enum `LaunchOrder`).
///
/// Each order is a total order on a unique key, so a keyset cursor names one place in it:
///
/// | order | key | direction |
/// | --- | --- | --- |
/// | ``newestFirst`` | (launch date, id) | descending |
/// | ``missionName`` | (mission name, id) | ascending |
///
/// Mission names compare by their UTF-8 bytes (SQLite's `BINARY` collation): `"CRS-2"` comes
/// before `"Crew-1"`, and `"Zuma"` before `"dsfsdf"`. A client can compute the same order by
/// comparing `name.utf8` lexicographically, then the id as a number.
enum LaunchOrder: String, Codable, CaseIterable, Sendable {
    /// Newest launch first; launches of the same second by descending id. The default.
    case newestFirst = "NEWEST_FIRST"
    /// By mission name, ascending by UTF-8 bytes; launches of the same name by ascending id.
    case missionName = "MISSION_NAME"

    /// The short code of the order in a cursor.
    var cursorCode: String {
        switch self {
        case .newestFirst: "n"
        case .missionName: "m"
        }
    }

    /// The order of a cursor's short code, if any.
    init?(cursorCode: Substring) {
        switch cursorCode {
        case "n": self = .newestFirst
        case "m": self = .missionName
        default: return nil
        }
    }
}
