// The GraphQL operations several documents' samples send, as the code generator would write them
// (scripts/check-doc-blocks.py includes this file for every document).
import PagingGraphQLClient

/// What the code generator writes for `query Launch($id: ID!) { launch(id: $id) { id site } }`.
struct LaunchQuery: GraphQLOperation {
    struct Data: Decodable, Sendable {
        struct Launch: Decodable, Sendable { let id: String; let site: String? }
        let launch: Launch?
    }
    struct Variables: Encodable, Sendable { let id: String }
    let variables: Variables
    init(id: String) { variables = Variables(id: id) }
    var document: String { "query Launch($id: ID!) { launch(id: $id) { id site } }" }
    var operationName: String? { "Launch" }
}

/// What the code generator writes for `mutation BookTrips($ids: [ID!]!) { bookTrips(launchIds: $ids) { success } }`.
struct BookTrips: GraphQLOperation {
    struct Data: Decodable, Sendable {
        struct Result: Decodable, Sendable { let success: Bool }
        let bookTrips: Result
    }
    struct Variables: Encodable, Sendable { let ids: [String] }
    let variables: Variables
    var document: String { "mutation BookTrips($ids: [ID!]!) { bookTrips(launchIds: $ids) { success } }" }
    var operationName: String? { "BookTrips" }
}
