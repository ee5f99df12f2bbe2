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
}
