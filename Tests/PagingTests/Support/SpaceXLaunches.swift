import Foundation

/// A launch of the Apollo iOS tutorial's list, read from the shared data
/// set `shared/data/spacex-launches.json` (the SpaceX v3 `/launches` data the
/// tutorial's server served).
struct Launch: Identifiable, Sendable, Hashable, Decodable, CustomStringConvertible {
    /// The flight number, as a string: the tutorial's `Launch.id`.
    var id: String
    var mission: String
    var site: String
    /// Seconds since 1970: the tutorial server's cursor.
    var launchDateUnix: Int

    private enum CodingKeys: String, CodingKey {
        case flightNumber = "flight_number"
        case mission = "mission_name"
        case site = "site_name"
        case launchDateUnix = "launch_date_unix"
    }

    init(id: String, mission: String, site: String, launchDateUnix: Int) {
        self.id = id
        self.mission = mission
        self.site = site
        self.launchDateUnix = launchDateUnix
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = String(try container.decode(Int.self, forKey: .flightNumber))
        mission = try container.decode(String.self, forKey: .mission)
        site = try container.decode(String.self, forKey: .site)
        launchDateUnix = try container.decode(Int.self, forKey: .launchDateUnix)
    }

    var description: String { "\(mission) (\(site))" }
}

enum SpaceXLaunches {
    /// The data set could not be found or read.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The launches of the shared data set, in the file's order (flight
    /// number ascending).
    ///
    /// The file is found from the calling test file's path: up from it to a
    /// directory holding `shared/data/spacex-launches.json` (from
    /// `Tests/PagingTests/<Folder>/<File>.swift` that is
    /// `../../../../shared/data/spacex-launches.json`).
    /// - Throws: ``Missing`` naming every place looked in.
    static func load(relativeTo filePath: String = #filePath) throws -> [Launch] {
        let relative = "shared/data/spacex-launches.json"
        var looked: [String] = []
        for start in [
            URL(fileURLWithPath: filePath), URL(fileURLWithPath: filePath).resolvingSymlinksInPath(),
        ] {
            var directory = start.deletingLastPathComponent()
            while directory.path != "/" {
                let candidate = directory.appendingPathComponent(relative)
                looked.append(candidate.path)
                if FileManager.default.fileExists(atPath: candidate.path) {
                    do {
                        return try JSONDecoder().decode([Launch].self, from: Data(contentsOf: candidate))
                    } catch {
                        throw Missing(
                            description:
                                "\(candidate.path) exists but could not be read as launches: \(error)")
                    }
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw Missing(
            description:
                "the launch data set \(relative) was not found; it is expected four directories above "
                + "the test file (../../../../\(relative)). Looked in:\n" + looked.joined(separator: "\n"))
    }
}
