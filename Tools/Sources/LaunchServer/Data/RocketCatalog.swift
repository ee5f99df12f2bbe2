/// The rockets every database starts with: the three rockets of the bundled SpaceX data.
///
/// A rocket's `type` is the variant of its latest launch in that data (see ``Rocket``).
enum RocketCatalog {
    /// Falcon 1, Falcon 9 and Falcon Heavy.
    static let rockets: [Rocket] = [
        Rocket(rocketID: "falcon1", name: "Falcon 1", type: "Merlin C"),
        Rocket(rocketID: "falcon9", name: "Falcon 9", type: "FT"),
        Rocket(rocketID: "falconheavy", name: "Falcon Heavy", type: "FT"),
    ]
}
