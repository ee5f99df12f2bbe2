import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Lists made over a client with a `GraphQLStore` follow the store, against the server on
/// loopback: a mutation sent through the same client changes the rows that show what it
/// changed, with no request but the mutation's.
@Suite("Lists follow the client's store, end to end", .timeLimit(.minutes(30)))
struct StoreFollowingEndToEndTests {
    static let connectionKey = "StoreFollowing_launches"

    /// `launchConnection` paged forward, keyed for the mutation directives.
    static let document = """
        query StoreFollowingLaunches($first: Int, $after: String) {
          launchConnection(first: $first, after: $after) @connection(key: "StoreFollowing_launches") {
            edges { node { \(Row.selection) } }
          }
        }
        """

    /// A row of the lists: a launch with its mission and its rocket (a record of its own).
    struct Row: Decodable, Identifiable, Hashable, Sendable {
        struct Mission: Decodable, Hashable, Sendable {
            var name: String
        }
        struct Rocket: Decodable, Hashable, Sendable {
            var id: String
            var name: String
        }

        var id: String
        var site: String?
        var isBooked: Bool
        var mission: Mission?
        var rocket: Rocket?

        static let selection = "id site isBooked mission { name } rocket { id name }"
    }

    /// A client of the server with a store, on its own ephemeral session, that counts its
    /// requests.
    static func storeClient(_ server: LaunchServer) -> (GraphQLClient, CountingTransport) {
        let transport = CountingTransport(wrapping: TestSession.transport)
        let client = GraphQLClient(
            endpoint: server.graphQLURL, timeout: patience, transport: transport, store: GraphQLStore())
        return (client, transport)
    }

    /// A list of launches over a client, loaded `pages` pages of `pageSize` deep.
    static func list(_ client: GraphQLClient, pageSize: Int, pages: Int) async throws -> Pager<String, Row> {
        let pager = ConnectionSource(client: client, document: try ConnectionDocument(document), as: Row.self)
            .makePager(configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0))
        for _ in 0..<pages {
            #expect(try await pager.loadNext().value == .loaded)
        }
        return pager
    }

    /// The first `count` rows as a fresh load by a client without a store shows them now.
    static func freshRows(_ server: LaunchServer, count: Int) async throws -> [Row] {
        let pager = try await list(server.client, pageSize: count, pages: 1)
        return Array(pager.items)
    }

    static func bookTrips(_ ids: [String]) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation StoreFollowingBook($launchIds: [ID]!) {
                  bookTrips(launchIds: $launchIds) { success message launches { id isBooked } }
                }
                """,
            operationName: "StoreFollowingBook", variables: ["launchIds": .array(ids.map(JSONValue.string))])
    }

    static func deleteLaunch(_ id: String) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation StoreFollowingDelete($id: ID!) { deleteLaunch(id: $id) @deleteRecord(typename: "Launch") }
                """,
            operationName: "StoreFollowingDelete", variables: ["id": .string(id)])
    }

    static func addLaunch(_ missionName: String) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation StoreFollowingAdd($missionName: String!, $rocketId: ID!) {
                  addLaunch(missionName: $missionName, rocketId: $rocketId)
                    @prependNode(connections: ["\(connectionKey)"]) { \(Row.selection) }
                }
                """,
            operationName: "StoreFollowingAdd",
            variables: ["missionName": .string(missionName), "rocketId": "falcon9"])
    }

    @Test(
        "bookTrips through the same client updates the booked row of two lists of different page sizes, with no refetch",
        arguments: [14, 3])
    func bookingUpdatesBothLists(index: Int) async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let (client, transport) = Self.storeClient(server)
            let tens = try await Self.list(client, pageSize: 10, pages: 2)
            let sevens = try await Self.list(client, pageSize: 7, pages: 3)
            #expect(tens.items.ids == Array(expected[0..<20]))
            #expect(sevens.items.ids == Array(expected[0..<21]))
            #expect(transport.count == 5)
            let id = expected[index]
            let before = Array(tens.items)
            #expect(before[index].isBooked == false)

            let response = try await client.send(Self.bookTrips([id]))

            #expect(response.storeError == nil)
            #expect(response.data?["bookTrips"]?["success"] == true)
            #expect(transport.count == 6, "the mutation was the only request")
            #expect(transport.operationNames.last == "StoreFollowingBook")
            #expect(tens.snapshot.change == ListChange(updated: [index..<index + 1]))
            #expect(sevens.snapshot.change == ListChange(updated: [index..<index + 1]))
            var booked = before
            booked[index].isBooked = true
            #expect(Array(tens.items) == booked, "the booked row changed, and no other")
            #expect(Array(sevens.items.prefix(20)) == booked)
            #expect(
                try await Self.freshRows(server, count: 20) == Array(tens.items),
                "the list shows what a refetch would")
        }
    }

    @Test("deleteLaunch with @deleteRecord removes the row from both lists, with no refetch")
    func deleteRecordRemovesTheRow() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let (client, transport) = Self.storeClient(server)
            let tens = try await Self.list(client, pageSize: 10, pages: 2)
            let sevens = try await Self.list(client, pageSize: 7, pages: 3)
            let index = 12
            let id = expected[index]

            let response = try await client.send(Self.deleteLaunch(id))

            #expect(response.storeError == nil)
            #expect(response.data?["deleteLaunch"] == .string(id))
            #expect(transport.count == 6)
            #expect(tens.snapshot.change == ListChange(removed: [index..<index + 1]))
            #expect(sevens.snapshot.change == ListChange(removed: [index..<index + 1]))
            let remaining = Array(expected[0..<21]).filter { $0 != id }
            #expect(tens.items.ids == Array(remaining.prefix(19)))
            #expect(sevens.items.ids == remaining)
            #expect(client.store?.record(for: CacheKey("Launch:\(id)")) == nil)
            #expect(try await Self.freshRows(server, count: 19) == Array(tens.items))
        }
    }

    @Test("addLaunch with @prependNode adds the new launch at the head of both lists, with no refetch")
    func prependNodeAddsTheLaunch() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let (client, transport) = Self.storeClient(server)
            let tens = try await Self.list(client, pageSize: 10, pages: 2)
            let sevens = try await Self.list(client, pageSize: 7, pages: 3)

            let response = try await client.send(Self.addLaunch("Store following"))

            #expect(response.storeError == nil)
            let added = try #require(response.data?["addLaunch"]?["id"]?.stringValue)
            #expect(!expected.contains(added))
            #expect(transport.count == 6)
            #expect(tens.snapshot.change == ListChange(inserted: [0..<1]))
            #expect(sevens.snapshot.change == ListChange(inserted: [0..<1]))
            #expect(tens.items.ids == [added] + expected[0..<20])
            #expect(sevens.items.ids == [added] + expected[0..<21])
            let head = try #require(tens.items.first)
            #expect(head.mission?.name == "Store following")
            #expect(head.rocket?.id == "falcon9")
            #expect(head.isBooked == false)
            #expect(try await Self.freshRows(server, count: 21) == Array(tens.items))

            // The added row follows the store like a loaded one.
            _ = try await client.send(Self.bookTrips([added]))
            #expect(tens.snapshot.change == ListChange(updated: [0..<1]))
            #expect(tens.items.first?.isBooked == true)
            #expect(sevens.items.first?.isBooked == true)
            #expect(transport.count == 7)
        }
    }
}
