// The context of PagingGraphQLClient.docc/GettingStarted.md's samples (scripts/check-doc-blocks.py):
// the app's token and endpoint, and the operations its samples send, as the code generator would
// write them.
import Foundation
import PagingGraphQLClient

let token: String = placeholder()
let url: URL = placeholder()
func show(_ title: String, _ message: String) {}

struct Todo: Decodable, Identifiable, Sendable { let id: String; let text: String }

/// `query Todos($first: Int, $after: String) { todos(first: $first, after: $after) { edges { node { id text } } pageInfo { hasNextPage endCursor } } }`
struct TodosQuery: GraphQLOperation {
    struct Data: Decodable, Sendable { let todos: Connection<Todo> }
    struct Variables: Encodable, Sendable { let first: Int; let after: String? }
    let variables: Variables
    init(first: Int, after: String?) { variables = Variables(first: first, after: after) }
    var document: String {
        "query Todos($first: Int, $after: String) { todos(first: $first, after: $after) { edges { node { id text } } pageInfo { hasNextPage endCursor } } }"
    }
    var operationName: String? { "Todos" }
}

struct FeedItem: Decodable, Identifiable, Sendable { let id: String }

/// `query Feed($offset: Int, $limit: Int) { feed(offset: $offset, limit: $limit) { id } }`
struct FeedQuery: GraphQLOperation {
    struct Data: Decodable, Sendable { let feed: [FeedItem] }
    struct Variables: Encodable, Sendable { let offset: Int; let limit: Int }
    let variables: Variables
    init(offset: Int, limit: Int) { variables = Variables(offset: offset, limit: limit) }
    var document: String {
        "query Feed($offset: Int, $limit: Int) { feed(offset: $offset, limit: $limit) { id } }"
    }
    var operationName: String? { "Feed" }
}

struct ToDoItem: View {
    let todo: Todo
    var body: Never { return fatalError() }
}
