import Paging
import PagingTestSupport
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

/// The getting-started article's first example: the Apollo tutorial's
/// `launches(pageSize:after:)` paged with `HasMoreCursorSource`.
@Suite("The tutorial's launch list over GraphQL", .timeLimit(.minutes(HangLimit.minutes(1))))
struct TutorialLaunchListTests {
    struct Launch: Decodable, Identifiable, Sendable { var id: String; var mission: String }

    struct LaunchListQuery: GraphQLOperation {
        struct Variables: Encodable, Sendable { var pageSize: Int; var after: String? }
        struct Data: Decodable, Sendable { var launches: HasMoreConnection<Launch> }
        let document = """
            query LaunchList($pageSize: Int, $after: String) {
              launches(pageSize: $pageSize, after: $after) { cursor hasMore launches { id mission } }
            }
            """
        var operationName: String? { "LaunchList" }
        var variables: Variables
    }

    static let missions = ["Starlink-15", "Sentinel-6", "Crew-1", "Thaicom 6", "FalconSat"]

    /// Answers the tutorial's shape: the cursor is the index of the last
    /// launch sent; the list goes from newest to oldest.
    static func server(failing: [Int: JSONValue] = [:]) -> FakeGraphQLServer {
        FakeGraphQLServer { request in
            let start = request.variables["after"]?.stringValue.flatMap(Int.init).map { $0 + 1 } ?? 0
            if let failure = failing[start] { return failure }
            let end = min(start + (request.variables["pageSize"]?.intValue ?? 20), missions.count)
            let launches = (start..<end).map { index -> JSONValue in
                ["id": .string("\(109 - index)"), "mission": .string(missions[index])]
            }
            return [
                "data": [
                    "launches": [
                        "cursor": .string("\(end - 1)"), "hasMore": .bool(end < missions.count),
                        "launches": .array(launches),
                    ]
                ]
            ]
        }
    }

    static func source(_ client: GraphQLClient) -> HasMoreCursorSource<String, Launch> {
        HasMoreCursorSource<String, Launch> { pageSize, cursor in
            let response = try await client.send(
                LaunchListQuery(variables: .init(pageSize: pageSize, after: cursor)))
            guard let launches = response.data?.launches else {
                return HasMorePage(items: [], cursor: nil, hasMore: false)
            }
            return HasMorePage(items: Array(launches), cursor: launches.cursor, hasMore: launches.hasMore)
        }
    }

    @Test("loads more until hasMore is false; the last launch is FalconSat")
    func loadsToTheEnd() async throws {
        let server = Self.server()
        let pager = Pager(
            source: Self.source(GraphQLClient(endpoint: testEndpoint, transport: server)),
            configuration: try PagingConfiguration(pageSize: 2))
        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.map(\.mission) == Self.missions)
        #expect(pager.items.last?.mission == "FalconSat")
        #expect(
            server.sentVariables == [
                ["pageSize": 2], ["pageSize": 2, "after": "1"], ["pageSize": 2, "after": "3"],
            ])
    }

    @Test("tells GraphQL errors and network errors apart, keeping the launches loaded")
    func showsErrorsApart() async throws {
        let server = Self.server(failing: [2: ["errors": [["message": "Rate limited"]]]])
        let pager = Pager(
            source: Self.source(GraphQLClient(endpoint: testEndpoint, transport: server)),
            configuration: try PagingConfiguration(pageSize: 2))
        #expect(try await pager.loadNext().value == .loaded)

        await #expect {
            try await pager.loadNext().value
        } throws: { error in
            ((error as? PagingError)?.underlyingError as? GraphQLClientError)?.code == .graphQLErrors
        }
        server.failNext()
        await #expect {
            try await pager.retry().value
        } throws: { error in
            ((error as? PagingError)?.underlyingError as? GraphQLClientError)?.code == .transport
        }
        #expect(pager.items.count == 2)
    }
}
