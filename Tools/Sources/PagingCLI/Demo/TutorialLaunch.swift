import Paging

/// A launch as the Apollo tutorial's list shows it: mission, rocket, site, date, and whether a
/// trip is booked.
struct TutorialLaunch: Identifiable, Sendable, Hashable, Codable {
    /// The launch's mission.
    struct Mission: Sendable, Hashable, Codable {
        /// The mission's name, such as `FalconSat`.
        var name: String?
        /// The address of the mission patch image.
        var missionPatch: String?
    }

    /// The launch's rocket.
    struct Rocket: Sendable, Hashable, Codable {
        /// The rocket's id, such as `falcon9`.
        var id: String
        /// The rocket's name, such as `Falcon 9`.
        var name: String?
        /// The rocket's type, such as `FT`.
        var type: String?
    }

    /// The launch's id, such as `109`.
    var id: String
    /// The launch site, such as `KSC LC 39A`.
    var site: String?
    /// The mission.
    var mission: Mission?
    /// The rocket.
    var rocket: Rocket?
    /// Whether the user booked a trip on this launch.
    var isBooked: Bool
    /// The launch time in UTC, ISO 8601.
    var launchDate: String?

    /// The launch date as `2020-01-29`.
    var day: String { launchDate.map { String($0.prefix(10)) } ?? "" }

    /// The launch year, such as `2020`; `nil` without a date.
    var year: Substring? { launchDate.map { $0.prefix(4) } }

    /// The demo list's header rows: the year above the first launch of each year (the list runs
    /// newest first); none above a launch with no date.
    static let yearHeaders: SeparatorRule<TutorialLaunch, String> = { before, after in
        guard let year = after?.year, before?.year != year else { return nil }
        return String(year)
    }

    /// The row format of the demo's list.
    static let rowFormat = RowFormat<TutorialLaunch>(
        columns: [
            .init(title: "Mission", width: nil),
            .init(title: "Rocket", width: 14),
            .init(title: "Site", width: 18),
            .init(title: "Date", width: 10),
            .init(title: "Booked", width: 6),
        ],
        cells: { launch in
            [
                launch.mission?.name ?? "(unnamed)", launch.rocket?.name ?? "", launch.site ?? "", launch.day,
                launch.isBooked ? "  ✓" : "",
            ]
        },
        details: { launch in (launch.mission?.name ?? "Launch \(launch.id)", launch.detailLines) }
    )

    /// The lines of the detail view.
    var detailLines: [String] {
        [
            "Mission   \(mission?.name ?? "(unnamed)")",
            "Rocket    \(rocket?.name ?? "?") (\(rocket?.type ?? "?"))",
            "Site      \(site ?? "unknown")",
            "Date      \(launchDate ?? "unknown")",
            "Patch     \(mission?.missionPatch ?? "none")",
            "Launch    #\(id)",
            "",
            isBooked
                ? "You have a trip booked on this launch. Press Esc, then b to cancel it."
                : "No trip booked. Press Esc, then b to book one.",
        ]
    }
}
