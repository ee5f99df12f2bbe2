import Foundation
import Paging
import PagingGraphQL
import PagingLock
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingSQLite

/// A launch as the offline-first list keeps it: decoded from a node, stored as JSON.
private struct FileLaunch: Codable, Identifiable, Hashable, Sendable {
    var id: String
    var name: String
}

/// A server of a connection of launches `0..<count`, pages after a cursor `cN`, that renames a
/// launch when asked by a mutation.
private final class LaunchesServer: GraphQLTransport {
    private let names: Lock<[String]>
    let requests = Counter()

    init(count: Int) {
        names = Lock((0..<count).map { "Launch \($0)" })
    }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        requests.increment()
        let body = try JSONValue(json: request.body)
        let variables = body["variables"] ?? [:]
        if case .string(let query)? = body["query"], query.contains("renameLaunch") {
            guard case .string(let id)? = variables["id"], case .string(let name)? = variables["name"],
                let index = Int(id)
            else { throw URLError(.badURL) }
            names.withLock { $0[index] = name }
            return Self.answer(
                #"{"data":{"renameLaunch":{"__typename":"Launch","id":"\#(id)","name":"\#(name)"}}}"#)
        }
        let first = variables["first"]?.intValue ?? 3
        var start = 0
        if case .string(let cursor)? = variables["after"], let after = Int(cursor.dropFirst()) {
            start = after + 1
        }
        let names = self.names.withLock { $0 }
        let end = min(start + first, names.count)
        let edges = (start..<end).map {
            #"{"__typename":"LaunchEdge","cursor":"c\#($0)","node":{"__typename":"Launch","id":"\#($0)","name":"\#(names[$0])"}}"#
        }
        return Self.answer(
            #"{"data":{"launches":{"__typename":"LaunchConnection","edges":[\#(edges.joined(separator: ","))],"pageInfo":{"__typename":"PageInfo","endCursor":"c\#(end - 1)","hasNextPage":\#(end < names.count)}}}}"#
        )
    }

    private static func answer(_ text: String) -> GraphQLHTTPResponse {
        GraphQLHTTPResponse(statusCode: 200, body: Data(text.utf8))
    }
}

private let document = """
    query Launches($first: Int, $after: String) {
      launches(first: $first, after: $after) @connection(key: "File_launches") {
        edges { cursor node { id name } }
        pageInfo { endCursor hasNextPage }
      }
    }
    """

private func rename(_ id: String, to name: String) -> UntypedOperation {
    UntypedOperation(
        document:
            "mutation Rename($id: ID!, $name: String!) { renameLaunch(id: $id, name: $name) { id name } }",
        operationName: "Rename", variables: ["id": .string(id), "name": .string(name)])
}

@Suite(
    "OfflineFirstSource over a store-backed source follows the store",
    .timeLimit(.minutes(HangLimit.minutes(1))))
struct OfflineFirstFollowingTests {
    @Test("a mutation's answer updates the row of a page loaded from the network, with no request")
    func networkPagesFollow() async throws {
        let directory = try TemporaryDirectory()
        let server = LaunchesServer(count: 9)
        let client = GraphQLClient(
            endpoint: URL(fileURLWithPath: "/graphql"), transport: server, store: GraphQLStore())
        let remote = ConnectionSource(
            client: client, document: try ConnectionDocument(document), as: FileLaunch.self)
        let source = OfflineFirstSource(
            remote: remote, file: try LocalListFile(path: directory.file()), list: "launches")
        let pager = source.makePager(configuration: try PagingConfiguration(pageSize: 3, prefetchDistance: 0))
        #expect(try await pager.loadNext().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == ["0", "1", "2", "3", "4", "5"])
        #expect(server.requests.count == 2)

        let before = pager.snapshot.version
        // The follower edits the rows while the store takes the answer in, before `send` returns.
        _ = try await client.send(rename("4", to: "Renamed"))

        #expect(pager.snapshot.version == before + 1, "one change")
        #expect(pager.snapshot.change == ListChange(updated: [4..<5]))
        #expect(pager.items[4] == FileLaunch(id: "4", name: "Renamed"))
        #expect(pager.items.filter { $0.name == "Renamed" }.count == 1)
        #expect(server.requests.count == 3, "the mutation was the only request")
    }
}
