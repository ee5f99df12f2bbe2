@testable import PagingGraphQL
@testable import PagingGraphQLClient

/// A Relay connection query with all four pagination arguments; a `nil`
/// argument is left out of the variables sent.
struct TodosQuery: GraphQLOperation {
    struct Variables: Encodable, Sendable, Hashable {
        var first: Int?
        var after: String?
        var last: Int?
        var before: String?
    }
    struct Data: Decodable, Sendable {
        var todos: Connection<Todo>
    }

    let document = """
        query Todos($first: Int, $after: String, $last: Int, $before: String) {
          todos(first: $first, after: $after, last: $last, before: $before) {
            edges { cursor node { id text } }
            pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
          }
        }
        """
    var operationName: String? { "Todos" }
    var variables: Variables

    init(first: Int? = nil, after: String? = nil, last: Int? = nil, before: String? = nil) {
        variables = Variables(first: first, after: after, last: last, before: before)
    }
}

/// A first page with more around it than the paginated query: the viewer's
/// name and their todos.
struct ViewerTodosQuery: GraphQLOperation {
    struct Variables: Encodable, Sendable { var first: Int }
    struct Data: Decodable, Sendable {
        struct Viewer: Decodable, Sendable { var name: String; var todos: Connection<Todo> }
        var viewer: Viewer
    }

    let document = """
        query ViewerTodos($first: Int) {
          viewer { name todos(first: $first) { edges { cursor node { id text } } pageInfo { hasNextPage endCursor } } }
        }
        """
    var operationName: String? { "ViewerTodos" }
    var variables: Variables
}

/// An offset/limit query: `feed(offset:limit:)` returns a plain list.
struct TodoFeedQuery: GraphQLOperation {
    struct Variables: Encodable, Sendable, Hashable { var offset: Int; var limit: Int }
    struct Data: Decodable, Sendable { var feed: [Todo] }

    let document =
        "query Feed($offset: Int!, $limit: Int!) { feed(offset: $offset, limit: $limit) { id text } }"
    var operationName: String? { "Feed" }
    var variables: Variables

    init(offset: Int, limit: Int) {
        variables = Variables(offset: offset, limit: limit)
    }
}

extension RelayList {
    /// Answers `Todos` at `data.todos`, `ViewerTodos` at `data.viewer.todos`
    /// and `Feed` with a slice of the list.
    func todosServer() -> FakeGraphQLServer {
        let list = self
        return FakeGraphQLServer { request in
            switch request.operationName {
            case "ViewerTodos":
                return list.answer(request) { ["viewer": ["name": "Ada", "todos": $0]] }
            case "Feed":
                let offset = request.variables["offset"]?.intValue ?? 0
                let limit = request.variables["limit"]?.intValue ?? 0
                let range = min(offset, list.ids.count)..<min(offset + limit, list.ids.count)
                return ["data": ["feed": .array(range.map(list.node))]]
            default:
                return list.answer(request) { ["todos": $0] }
            }
        }
    }
}
