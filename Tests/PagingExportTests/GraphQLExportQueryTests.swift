import Foundation
import PagingGraphQLClient
import Testing

@testable import PagingExport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client no test sends through.
private let unusedClient = GraphQLClient(
    endpoint: URL(filePath: "/unused/graphql"), transport: UnusedTransport())

@Suite("GraphQLExportQuery: what an export makes of a query")
struct GraphQLExportQueryTests {
    @Test("a literal first: is kept: every page asks for it, and the export's page size becomes it")
    func literalCount() throws {
        let gh = """
            query($endCursor: String) {
              viewer { repositories(first: 100, after: $endCursor) { nodes { name } pageInfo { hasNextPage endCursor } } }
            }
            """
        let query = try GraphQLExportQuery(gh)
        #expect(query.fixedPageSize(backward: false) == 100)
        #expect(query.fixedPageSize(backward: true) == nil)
        #expect(query.innerConnections.isEmpty && !query.canFlatten)
        let source = try GraphQLConnectionSource(
            client: unusedClient, document: query.connection, variables: [:], backward: false)
        #expect(source.fixedCount == 100)
        #expect(source.requestVariables(cursor: "c", count: 7) == ["endCursor": "c"])
        let exporter = try Exporter(
            client: unusedClient, query: query, settings: Exporter.Settings(pageSize: 7))
        #expect(exporter.settings.pageSize == 100)
    }

    @Test("a count that is a variable is the export's page size; the other direction's variables are null")
    func variableCount() throws {
        let own =
            "query($first: Int = 20, $after: String, $last: Int, $before: String) { launchConnection(first: $first, after: $after, last: $last, before: $before) { nodes { id } pageInfo { hasNextPage endCursor } } }"
        let query = try GraphQLExportQuery(own)
        #expect(query.fixedPageSize(backward: false) == nil)
        let source = try GraphQLConnectionSource(
            client: unusedClient, document: query.connection, variables: ["x": 1], backward: false)
        #expect(source.fixedCount == nil)
        #expect(
            source.requestVariables(cursor: nil, count: 7)
                == ["x": 1, "first": 7, "after": nil, "last": nil, "before": nil])
        let backward = try GraphQLConnectionSource(
            client: unusedClient, document: query.connection, variables: [:], backward: true)
        #expect(
            backward.requestVariables(cursor: "c", count: 3)
                == ["first": nil, "after": nil, "last": 3, "before": "c"])
    }

    @Test("a direction the connection cannot page in, or a layout the query cannot have, is refused up front")
    func refusals() throws {
        let forwardOnly = try GraphQLExportQuery(
            "query($first: Int, $after: String) { launchConnection(first: $first, after: $after) { nodes { id } } }"
        )
        #expect {
            try Exporter(client: unusedClient, query: forwardOnly, backward: true)
        } throws: { error in
            (error as? ExportError)?.code == .unpageableQuery
                && (error as? ExportError)?.message.contains("add `last: $last, before: $before`") == true
        }
        #expect {
            try Exporter(client: unusedClient, query: forwardOnly, layout: .flattened)
        } throws: { error in
            (error as? ExportError)?.code == .unsupportedLayout
        }
        #expect {
            try GraphQLExportQuery("query { launchConnection(first: 2) { nodes { id } } }")
        } throws: { error in
            (error as? ExportError)?.code == .unpageableQuery
                && (error as? ExportError)?.message.hasPrefix("the query cannot be paged: ") == true
        }
        let nested = try GraphQLExportQuery(NestedDocumentTests.github)
        #expect(nested.innerConnections == ["issues", "comments"] && nested.canFlatten)
        #expect {
            try Exporter(client: unusedClient, query: nested, partialData: .accept { _, _ in })
        } throws: { error in
            (error as? ExportError)?.code == .unsupportedLayout
        }
        #expect {
            try Exporter(client: unusedClient, query: nested, concurrency: 0)
        } throws: { error in
            (error as? ExportError)?.code == .invalidSettings
        }
        let clash = try GraphQLExportQuery(
            NestedDocumentTests.github.replacingOccurrences(
                of: "{ nodes { body } }", with: "{ nodes { parentId: body } }"))
        #expect {
            try Exporter(client: unusedClient, query: clash, layout: .flattened)
        } throws: { error in
            (error as? ExportError)?.message.contains("give that field an alias") == true
        }
        #expect(try Exporter(client: unusedClient, query: clash, layout: .nested).nested != nil)
    }

    @Test(
        "errors are traced to the nodes they null a field of, and to the nodes they null, in a nodes list too"
    )
    func errorReach() throws {
        let document = try ConnectionDocument(
            inferringConnectionIn:
                "query($first: Int, $after: String) { viewer { fleets(first: $first, after: $after) { nodes { id ships { name } } pageInfo { hasNextPage endCursor } } } }"
        )
        let data: JSONValue = [
            "viewer": ["fleets": ["nodes": [["id": "1", "ships": nil], nil, ["id": "3", "ships": nil]]]]
        ]
        let errors = [
            GraphQLResponseError(message: "a", path: ["viewer", "fleets", "nodes", 0, "ships"]),
            GraphQLResponseError(message: "b", path: ["viewer", "fleets", "nodes", 1]),
            GraphQLResponseError(message: "c", path: ["viewer", "fleets", "nodes", 2, "ships", 0, "name"]),
            GraphQLResponseError(message: "d", path: ["viewer", "fleets", "pageInfo"]),
            GraphQLResponseError(message: "e"),
        ]
        let reach = GraphQLConnectionSource.reach(of: errors, in: data, document: document)
        #expect(reach.nodes == [0, 1])
        #expect(reach.missing == 1)
    }
}

