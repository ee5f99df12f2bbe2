/// A rocket: one record per rocket id, shared by all of its launches.
///
/// The tutorial's server reported the rocket variant of each launch as `type`, so two
/// launches of `falcon9` could disagree about `Rocket.type` while sharing the id — a normalized
/// client store keyed by id cannot hold both. Here a rocket is a `Node` with one value per
/// field: `type` is the variant of its latest launch in the bundled data.
struct Rocket: RelayNode, Hashable {
    /// The rocket's id, such as "falcon9". Never purely digits, so it cannot collide with a
    /// launch id in `node(id:)`.
    let rocketID: String
    /// The rocket's name, such as "Falcon 9".
    let name: String
    /// The rocket's variant, such as "FT".
    let type: String

    /// The GraphQL id.
    var id: GraphID { GraphID(rocketID) }

    /// Resolves `Rocket.launches`: this rocket's launches as a Relay connection, newest first.
    func launches(context: LaunchContext, arguments: ConnectionArguments) async throws
        -> LaunchRelayConnection
    {
        try await LaunchRelayConnection.resolve(
            scope: .rocket(rocketID),
            fieldName: "launches",
            arguments: arguments,
            store: context.store
        )
    }
}
