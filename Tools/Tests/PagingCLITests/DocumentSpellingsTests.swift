import Foundation
import GraphQL
import LaunchServer
import PagingGraphQL
import Testing

@testable import PagingCLI

@Suite("paging fetch takes documents written for other tools")
struct DocumentSpellingsTests {
    @Test(
        "gh's and Apollo's spellings export every launch; a literal page size is kept, --page-size said unused",
        arguments: [
            "query($endCursor: String) { launchConnection(first: 25, after: $endCursor) { nodes { id } pageInfo { hasNextPage endCursor } } }",
            "query Launches($cursor: String) { launchConnection(first: 25, after: $cursor) { edges { node { id } } pageInfo { hasNextPage endCursor } } }",
            "query Launches($pageSize: Int, $after: String) { launchConnection(first: $pageSize, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }",
        ])
    func exportsOtherToolsDocuments(query: String) async throws {
        try await withLaunchServer { server in
            let expected = try await allLaunchIDs(server)
            let run = await Command.run([
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", query, "--page-size",
                "25",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(try ids(inJSONLines: run.standardOutput) == expected)
            #expect(run.standardError.contains("4 pages"), "\(run.standardError)")
            let literal = !query.contains("$pageSize")
            let resized = await Command.run([
                "fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", query, "--page-size",
                "50",
            ])
            #expect(resized.status == 0, "\(resized.standardError)")
            #expect(try ids(inJSONLines: resized.standardOutput) == expected)
            // A literal 25 is kept: four pages, and a note; a variable takes --page-size: two pages.
            #expect(
                resized.standardError.contains(literal ? "4 pages" : "2 pages"), "\(resized.standardError)")
            #expect(resized.standardError.contains("--page-size 50 is not used") == literal)
        }
    }
}
