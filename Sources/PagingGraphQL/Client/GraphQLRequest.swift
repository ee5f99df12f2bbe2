/// A ``GraphQLOperation`` made of values: a document, variables and the type
/// the data decodes into.
///
/// ```swift
/// struct Data: Decodable, Sendable { var launch: Launch? }
/// let request = GraphQLRequest(
///     document: "query Launch($id: ID!) { launch(id: $id) { id site } }",
///     variables: ["id": "109"],
///     as: Data.self
/// )
/// let response = try await client.send(request)
/// ```
public struct GraphQLRequest<Variables: Encodable & Sendable, Data: Decodable & Sendable>: GraphQLOperation {
    /// The GraphQL document.
    public var document: String
    /// The name of the operation to run, or `nil` for the only one.
    public var operationName: String?
    /// The values of the variables.
    public var variables: Variables

    /// Creates a request.
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

extension GraphQLRequest where Variables == [String: JSONValue] {
    /// Creates a request whose variables are JSON values.
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
/// let response = try await client.send(UntypedGraphQLRequest(
///     document: "query($after: String) { launches(after: $after) { cursor hasMore } }",
///     variables: ["after": .null]
/// ))
/// print(response.data?["launches"]?["hasMore"] ?? "no data")
/// ```
public typealias UntypedGraphQLRequest = GraphQLRequest<[String: JSONValue], JSONValue>
