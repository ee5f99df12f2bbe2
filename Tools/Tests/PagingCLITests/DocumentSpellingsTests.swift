import Foundation
import GraphQL
import LaunchServer
import PagingGraphQL
import Testing

@testable import PagingCLI

@Suite("paging fetch takes documents written for other tools")
struct DocumentSpellingsTests {
    @Test("a literal first: of a field paged by cursor becomes a variable whose default is the literal")
    func rewritesLiteralCounts() throws {
        let gh = """
            query($endCursor: String) {
              viewer { repositories(first: 100, after: $endCursor) { nodes { name } pageInfo { hasNextPage endCursor } } }
            }
            """
        let rewritten = LiteralPageSize.rewrite(gh)
        #expect(
            rewritten == """
                query($endCursor: String, $paging_first_1: Int = 100) {
                  viewer { repositories(first: $paging_first_1, after: $endCursor) { nodes { name } pageInfo { hasNextPage endCursor } } }
                }
                """)
        _ = try GraphQL.parse(source: rewritten)
        // A one-level export needs no rewrite: the library's analysis keeps the literal.
        let document = try PageableDocument.make(gh, connectionKey: nil, operationName: nil)
        #expect(document.variables.first == nil)
        #expect(document.variables.fixedFirst == 100)
        #expect(document.variables.after == "endCursor")
        let source = try GraphQLExportSource(
            client: GraphQLClient(
                endpoint: URL(string: "http://127.0.0.1:1/graphql")!, transport: UnusedTransport()),
            document: document, variables: [:], backward: false)
        #expect(source.fixedCount == 100)
        #expect(source.requestVariables(cursor: "c", count: 7) == ["endCursor": "c"])
    }

    @Test("a count that is already a variable, or of a field not paged by cursor, is left as it is")
    func leavesOthersAlone() throws {
        let own =
            "query($first: Int = 20, $after: String) { launchConnection(first: $first, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }"
        #expect(LiteralPageSize.rewrite(own) == own)
        let document = try PageableDocument.make(own, connectionKey: nil, operationName: nil)
        #expect(LiteralPageSize.fixedCount(of: document, backward: false) == nil)
        let unpaged = "query($id: ID!) { rocket(id: $id) { launches(first: 3) { nodes { id } } } }"
        #expect(LiteralPageSize.rewrite(unpaged) == unpaged)
        #expect(LiteralPageSize.rewrite("not { graphql") == "not { graphql")
    }

    @Test("every literal of every paged field gets its own variable, in a named operation with none")
    func severalLiterals() throws {
        let text = """
            query Rockets($after: String, $before: String) {
              a: launchConnection(first: 5, after: $after) { nodes { id } }
              b: launchConnection(last: 7, before: $before) { nodes { id } }
            }
            """
        let rewritten = LiteralPageSize.rewrite(text)
        #expect(rewritten.contains("$before: String, $paging_first_1: Int = 5, $paging_last_2: Int = 7)"))
        #expect(rewritten.contains("a: launchConnection(first: $paging_first_1, after: $after)"))
        #expect(rewritten.contains("b: launchConnection(last: $paging_last_2, before: $before)"))
        _ = try GraphQL.parse(source: rewritten)
    }

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

/// A transport no test sends through.
private struct UnusedTransport: GraphQLTransport {
    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        throw URLError(.unsupportedURL)
    }
}
