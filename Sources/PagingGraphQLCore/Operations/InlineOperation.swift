/// A ``GraphQLOperation`` made of values: a document, variables and the type
/// the data decodes into, for an operation written where it is sent rather
/// than as a type of its own.
///
/// (It was called `GraphQLRequest`, a name GraphQLSwift also uses.)
///
/// ```swift
/// struct Data: Decodable, Sendable { var launch: Launch? }
/// let operation = InlineOperation(
///     document: "query Launch($id: ID!) { launch(id: $id) { id site } }",
///     variables: ["id": "109"],
///     as: Data.self
/// )
/// let response = try await client.send(operation)
/// ```
public struct InlineOperation<Variables: Encodable & Sendable, Data: Decodable & Sendable>: GraphQLOperation {
    /// The GraphQL document.
    public var document: String
    /// The name of the operation to run, or `nil` for the only one.
    public var operationName: String?
    /// The values of the variables.
    public var variables: Variables

    /// Creates an operation.
    /// - Parameters:
    ///   - document: the GraphQL document.
    ///   - operationName: the operation to run, `nil` for the only one.
    ///   - variables: the values of the variables.
    ///   - data: the type the response's data decodes into.
    public init(
        document: String, operationName: String? = nil, variables: Variables, as data: Data.Type = Data.self
    ) {
        self.document = document
        self.operationName = operationName
        self.variables = variables
    }
}

extension InlineOperation where Variables == [String: JSONValue] {
    /// Creates an operation whose variables are JSON values.
    /// - Parameters:
    ///   - document: the GraphQL document.
    ///   - operationName: the operation to run, `nil` for the only one.
    ///   - variables: the values of the variables; none unless given.
    ///   - data: the type the response's data decodes into.
    public init(
        document: String, operationName: String? = nil, variables: [String: JSONValue] = [:],
        as data: Data.Type = Data.self
    ) {
        self.document = document
        self.operationName = operationName
        self.variables = variables
    }
}

/// An operation for code that knows no types: variables and data are
/// ``JSONValue``s.
///
/// ```swift
/// let response = try await client.send(UntypedOperation(
///     document: "query($after: String) { launches(after: $after) { cursor hasMore } }",
///     variables: ["after": .null]
/// ))
/// print(response.data?["launches"]?["hasMore"] ?? "no data")
/// ```
public typealias UntypedOperation = InlineOperation<[String: JSONValue], JSONValue>
