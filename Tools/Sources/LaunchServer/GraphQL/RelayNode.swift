/// The GraphQL `Node` interface of the Relay Global Object Identification spec: an object that
/// `node(id:)` can fetch again by its `id`.
///
/// Ids are unique across types: launch ids are digits only, rocket ids never are.
protocol RelayNode: Sendable {
    /// The object's global id.
    var id: GraphID { get }
}
