import Foundation
import GraphQL
import Testing

@testable import LaunchServer

/// Starts a server with the given configuration, runs `body`, and stops the server whatever
/// happens.
@discardableResult
func withLaunchServer<T>(
    _ configure: (inout LaunchServerConfiguration) -> Void = { _ in },
    _ body: (LaunchServer) async throws -> T
) async throws -> T {
    var configuration = LaunchServerConfiguration()
    // A test's socket sends `connection_init` at once; on a busy machine the server's three
    // seconds for it ran out first (RELIABILITY.md, "Under load"). The test of that wait sets its own.
    configuration.subscriptionInitTimeout = .seconds(600)
    configure(&configuration)
    return try await LaunchServer.withRunning(configuration, body)
}

/// A GraphQL response decoded into test types.
struct GraphQLResponse<Payload: Decodable>: Decodable {
    let data: Payload?
    let errors: [GraphQLErrorBody]?

    /// The messages of the errors, or none.
    var messages: [String] { errors?.map(\.message) ?? [] }
}

/// One error of a GraphQL response.
struct GraphQLErrorBody: Decodable {
    let message: String
    let extensions: [String: String]?
}

extension LaunchServer {
    /// Runs a GraphQL document against the schema directly (no HTTP) and decodes the result.
    func graphQL<Payload: Decodable>(
        _ query: String,
        variables: [String: Map] = [:],
        as type: Payload.Type = Payload.self
    ) async throws -> GraphQLResponse<Payload> {
        let result = await api.run(
            GraphQLRequest(query: query, variables: variables), context: LaunchContext(store: store))
        let data = try GraphQLJSONEncoder().encode(result)
        return try JSONDecoder().decode(GraphQLResponse<Payload>.self, from: data)
    }
}

/// The fields of a launch the tests read.
struct LaunchBody: Decodable, Hashable {
    let id: String
    let site: String?
    let mission: MissionBody?
    let isBooked: Bool?
}

/// The fields of a mission the tests read.
struct MissionBody: Decodable, Hashable {
    let name: String
}

/// A Relay connection page as the tests read it.
struct RelayPage: Decodable {
    struct Edge: Decodable {
        let cursor: String
        let node: LaunchBody
    }
    struct Info: Decodable, Equatable {
        let hasNextPage: Bool
        let hasPreviousPage: Bool
        let startCursor: String?
        let endCursor: String?
    }
    let edges: [Edge]
    let pageInfo: Info
    let totalCount: Int?

    /// The launch ids, in edge order.
    var ids: [String] { edges.map(\.node.id) }
}

extension LaunchServer {
    /// The `launchConnection` page of the arguments (`first: 3, after: "c"`), with
    /// ``relayPageSelection``; an error message in the response fails the test.
    func launchConnection(_ arguments: String) async throws -> RelayPage {
        struct Payload: Decodable {
            let launchConnection: RelayPage?
        }
        let response = try await graphQL(
            "{ launchConnection(\(arguments)) { \(relayPageSelection) } }", as: Payload.self)
        #expect(response.messages == [])
        return try #require(response.data?.launchConnection)
    }
}

/// The selection of a Relay page used throughout the tests.
let relayPageSelection = """
    edges { cursor node { id site mission { name } isBooked } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    totalCount
    """
