/// A GraphQL operation with Swift types: its document, the variables it
/// sends and the type its data decodes into.
///
/// Conform a type of your own, one per operation:
///
/// ```swift
/// struct LaunchListQuery: GraphQLOperation {
///     struct Variables: Encodable, Sendable { var pageSize: Int; var after: String? }
///     struct Data: Decodable, Sendable {
///         struct Launches: Decodable, Sendable { var cursor: String; var hasMore: Bool; var launches: [Launch] }
///         var launches: Launches
///     }
///     let document = """
///         query LaunchList($pageSize: Int, $after: String) {
///           launches(pageSize: $pageSize, after: $after) { cursor hasMore launches { id site } }
///         }
///         """
///     var operationName: String? { "LaunchList" }
///     var variables: Variables
/// }
/// ```
///
/// or use ``InlineOperation`` for one made on the spot, and
/// ``UntypedOperation`` when no types are known.
public protocol GraphQLOperation<Data>: Sendable {
    /// The type of the variables; encoded as the `variables` JSON object.
    associatedtype Variables: Encodable & Sendable
    /// The type the response's `data` decodes into.
    associatedtype Data: Decodable & Sendable

    /// The GraphQL document: the operation and the fragments it uses.
    var document: String { get }
    /// The name of the operation to run, required when the document holds
    /// more than one; `nil` for the only one.
    var operationName: String? { get }
    /// The values of the operation's variables.
    var variables: Variables { get }
}
