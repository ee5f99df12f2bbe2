import Foundation

/// A launch of the Apollo iOS tutorial's list, read from the repository's
/// launch data set (the SpaceX v3 `/launches` data the tutorial's server
/// served), which the launch server bundles:
/// `Tools/Sources/LaunchServer/Resources/spacex-launches.json`.
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

    /// Where the data set lives, from the repository's root. It is the
    /// repository's one copy (its source note, `SOURCE.md`, sits beside it).
    static let pathInRepository = "Tools/Sources/LaunchServer/Resources/spacex-launches.json"

    /// The launches of the data set, in the file's order (flight number
    /// ascending).
    ///
    /// The repository's root is found from this file's path
    /// (`Tests/PagingTests/Support/SpaceXLaunches.swift`, three folders
    /// down), so the tests read nothing outside the repository.
    /// - Throws: ``Missing`` naming the path looked at.
    static func load() throws -> [Launch] {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // PagingTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
        let file = root.appendingPathComponent(pathInRepository)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw Missing(
                description: "the launch data set was not found at \(file.path) "
                    + "(\(pathInRepository) in the repository): \(error)")
        }
        do {
            return try JSONDecoder().decode([Launch].self, from: data)
        } catch {
            throw Missing(description: "\(file.path) exists but could not be read as launches: \(error)")
        }
    }
}
