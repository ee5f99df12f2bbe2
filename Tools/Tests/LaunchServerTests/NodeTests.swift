import GraphQL
import Testing

@testable import LaunchServer

/// The `Node` interface, `node(id:)`, and a Relay pagination fragment on `Rocket.launches`.
@Suite("Nodes and refetchable fragments")
struct NodeTests {
    struct Payload: Decodable {
        struct Node: Decodable {
            let __typename: String
            let id: String
            let name: String?
            let mission: MissionBody?
            let launches: RelayPage?
        }
        let node: Node?
    }

    @Test("node(id:) fetches a launch or a rocket again, and null for an unknown id")
    func fetchesNodes() async throws {
        try await withLaunchServer { server in
            let query = """
                query($id: ID!) { node(id: $id) { __typename id
                    ... on Launch { mission { name } }
                    ... on Rocket { name } } }
                """
            let launch = try await server.graphQL(query, variables: ["id": "1"], as: Payload.self)
            #expect(launch.data?.node?.__typename == "Launch")
            #expect(launch.data?.node?.mission?.name == "FalconSat")

            let rocket = try await server.graphQL(query, variables: ["id": "falcon9"], as: Payload.self)
            #expect(rocket.data?.node?.__typename == "Rocket")
            #expect(rocket.data?.node?.name == "Falcon 9")

            let numeric = try await server.graphQL(
                query, variables: ["id": .number(Number(1))], as: Payload.self)
            #expect(numeric.data?.node?.id == "1", "ID accepts integer input")

            let unknown = try await server.graphQL(query, variables: ["id": "nothing"], as: Payload.self)
            #expect(unknown.data != nil && unknown.data?.node == nil && unknown.errors == nil)
        }
    }

    @Test("a refetchable pagination fragment pages through a rocket's launches")
    func pagesAFragment() async throws {
        try await withLaunchServer { server in
            let query = """
                query RocketLaunchesPagination($id: ID!, $count: Int, $cursor: String) {
                  node(id: $id) { __typename id ... on Rocket {
                    launches(first: $count, after: $cursor) { \(relayPageSelection) } } }
                }
                """
            var seen: [String] = []
            var cursor: Map = .null
            while true {
                let response = try await server.graphQL(
                    query, variables: ["id": "falcon1", "count": .number(Number(2)), "cursor": cursor],
                    as: Payload.self)
                #expect(response.messages == [])
                let page = try #require(response.data?.node?.launches)
                #expect(page.totalCount == 5)
                seen += page.ids
                guard page.pageInfo.hasNextPage, let end = page.pageInfo.endCursor else { break }
                cursor = .string(end)
            }
            #expect(seen == ["5", "4", "3", "2", "1"])
        }
    }

    struct RocketsPayload: Decodable {
        struct Connection: Decodable {
            struct Edge: Decodable {
                struct Rocket: Decodable {
                    let id: String
                    let launches: RelayPage
                }
                let cursor: String
                let node: Rocket
            }
            let edges: [Edge]
            let pageInfo: RelayPage.Info
            let totalCount: Int
        }
        let rocketConnection: Connection
    }

    static let rocketsQuery = """
        query($first: Int, $after: String, $last: Int, $before: String) {
          rocketConnection(first: $first, after: $after, last: $last, before: $before) {
            edges { cursor node { id launches(first: 2) { \(relayPageSelection) } } }
            pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
            totalCount
          }
        }
        """

    @Test("rocketConnection pages every rocket by id, forward and backward, each with its launches")
    func pagesRockets() async throws {
        try await withLaunchServer { server in
            var forward: [String] = []
            var after: Map = .null
            while true {
                let response = try await server.graphQL(
                    Self.rocketsQuery, variables: ["first": .number(Number(2)), "after": after],
                    as: RocketsPayload.self)
                #expect(response.messages == [])
                let connection = try #require(response.data?.rocketConnection)
                #expect(connection.totalCount == 3)
                #expect(connection.pageInfo.hasPreviousPage == (after != .null))
                forward += connection.edges.map(\.node.id)
                for edge in connection.edges {
                    #expect(edge.node.launches.edges.count <= 2)
                    #expect(edge.node.launches.totalCount ?? 0 > 0)
                }
                guard connection.pageInfo.hasNextPage, let end = connection.pageInfo.endCursor else { break }
                after = .string(end)
            }
            #expect(forward == ["falcon1", "falcon9", "falconheavy"])

            let last = try await server.graphQL(
                Self.rocketsQuery, variables: ["last": .number(Number(2))], as: RocketsPayload.self)
            let lastPage = try #require(last.data?.rocketConnection)
            #expect(lastPage.edges.map(\.node.id) == ["falcon9", "falconheavy"])
            #expect(lastPage.pageInfo.hasPreviousPage && !lastPage.pageInfo.hasNextPage)
            let before = try await server.graphQL(
                Self.rocketsQuery,
                variables: [
                    "last": .number(Number(2)),
                    "before": .string(try #require(lastPage.pageInfo.startCursor)),
                ],
                as: RocketsPayload.self)
            #expect(before.data?.rocketConnection.edges.map(\.node.id) == ["falcon1"])
            #expect(before.data?.rocketConnection.pageInfo.hasNextPage == true)
        }
    }

    @Test("a cursor that is not a rocket's is refused, naming the argument")
    func refusesForeignCursors() async throws {
        try await withLaunchServer { server in
            let response = try await server.graphQL(
                Self.rocketsQuery, variables: ["first": .number(Number(1)), "after": "bm90LWEtcm9ja2V0"],
                as: RocketsPayload.self)
            #expect(response.data == nil)
            #expect(response.errors?.first?.extensions?["argument"] == "after")
            #expect(response.messages.first?.contains("not a rocket cursor") == true)
        }
    }
}
