import Foundation

/// One launch as the store returns it: the row of the `launch` table joined with its rocket.
///
/// `Launch` is both the GraphQL `Launch` object and the element of the REST lists. Its
/// position in every list is ``position`` (launch date, then id), newest first.
struct Launch: RelayNode, Hashable {
    /// The launch's numeric id (the flight number for the real launches).
    let number: Int64
    /// Seconds since 1970-01-01T00:00:00Z.
    let launchDate: Int64
    /// The mission, with its patch images.
    let mission: Mission
    /// The launch site's short name, such as "CCAFS SLC 40".
    let site: String?
    /// The rocket that flew.
    let rocket: Rocket
    /// Whether a trip on this launch is booked.
    let isBooked: Bool
    /// The Firebase-style push key of the launch in the `/timeline.json` resource.
    let pushKey: String

    /// The GraphQL id: the launch number as text, as in the Apollo tutorial.
    var id: GraphID { GraphID(String(number)) }

    /// The launch's place in every list: (launch date, id).
    var position: KeysetPosition { KeysetPosition(date: launchDate, id: number) }

    /// The launch date as ISO 8601 text in UTC, such as "2006-03-24T22:30:00Z".
    var launchDateISO8601: String {
        Date(timeIntervalSince1970: TimeInterval(launchDate)).formatted(.iso8601)
    }
}
