import Foundation
import Paging
import PagingLock

@testable import PagingGraphQL
@testable import PagingGraphQLClient

/// A launch as the store-following tests' lists show it: its own fields and
/// its rocket, a record of its own that several launches share.
struct FollowedLaunch: Decodable, Identifiable, Hashable, Sendable {
    struct Rocket: Decodable, Hashable, Sendable {
        var id: String
        var name: String
    }

    var id: String
    var site: String?
    var isBooked: Bool
    var rocket: Rocket

    /// The node selection every list of these tests uses.
    static let selection = "id site isBooked rocket { id name }"
}

/// A launch server in memory for the tests of pagers that follow a store.
///
/// It keeps a table of launches `1`...`count` (newest first, as listed),
/// each with a site `Site N`, not booked, on rocket `falcon1` ("Falcon 1")
/// when N is odd and `falcon9` ("Falcon 9") when it is even. It pages the
/// table as the Relay connection
/// `launchConnection(first:after:last:before:)` (cursors
/// `cursor:<id>`), at the root or, for the refetch query
/// `LaunchListPaginationQuery`, under `node(id:) { trips }`; and it runs the
/// mutations `BookTrips`, `CancelTrip`, `DeleteLaunch`, `HideLaunch`,
/// `AddLaunch`, `RenameRocket` and `SetSite` against the table. Every object
/// it sends carries `__typename`, as a client with a store asks.
final class LaunchFleet: Sendable {
    struct Row: Hashable, Sendable {
        var id: String
        var site: String
        var isBooked: Bool
        var rocketID: String
    }

    private struct Table {
        var rows: [Row]
        var rockets: [String: String]
        var nextID: Int
    }

    /// The table, in a box the server's handler can share.
    private final class Box: Sendable {
        let table: Lock<Table>
        init(_ table: Table) { self.table = Lock(table) }
    }

    private let box: Box
    /// The server the clients talk to.
    let server: FakeGraphQLServer

    init(count: Int) {
        let rows = (1...count).map { number in
            Row(
                id: "\(number)", site: "Site \(number)", isBooked: false,
                rocketID: number % 2 == 1 ? "falcon1" : "falcon9")
        }
        let box = Box(
            Table(rows: rows, rockets: ["falcon1": "Falcon 1", "falcon9": "Falcon 9"], nextID: count + 1))
        self.box = box
        server = FakeGraphQLServer { request in
            box.table.withLock { table in ["data": Self.answer(request, table: &table)] }
        }
    }

    /// How many requests arrived.
    var requestCount: Int { server.received.count }

    /// The ids of the table, in list order.
    var ids: [String] { box.table.withLock { $0.rows.map(\.id) } }

    /// A launch as the server would send it now, `__typename` included.
    func json(of id: String) -> JSONValue? {
        box.table.withLock { table in
            table.rows.first { $0.id == id }.map { Self.node($0, rockets: table.rockets) }
        }
    }

    /// A launch as a list of the tests would show it after a fresh load.
    func launch(_ id: String) -> FollowedLaunch? {
        box.table.withLock { table in
            table.rows.first { $0.id == id }.map { row in
                FollowedLaunch(
                    id: row.id, site: row.site, isBooked: row.isBooked,
                    rocket: .init(id: row.rocketID, name: table.rockets[row.rocketID] ?? ""))
            }
        }
    }

    /// A client of this server with a store.
    func client(store: GraphQLStore) -> GraphQLClient {
        GraphQLClient(endpoint: testEndpoint, transport: server, store: store)
    }

    // MARK: Answers

    private static func node(_ row: Row, rockets: [String: String]) -> JSONValue {
        [
            "__typename": "Launch", "id": .string(row.id), "site": .string(row.site),
            "isBooked": .bool(row.isBooked),
            "rocket": [
                "__typename": "Rocket", "id": .string(row.rocketID),
                "name": .string(rockets[row.rocketID] ?? ""),
            ],
        ]
    }

    /// A page of the table by the Relay spec: the rows after `after` and
    /// before `before`, then the `first` of them, then the `last` of those.
    private static func connection(
        first: Int?, after: String?, last: Int? = nil, before: String? = nil, table: Table
    ) -> JSONValue {
        func index(of cursor: String) -> Int? {
            let id = cursor.hasPrefix("cursor:") ? String(cursor.dropFirst("cursor:".count)) : cursor
            return table.rows.firstIndex { $0.id == id }
        }
        var start = 0
        if let after { start = (index(of: after) ?? -1) + 1 }
        var end = table.rows.count
        if let before { end = max(start, index(of: before) ?? end) }
        if let first { end = min(end, start + first) }
        if let last { start = max(start, end - last) }
        let page = start < end ? Array(table.rows[start..<end]) : []
        return [
            "__typename": "LaunchConnection",
            "edges": .array(
                page.map { row in
                    [
                        "__typename": "LaunchEdge", "cursor": .string("cursor:\(row.id)"),
                        "node": node(row, rockets: table.rockets),
                    ]
                }),
            "pageInfo": [
                "__typename": "PageInfo",
                "hasNextPage": .bool(end < table.rows.count),
                "hasPreviousPage": .bool(start > 0),
                "startCursor": page.first.map { .string("cursor:\($0.id)") } ?? .null,
                "endCursor": page.last.map { .string("cursor:\($0.id)") } ?? .null,
            ],
        ]
    }

