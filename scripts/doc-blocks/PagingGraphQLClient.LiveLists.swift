// The context of PagingGraphQLClient.docc/LiveLists.md's samples (scripts/check-doc-blocks.py).
import PagingGraphQLClient

let client: GraphQLClient = placeholder()
struct Launch: Decodable, Identifiable, Sendable {
    struct Mission: Decodable, Sendable { let name: String }
    let id: String
    let site: String?
    let mission: Mission?
}
