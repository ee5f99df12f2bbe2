/// Which launches a list pages through: every launch, or those that pass each filter given.
///
/// The filters combine with AND. `booked`, `site` and `search` are the filter arguments of
/// `launchConnection`; ``rocketID`` is the parent of `Rocket.launches`.
///
/// `isBooked` is one column of the `launch` table: the server has no users, so every request
/// sees the same bookings, and ``booked`` filters on exactly what `Launch.isBooked` reads. A
/// booking or a cancellation is committed before `bookTrips` or `cancelTrip` answers, so the
/// next request lists the launch in its new list.
struct LaunchScope: Sendable, Hashable {
    /// Only the launches of the rocket with this id.
    var rocketID: String?
    /// Only the launches whose mission name contains this text, ignoring the case of ASCII
    /// letters (SQLite's `LIKE`); `%`, `_` and `\` in it are matched as themselves. Never empty.
    private(set) var missionContains: String?
    /// Only the launches whose trip is booked (`true`) or not booked (`false`).
    var booked: Bool?
    /// Only the launches from exactly this site (`Launch.site`, case and spaces as they are).
    var site: String?

    /// Every launch.
    static let all = LaunchScope()

    /// The launches of one rocket.
    static func rocket(_ rocketID: String) -> LaunchScope {
        LaunchScope(rocketID: rocketID)
    }

    /// The scope of a `search:` argument: every launch for none or an empty text.
    static func search(_ text: String?) -> LaunchScope {
        LaunchScope(search: text)
    }

    /// A scope of `launchConnection`'s filter arguments.
    ///
    /// - Parameters:
    ///   - search: Text the mission name contains; none or an empty text keeps every launch.
    ///   - booked: Whether the trip is booked; `nil` keeps both.
    ///   - site: The exact launch site; `nil` keeps every site.
    init(search: String? = nil, booked: Bool? = nil, site: String? = nil) {
        missionContains = search.flatMap { $0.isEmpty ? nil : $0 }
        self.booked = booked
        self.site = site
    }

    private init(rocketID: String) {
        self.rocketID = rocketID
    }

    /// Whether the scope keeps every launch.
    var isAll: Bool { self == .all }

    /// A fingerprint of the filter arguments (`search`, `booked`, `site`), which a cursor
    /// carries so that it is refused by a list with other filters: 16 hexadecimal digits of
    /// FNV-1a (64 bits) over an unambiguous spelling of the three. The rocket is not part of
    /// it: a rocket's launches have always shared the whole list's cursors.
    var filterFingerprint: String {
        func field(_ name: String, _ value: String?) -> String {
            guard let value else { return name + "-" }
            return "\(name)=\(value.utf8.count):\(value)"
        }
        let text =
            field("search", missionContains)
            + field("booked", booked.map { $0 ? "true" : "false" }) + field("site", site)
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The fingerprint of a list without filter arguments: what a `v1` cursor stands for.
    static let unfilteredFingerprint = LaunchScope.all.filterFingerprint

    /// The `LIKE` pattern of a search: the text between `%`, its own `%`, `_` and `\` escaped
    /// with `\`.
    static func likePattern(_ text: String) -> String {
        var pattern = "%"
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }
}
