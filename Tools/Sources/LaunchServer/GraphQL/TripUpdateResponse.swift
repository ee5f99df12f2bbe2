/// The result of `bookTrips` and `cancelTrip`, as in the Apollo tutorial.
struct TripUpdateResponse: Sendable {
    /// Whether every launch asked for was found and changed.
    let success: Bool
    /// What happened, for people.
    let message: String?
    /// The launches that changed, after the change.
    let launches: [Launch?]
}
