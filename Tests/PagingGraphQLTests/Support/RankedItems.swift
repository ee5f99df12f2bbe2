import Foundation
import Paging
import PagingLock

@testable import PagingGraphQL
@testable import PagingGraphQLClient

/// An item of the membership tests: a score it is ranked by, and a tag its
/// lists filter by.
struct RankedItem: Decodable, Identifiable, Hashable, Sendable {
    var id: String
    var score: Int
    var tag: String
}

/// A server in memory for the membership tests: items ranked by score,
/// highest first (equal scores by ascending id), served as the Relay
/// connection `items(first:after:tag:search:)` with keyset cursors
/// (`score/id`: the next page starts right after that place, wherever the
/// item is now), filtered by `tag` when given and by `search` (a substring
/// of the tag) when given. Mutations: `SetItem(id, score, tag)`,
/// `CreateItem(score, tag)`, each answering with the item as it is now, and
/// `DeleteItem(id)`, answering with the id deleted.
final class RankedItemServer: Sendable {
    struct Row: Hashable, Sendable {
        var id: Int
        var score: Int
        var tag: String
    }

    private struct Table {
        var rows: [Int: Row] = [:]
        var nextID = 1
        /// Where the page served last for each tag stopped (`nil` at the
        /// end of the list), by tag (`""` for every tag).
        var lastPageEnd: [String: (score: Int, id: Int)?] = [:]
    }

    private let table: Lock<Table>
    /// The transport the clients talk to.
    let server: FakeGraphQLServer

    /// The connection's key in the lists' document.
    static let connection = "Ranked_items"

    /// The rule of the lists: filtered by tag, ranked by score.
    static let rule = ConnectionMembershipRule(
        connection: connection, typename: "Item", filter: .field("tag", equalsArgument: "tag"),
        order: [.descending("score"), .ascending("id", comparison: .numericText)])

    /// The lists' document.
    static let document = """
        query Items($first: Int, $after: String, $tag: String, $search: String) {
          items(first: $first, after: $after, tag: $tag, search: $search) @connection(key: "Ranked_items") {
            edges { cursor node { id score tag } }
          }
        }
        """

    init(_ rows: [(score: Int, tag: String)] = []) {
        var table = Table()
        for row in rows {
            table.rows[table.nextID] = Row(id: table.nextID, score: row.score, tag: row.tag)
            table.nextID += 1
        }
        let box = Lock(table)
        self.table = box
        server = FakeGraphQLServer { request in
            box.withLock { table in ["data": Self.answer(request, table: &table)] }
        }
    }

    /// How many requests arrived.
    var requestCount: Int { server.received.count }

    /// A client of this server with a store that knows the rule.
    func client(rules: [ConnectionMembershipRule] = [rule]) -> GraphQLClient {
        var configuration = GraphQLStore.Configuration()
        configuration.membershipRules = rules
        return GraphQLClient(
            endpoint: testEndpoint, transport: server, store: GraphQLStore(configuration: configuration))
    }

