import Foundation

/// The real SpaceX launches bundled as `Resources/spacex-launches.json` (where they come from:
/// `Resources/SOURCE.md` beside it): 100 launches, flight numbers 1 to 100.
enum SpaceXLaunches {
    /// One element of the bundled JSON array.
    private struct Record: Decodable {
        let flight_number: Int64
        let mission_name: String
        let launch_date_unix: Int64
        let rocket_id: String
        let site_name: String?
        let mission_patch_small: String?
        let mission_patch: String?
    }

    /// Reads and decodes the bundled launches.
    ///
    /// - Returns: The launches in the file's order (oldest first).
    /// - Throws: ``LaunchServerError`` when the resource is missing or cannot be decoded.
    static func load() throws(LaunchServerError) -> [LaunchRow] {
        guard let url = Bundle.module.url(forResource: "spacex-launches", withExtension: "json") else {
            throw .datasetUnreadable("the resource spacex-launches.json is missing from the bundle")
        }
        let records: [Record]
        do {
            records = try JSONDecoder().decode([Record].self, from: Data(contentsOf: url))
        } catch {
            throw .datasetUnreadable("spacex-launches.json could not be decoded: \(error)")
        }
        return records.map { record in
            LaunchRow(
                number: record.flight_number,
                launchDate: record.launch_date_unix,
                missionName: record.mission_name,
                site: record.site_name,
                rocketID: record.rocket_id,
                missionPatchSmall: record.mission_patch_small,
                missionPatchLarge: record.mission_patch
            )
        }
    }
}