    private static func trips(_ ids: [String], booked: Bool, table: inout Table) -> JSONValue {
        var changed: [JSONValue] = []
        for id in ids {
            guard let index = table.rows.firstIndex(where: { $0.id == id }) else { continue }
            table.rows[index].isBooked = booked
            changed.append(["__typename": "Launch", "id": .string(id), "isBooked": .bool(booked)])
        }
        return [
            "__typename": "TripUpdateResponse", "success": .bool(changed.count == ids.count),
            "launches": .array(changed),
        ]
    }

    private static func answer(_ request: FakeGraphQLServer.Received, table: inout Table) -> JSONValue {
        let variables = request.variables
        switch request.operationName {
        case "BookTrips":
            let ids = variables["launchIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return ["bookTrips": trips(ids, booked: true, table: &table)]
        case "CancelTrip":
            let id = variables["launchId"]?.stringValue ?? ""
            return ["cancelTrip": trips([id], booked: false, table: &table)]
        case "DeleteLaunch":
            let id = variables["id"]?.stringValue ?? ""
            guard let index = table.rows.firstIndex(where: { $0.id == id }) else {
                return ["deleteLaunch": nil]
            }
            table.rows.remove(at: index)
            return ["deleteLaunch": .string(id)]
        case "HideLaunch":
            return ["hideLaunch": variables["id"] ?? nil]
        case "AddLaunch":
            let row = Row(
                id: "\(table.nextID)", site: variables["site"]?.stringValue ?? "",
                isBooked: false, rocketID: variables["rocketId"]?.stringValue ?? "falcon9")
            table.nextID += 1
            table.rows.insert(row, at: 0)
            return ["addLaunch": node(row, rockets: table.rockets)]
        case "RenameRocket":
            let id = variables["id"]?.stringValue ?? ""
            let name = variables["name"]?.stringValue ?? ""
            table.rockets[id] = name
            return ["renameRocket": ["__typename": "Rocket", "id": .string(id), "name": .string(name)]]
        case "SetSite":
            let id = variables["id"]?.stringValue ?? ""
            let site = variables["site"]?.stringValue ?? ""
            if let index = table.rows.firstIndex(where: { $0.id == id }) { table.rows[index].site = site }
            return ["setSite": ["__typename": "Launch", "id": .string(id), "site": .string(site)]]
        case "LaunchListPaginationQuery":
            let trips = connection(
                first: variables["count"]?.intValue, after: variables["cursor"]?.stringValue, table: table)
            return ["node": ["__typename": "User", "id": variables["id"] ?? nil, "trips": trips]]
        default:
            return [
                "launchConnection": connection(
                    first: variables["first"]?.intValue, after: variables["after"]?.stringValue,
                    last: variables["last"]?.intValue, before: variables["before"]?.stringValue, table: table)
            ]
        }
    }
}

/// The mutations of the store-following tests, untyped, as an app would
/// write them: each selects what the server sends for it.
enum FleetMutations {
    static func bookTrips(_ ids: [String]) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation BookTrips($launchIds: [ID]!) {
                  bookTrips(launchIds: $launchIds) { success launches { id isBooked } }
                }
                """,
            operationName: "BookTrips", variables: ["launchIds": .array(ids.map(JSONValue.string))])
    }

    static func cancelTrip(_ id: String) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation CancelTrip($launchId: ID!) {
                  cancelTrip(launchId: $launchId) { success launches { id isBooked } }
                }
                """,
            operationName: "CancelTrip", variables: ["launchId": .string(id)])
    }

    static func deleteLaunch(_ id: String) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation DeleteLaunch($id: ID!) { deleteLaunch(id: $id) @deleteRecord(typename: "Launch") }
                """,
            operationName: "DeleteLaunch", variables: ["id": .string(id)])
    }

    static func hideLaunch(_ id: String, from connection: String) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation HideLaunch($id: ID!) {
                  hideLaunch(id: $id) @deleteEdge(connections: ["\(connection)"], typename: "Launch")
                }
                """,
            operationName: "HideLaunch", variables: ["id": .string(id)])
    }

    /// `addLaunch` with `@appendNode` or `@prependNode` naming a connection.
    static func addLaunch(site: String, rocketID: String, directive: String, connection: String)
        -> UntypedOperation
    {
        UntypedOperation(
            document: """
                mutation AddLaunch($site: String!, $rocketId: ID!) {
                  addLaunch(site: $site, rocketId: $rocketId) @\(directive)(connections: ["\(connection)"]) {
                    \(FollowedLaunch.selection)
                  }
                }
                """,
            operationName: "AddLaunch", variables: ["site": .string(site), "rocketId": .string(rocketID)])
    }

    static func renameRocket(_ id: String, to name: String) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation RenameRocket($id: ID!, $name: String!) { renameRocket(id: $id, name: $name) { id name } }
                """,
            operationName: "RenameRocket", variables: ["id": .string(id), "name": .string(name)])
    }
}

extension Pager {
    /// The changes of the snapshots a body publishes, in order: the pager's
    /// snapshot stream is buffered, so every snapshot published while the
    /// body runs is read back after it, and none after.
    func changes(
        isolation: isolated (any Actor)? = #isolation, during body: () async throws -> Void
    ) async rethrows -> [ListChange] {
        var snapshots = self.snapshots.makeAsyncIterator()
        let start = await snapshots.next()?.version ?? snapshot.version
        try await body()
        let end = snapshot.version
        var changes: [ListChange] = []
        var version = start
        while version < end, let next = await snapshots.next() {
            changes.append(next.change)
            version = next.version
        }
        return changes
    }
}