    /// A list of the items with a tag (every item for `nil`).
    static func list(
        _ client: GraphQLClient, tag: String? = nil, search: String? = nil, pageSize: Int = 3
    ) throws -> Pager<String, RankedItem> {
        var variables: [String: JSONValue] = [:]
        if let tag { variables["tag"] = .string(tag) }
        if let search { variables["search"] = .string(search) }
        return ConnectionSource(
            client: client, document: try ConnectionDocument(document), variables: variables,
            as: RankedItem.self
        ).makePager(configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0))
    }

    /// The rows in list order, filtered by tag.
    func rows(tag: String? = nil) -> [Row] {
        table.withLock { Self.ranked($0, tag: tag, search: nil) }
    }

    /// The ids of the items with a tag in list order, as the lists show them.
    func ids(tag: String? = nil) -> [String] { rows(tag: tag).map { String($0.id) } }

    /// Where the page served last for a tag stopped, as the place of its
    /// last item when served: the next page starts after it. `.some(nil)`
    /// when that page ended the list; `nil` when none was served.
    func lastPageEnd(tag: String?) -> (score: Int, id: Int)?? {
        table.withLock { $0.lastPageEnd[tag ?? ""] }
    }

    /// Whether a row comes before a place in list order.
    static func precedes(_ row: Row, _ place: (score: Int, id: Int)) -> Bool {
        row.score != place.score ? row.score > place.score : row.id < place.id
    }

    private static func ranked(_ table: Table, tag: String?, search: String?) -> [Row] {
        table.rows.values.filter { row in
            (tag == nil || row.tag == tag) && (search.map { row.tag.contains($0) } ?? true)
        }.sorted { precedes($0, (score: $1.score, id: $1.id)) }
    }

    private static func node(_ row: Row) -> JSONValue {
        [
            "__typename": "Item", "id": .string(String(row.id)), "score": .int(row.score),
            "tag": .string(row.tag),
        ]
    }

    private static func answer(_ request: FakeGraphQLServer.Received, table: inout Table) -> JSONValue {
        let variables = request.variables
        switch request.operationName {
        case "SetItem":
            guard let id = variables["id"]?.stringValue.flatMap({ Int($0) }), var row = table.rows[id] else {
                return ["setItem": nil]
            }
            if let score = variables["score"]?.intValue { row.score = score }
            if let tag = variables["tag"]?.stringValue { row.tag = tag }
            table.rows[id] = row
            return ["setItem": node(row)]
        case "SetItems":
            var answered: [JSONValue] = []
            for change in variables["changes"]?.arrayValue ?? [] {
                guard let id = change["id"]?.stringValue.flatMap({ Int($0) }), var row = table.rows[id] else {
                    continue
                }
                if let score = change["score"]?.intValue { row.score = score }
                if let tag = change["tag"]?.stringValue { row.tag = tag }
                table.rows[id] = row
                answered.append(node(row))
            }
            return ["setItems": .array(answered)]
        case "DeleteItem":
            guard let id = variables["id"]?.stringValue.flatMap({ Int($0) }), table.rows[id] != nil else {
                return ["deleteItem": nil]
            }
            table.rows[id] = nil
            return ["deleteItem": ["__typename": "DeleteItemPayload", "deletedId": .string(String(id))]]
        case "CreateItem":
            let row = Row(
                id: table.nextID, score: variables["score"]?.intValue ?? 0,
                tag: variables["tag"]?.stringValue ?? "")
            table.rows[row.id] = row
            table.nextID += 1
            return ["createItem": node(row)]
        default:
            let rows = ranked(
                table, tag: variables["tag"]?.stringValue, search: variables["search"]?.stringValue)
            var start = 0
            if let after = variables["after"]?.stringValue {
                let parts = after.split(separator: "/").compactMap { Int($0) }
                if parts.count == 2 {
                    let place = (score: parts[0], id: parts[1])
                    start =
                        rows.firstIndex { !precedes($0, place) && ($0.score, $0.id) != place } ?? rows.count
                }
            }
            let first = variables["first"]?.intValue ?? rows.count
            let page = Array(rows[start..<min(rows.count, start + first)])
            if variables["search"] == nil {
                let end =
                    start + page.count < rows.count ? page.last.map { (score: $0.score, id: $0.id) } : nil
                table.lastPageEnd[variables["tag"]?.stringValue ?? ""] = end
            }
            return [
                "items": [
                    "__typename": "ItemConnection",
                    "edges": .array(
                        page.map { row in
                            [
                                "__typename": "ItemEdge", "cursor": .string("\(row.score)/\(row.id)"),
                                "node": node(row),
                            ]
                        }),
                    "pageInfo": [
                        "__typename": "PageInfo",
                        "hasNextPage": .bool(start + page.count < rows.count),
                        "hasPreviousPage": .bool(start > 0),
                        "startCursor": page.first.map { .string("\($0.score)/\($0.id)") } ?? .null,
                        "endCursor": page.last.map { .string("\($0.score)/\($0.id)") } ?? .null,
                    ],
                ]
            ]
        }
    }
}

/// The mutations of the membership tests.
enum RankedMutations {
    static let selection = "id score tag"

    static func set(_ id: String, score: Int? = nil, tag: String? = nil) -> UntypedOperation {
        var variables: [String: JSONValue] = ["id": .string(id)]
        if let score { variables["score"] = .int(score) }
        if let tag { variables["tag"] = .string(tag) }
        return UntypedOperation(
            document: """
                mutation SetItem($id: ID!, $score: Int, $tag: String) {
                  setItem(id: $id, score: $score, tag: $tag) { \(selection) }
                }
                """,
            operationName: "SetItem", variables: variables)
    }

    /// Sets the score or tag of several items in one mutation, answered in one response.
    static func setMany(_ changes: [(id: String, score: Int?, tag: String?)]) -> UntypedOperation {
        let list: [JSONValue] = changes.map { change in
            var object: [String: JSONValue] = ["id": .string(change.id)]
            if let score = change.score { object["score"] = .int(score) }
            if let tag = change.tag { object["tag"] = .string(tag) }
            return .object(object)
        }
        return UntypedOperation(
            document: """
                mutation SetItems($changes: [ItemChange!]!) { setItems(changes: $changes) { \(selection) } }
                """,
            operationName: "SetItems", variables: ["changes": .array(list)])
    }

    /// Deletes an item: the store deletes its record (`@deleteRecord`), and every list drops it.
    static func delete(_ id: String) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation DeleteItem($id: ID!) {
                  deleteItem(id: $id) { __typename deletedId @deleteRecord(typename: "Item") }
                }
                """,
            operationName: "DeleteItem", variables: ["id": .string(id)])
    }

    static func create(score: Int, tag: String) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation CreateItem($score: Int!, $tag: String!) {
                  createItem(score: $score, tag: $tag) { \(selection) }
                }
                """,
            operationName: "CreateItem", variables: ["score": .int(score), "tag": .string(tag)])
    }
}
