// The context of PagingGraphQLClient.docc/Subscriptions.md's samples (scripts/check-doc-blocks.py).
import Foundation
import PagingGraphQL

protocol Session: Sendable { func token() async throws -> String }
let session: any Session = placeholder()
let endpoint: URL = placeholder()
let transport: any GraphQLTransport = placeholder()
let store: GraphQLStore = placeholder()

/// What the code generator writes for `subscription LaunchAdded { launchAdded { id mission } }`.
struct LaunchAddedSubscription: GraphQLOperation {
    struct Data: Decodable, Sendable {
        struct Launch: Decodable, Sendable { let id: String; let mission: String }
        let launchAdded: Launch?
    }
    struct Variables: Encodable, Sendable {}
    var document: String { "subscription LaunchAdded { launchAdded { id mission } }" }
    var operationName: String? { "LaunchAdded" }
    var variables: Variables { Variables() }
}
