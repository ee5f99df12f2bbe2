import Foundation

/// The launches the server must serve, read from the server's data file without the server:
/// the oracle the paged lists are compared with. (The file is data, not code, so client and
/// server cannot share a mistake through it.)
struct ReferenceLaunch: Decodable, Hashable, Sendable {
    let flight_number: Int
    let mission_name: String
    let launch_date_unix: Int64
    let rocket_id: String
    let site_name: String?

    /// The launch's GraphQL and REST id.
    var id: String { String(flight_number) }
}

enum ReferenceLaunches {
    /// Why the reference data could not be read.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// The data file of the `LaunchServer` target, found from this file's path.
    static var fileURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // EndToEndTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // Tools
            .appending(path: "Sources/LaunchServer/Resources/spacex-launches.json")
    }

    /// Every SpaceX launch in list order: newest first, by launch date and then id, as the
    /// server's lists order them.
    static func newestFirst() throws -> [ReferenceLaunch] {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            throw Unreadable(description: "cannot read \(fileURL.path): \(error)")
        }
        let launches = try JSONDecoder().decode([ReferenceLaunch].self, from: data)
        return launches.sorted {
            ($0.launch_date_unix, $0.flight_number) > ($1.launch_date_unix, $1.flight_number)
        }
    }

    /// The ids of every SpaceX launch, newest first.
    static func ids() throws -> [String] {
        try newestFirst().map(\.id)
    }
}
