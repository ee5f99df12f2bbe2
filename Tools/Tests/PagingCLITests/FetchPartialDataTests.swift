import Foundation
import PagingGraphQL
import Testing

@testable import PagingCLI

/// The query the partial-data tests export: fleets, each with a nested connection of ships.
private let fleetsQuery = """
    query Fleets($first: Int, $after: String) {
      fleets(first: $first, after: $after) {
        edges { cursor node { id ships { nodes { name } } } }
        pageInfo { hasNextPage endCursor }
      }
    }
    """

private let nestedConnectionError =
    "You must provide a `first` or `last` value to properly paginate the `ships` connection."

/// A GraphQL server whose second page comes with errors next to its data, as a server answers a
/// nested connection asked without `first` or `last`: the first page is whole; on the second,
/// two fleets have `"ships": null` and a third fleet is `null`, each with an error.
private func fleets(_ request: ReceivedRequest, port: Int) -> CannedResponse {
    switch request.graphQLVariables["after"] as? String {
    case nil:
        return .json(
            """
            {"data": {"fleets": {
              "edges": [
                {"cursor": "a1", "node": {"id": "1", "ships": {"nodes": [{"name": "Endurance"}]}}},
                {"cursor": "c1", "node": {"id": "2", "ships": {"nodes": []}}}
              ],
              "pageInfo": {"hasNextPage": true, "endCursor": "c1"}}}}
            """)
    case "c1":
        return .json(
            """
            {"data": {"fleets": {
              "edges": [
                {"cursor": "a3", "node": {"id": "3", "ships": null}},
                {"cursor": "a4", "node": {"id": "4", "ships": null}},
                {"cursor": "c2", "node": null}
              ],
              "pageInfo": {"hasNextPage": false, "endCursor": "c2"}}},
             "errors": [
              {"message": "\(nestedConnectionError)", "locations": [{"line": 3, "column": 35}],
               "path": ["fleets", "edges", 0, "node", "ships"]},
              {"message": "\(nestedConnectionError)", "locations": [{"line": 3, "column": 35}],
               "path": ["fleets", "edges", 1, "node", "ships"]},
              {"message": "Fleet 5 is classified.", "path": ["fleets", "edges", 2, "node"]}
             ]}
            """)
    default:
        return .json(#"{"errors": [{"message": "unknown cursor"}]}"#)
    }
}

/// The objects of exported JSON Lines.
private func objects(inJSONLines text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw TestFailure("not an object: \(line)")
        }
        return object
    }
}

@Suite("paging fetch and GraphQL errors next to data")
struct FetchPartialDataTests {
    @Test(
        "a page with errors next to its data stops the export with exit 1, each error and the cursor to resume from"
    )
    func partialDataStopsTheExport() async throws {
        try await ScriptedHTTPServer.withRunning(answer: fleets) { server in
            let run = await Command.run([
                "fetch", "--endpoint", server.baseURL.absoluteString + "/graphql", "--query", fleetsQuery,
            ])
            #expect(run.status == 1)
            let exported = try ids(inJSONLines: run.standardOutput)
            #expect(exported == ["1", "2"])
            #expect(run.resumeCursor == "c1")
            let errors = run.standardError
            #expect(errors.contains("\(nestedConnectionError) (at fleets.edges[0].node.ships"), "\(errors)")
            #expect(errors.contains("\(nestedConnectionError) (at fleets.edges[1].node.ships"), "\(errors)")
            #expect(errors.contains("Fleet 5 is classified. (at fleets.edges[2].node)"), "\(errors)")
            #expect(errors.contains("--allow-partial"), "\(errors)")
            #expect(!errors.contains("done"), "\(errors)")
        }
    }

    @Test("--allow-partial exports the data with its nulls, warns with each error and counts what was nulled")
    func allowPartialKeepsTheData() async throws {
        try await ScriptedHTTPServer.withRunning(answer: fleets) { server in
            let run = await Command.run([
                "fetch", "--endpoint", server.baseURL.absoluteString + "/graphql", "--query", fleetsQuery,
                "--allow-partial",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            let exported = try objects(inJSONLines: run.standardOutput)
            #expect(exported.compactMap { $0["id"] as? String } == ["1", "2", "3", "4"])
            #expect(exported.filter { $0["ships"] is NSNull }.count == 2)
            let errors = run.standardError
            #expect(errors.contains("warning"), "\(errors)")
            #expect(errors.contains("\(nestedConnectionError) (at fleets.edges[1].node.ships"), "\(errors)")
            #expect(errors.contains("Fleet 5 is classified. (at fleets.edges[2].node)"), "\(errors)")
            #expect(errors.contains("3 errors"), "\(errors)")
            #expect(errors.contains("2 items were written with null"), "\(errors)")
            #expect(errors.contains("1 item was null"), "\(errors)")
        }
    }

    @Test("--resume --allow-partial continues a stopped export with the page that had errors")
    func resumeWithAllowPartial() async throws {
        try await ScriptedHTTPServer.withRunning(answer: fleets) { server in
            let arguments = [
                "fetch", "--endpoint", server.baseURL.absoluteString + "/graphql", "--query", fleetsQuery,
            ]
            let first = await Command.run(arguments)
            let cursor = try #require(first.resumeCursor)
            let second = await Command.run(arguments + ["--resume", cursor, "--allow-partial"])
            #expect(second.status == 0, "\(second.standardError)")
            let all = try ids(inJSONLines: first.standardOutput) + ids(inJSONLines: second.standardOutput)
            #expect(all == ["1", "2", "3", "4"])
        }
    }
}