@Suite("The analysis of a query with connections inside connections")
struct NestedDocumentTests {
    static let github = """
        query Export($owner: String!, $after: String, $issues: String, $comments: String) {
          organization(login: $owner) {
            repositories(first: 50, after: $after) @connection(key: "repos") {
              nodes {
                name
                ...IssueList
              }
            }
          }
        }
        fragment IssueList on Repository {
          issues(first: 100, after: $issues, states: OPEN) @connection(key: "issues") {
            edges { node { number comments(first: 100, after: $comments) @connection(key: "comments") { nodes { body } } } }
          }
        }
        """

    @Test("three levels: each gets a node(id:) query with only the path, variables and fragments it uses")
    func threeLevels() throws {
        let document = try #require(try NestedDocument.make(Self.github, operationName: nil))
        #expect(document.root.connectionFieldName == "repositories")
        #expect(document.root.variables.fixedFirst == 50)
        #expect(document.levels.map(\.name) == ["issues", "comments"])
        #expect(document.levels.map(\.depth) == [1, 2])
        #expect(document.isChain)
        #expect(document.innermostKeys == ["body"])
        #expect(!document.text.contains("@connection") && !document.text.contains("paging_connection_mark"))
        #expect(document.text.contains("paging_id: id"))
        #expect(document.text.contains("paging_type: __typename"))
        #expect(document.declaredVariables == ["owner", "after", "issues", "comments"])

        let issues = try document.levels[0].nodeQuery(type: "Repository")
        #expect(issues.text.contains("paging_node: node(id: $paging_id)"))
        #expect(issues.text.contains("... on Repository"))
        #expect(issues.text.contains("states: OPEN"))
        // The owner and the repositories' cursor are not used by it: declaring them would be an error.
        #expect(issues.declaredVariables == ["paging_id", "issues", "comments"])
        #expect(!issues.text.contains("fragment IssueList"))
        #expect(issues.document.connectionPath == [.key("paging_node"), .key("issues")])
        #expect(issues.document.variables.after == "issues")
        #expect(issues.document.variables.fixedFirst == 100)
        // The comments inside each issue are asked with their ids, to page them in turn.
        #expect(issues.text.contains("paging_id: id"))

        let comments = try document.levels[1].nodeQuery(type: "Issue")
        #expect(comments.text.contains("... on Issue"))
        #expect(comments.declaredVariables == ["paging_id", "comments"])
        #expect(comments.document.connectionPath == [.key("paging_node"), .key("comments")])
        #expect(!comments.text.contains("paging_id: id"))
        #expect(throws: ExportError.self) { try document.levels[1].nodeQuery(type: "Is sue") }
        // Each query is made once for a type.
        #expect(try document.levels[1].nodeQuery(type: "Issue").text == comments.text)
    }

    @Test("a path through fields with arguments, inline fragments and a spread is kept step by step")
    func pathSteps() throws {
        let text = """
            query($a: String, $b: String, $since: Int) {
              rocketConnection(first: 2, after: $a) @connection(key: "r") {
                nodes {
                  ... on Rocket @include(if: true) { details(since: $since) { ...Launches } }
                }
              }
            }
            fragment Launches on Details { launches(first: 3, after: $b) @connection(key: "l") { nodes { id } } }
            """
        let document = try #require(try NestedDocument.make(text, operationName: nil))
        let query = try document.levels[0].nodeQuery(type: "Rocket")
        #expect(query.document.connectionPath == [.key("paging_node"), .key("details"), .key("launches")])
        #expect(query.text.contains("... on Rocket @include(if: true)"))
        #expect(query.text.contains("details(since: $since)"))
        #expect(query.text.contains("... on Details"))
        #expect(query.declaredVariables == ["paging_id", "since", "b"])
    }

    @Test("a document that marks one connection, or none, is not nested")
    func notNested() throws {
        let none =
            "query($first: Int, $after: String) { launchConnection(first: $first, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }"
        #expect(try NestedDocument.make(none, operationName: nil) == nil)
        let one =
            "query($a: String) { launchConnection(first: 2, after: $a) @connection(key: \"x\") { nodes { id } } }"
        #expect(try NestedDocument.make(one, operationName: nil) == nil)
        #expect(try NestedDocument.make("not { graphql", operationName: nil) == nil)
    }

    @Test("an inner connection outside the nodes of the outer one, or reached twice, is refused")
    func refusals() {
        let outside = """
            query($a: String, $b: String) {
              rocketConnection(first: 2, after: $a) @connection(key: "r") {
                extra { launches(first: 2, after: $b) @connection(key: "l") { nodes { id } } }
                nodes { id }
              }
            }
            """
        #expect {
            try NestedDocument.make(outside, operationName: nil)
        } throws: { error in
            (error as? ExportError)?.message.contains(
                "but not inside its edges { node { ... } } or nodes { ... }") == true
        }
        let twice = """
            query($a: String, $b: String) {
              rocketConnection(first: 2, after: $a) @connection(key: "r") { nodes { ...L more: details { ...L } } }
            }
            fragment L on Rocket { launches(first: 2, after: $b) @connection(key: "l") { nodes { id } } }
            """
        #expect {
            try NestedDocument.make(twice, operationName: nil)
        } throws: { error in
            (error as? ExportError)?.message.contains("is reached twice") == true
        }
    }
}

/// A transport no test sends through.
private struct UnusedTransport: GraphQLTransport {
    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        throw URLError(.unsupportedURL)
    }
}
