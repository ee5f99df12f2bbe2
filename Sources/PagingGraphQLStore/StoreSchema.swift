import GraphQL
import PagingGraphQLCore

/// What a ``GraphQLStore`` needs to know of the server's schema: the type of
/// each field, which types have an `id`, and the object types of each
/// interface and union.
///
/// ```swift
/// let schema = try StoreSchema(sdl: """
///     type Query { launches(first: Int, after: String): LaunchConnection! }
///     type LaunchConnection { edges: [LaunchEdge!]! pageInfo: PageInfo! }
///     type LaunchEdge { cursor: String! node: Launch! }
///     type Launch { id: ID! site: String }
///     type PageInfo { endCursor: String hasNextPage: Boolean! }
///     """)
/// let store = GraphQLStore(configuration: .init(schema: schema))
/// ```
public struct StoreSchema: Sendable {
    /// For each object and interface type, the named type of each field.
    let fieldTypes: [String: [String: String]]
    /// For each interface and union, its object types.
    let possibleTypes: [String: Set<String>]
    /// The root type of queries, mutations and subscriptions.
    let queryType: String?
    let mutationType: String?
    let subscriptionType: String?

    /// Reads a schema from its SDL, validated by GraphQLSwift.
    /// - Parameter sdl: the schema in the GraphQL schema definition language.
    /// - Throws: ``GraphQLStoreError/Code/schema`` when the SDL does not
    ///   parse or is not a valid schema (such as a field of an undefined
    ///   type).
    /// - Complexity: O(*n*) for an SDL of *n* characters.
    public init(sdl: String) throws(GraphQLStoreError) {
        let schema: GraphQLSchema
        do {
            schema = try LexableText.buildSchema(sdl)
        } catch {
            let text = (error as? GraphQL.GraphQLError)?.message ?? "\(error)"
            let first =
                text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? text
            throw GraphQLStoreError(.schema, "The schema is not valid SDL: \(first)")
        }
        var fieldTypes: [String: [String: String]] = [:]
        var possibleTypes: [String: Set<String>] = [:]
        for (name, type) in schema.typeMap where !name.hasPrefix("__") {
            switch type {
            case let object as GraphQLObjectType:
                fieldTypes[name] = Self.namedTypes(of: (try? object.fields()) ?? [:])
                for interface in (try? object.interfaces()) ?? [] {
                    possibleTypes[interface.name, default: []].insert(name)
                }
            case let interface as GraphQLInterfaceType:
                fieldTypes[name] = Self.namedTypes(of: (try? interface.fields()) ?? [:])
            case let union as GraphQLUnionType:
                possibleTypes[name, default: []].formUnion(((try? union.types()) ?? []).map(\.name))
            default:
                break
            }
        }
        self.fieldTypes = fieldTypes
        self.possibleTypes = possibleTypes
        self.queryType = schema.queryType?.name
        self.mutationType = schema.mutationType?.name
        self.subscriptionType = schema.subscriptionType?.name
    }

    private static func namedTypes(of fields: GraphQLFieldMap) -> [String: String] {
        var types: [String: String] = [:]
        for (name, field) in fields {
            if let named = getNamedType(type: field.type) { types[name] = named.name }
        }
        return types
    }

    /// The named type of a field of a type, or `nil` when unknown.
    func type(ofField field: String, in type: String) -> String? {
        fieldTypes[type]?[field]
    }

    /// Whether a type (object or interface) has an `id` field.
    func hasIDField(_ type: String) -> Bool {
        fieldTypes[type]?["id"] != nil
    }
}
