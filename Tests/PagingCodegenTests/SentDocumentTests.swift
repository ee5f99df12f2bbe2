import Foundation
import PagingGraphQL
import PagingGraphQLCore
import Testing

/// A document's definitions as GraphQLSwift prints them, by name.
func printedDefinitions(_ text: String) throws -> [String: String] {
    try DocumentAnalysis.printedDefinitions(text)
}

/// Records the requests a client sends, answering each with no data.
private final class RecordingTransport: GraphQLTransport {
    private let lock = NSLock()
    // Guarded by the lock.
    nonisolated(unsafe) private var bodies: [[String: Any]] = []

    var queries: [String] {
        lock.withLock { bodies.compactMap { $0["query"] as? String } }
    }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let body = try JSONSerialization.jsonObject(with: request.body) as? [String: Any] ?? [:]
        lock.withLock { bodies.append(body) }
        return GraphQLHTTPResponse(statusCode: 200, body: Data(#"{"data": null}"#.utf8))
    }
}

// Issue 37: the request the client sends for a generated operation is the document the generator
// typed, so that a generated type never expects a shape other than the one the runtime asks for:
// the pagers complete a connection and strip @connection by the same rules (one walker, one
// completion) as the generator did when it wrote the types.
@Suite("Codegen, the request sent is the document typed")
struct SentDocumentTests {
    static let endpoint = URL(string: "http://127.0.0.1:1/graphql")

    @Test("a generated operation is sent as its document, definition by definition")
    func operationsAreSentAsTyped() async throws {
        let transport = RecordingTransport()
        let client = GraphQLClient(endpoint: try #require(Self.endpoint), transport: transport)
        let operations: [any GraphQLOperation] = [
            LaunchListQuery(cursor: "c"), LaunchDetailsQuery(id: "1", withRocket: true),
            NodeByIDQuery(id: "1"),
            NodeMaybeRocketQuery(id: "1", rocket: true), RocketPageQuery(id: "falcon9"),
            RocketLaunchesQuery(id: "falcon9"), BookTripsMutation(launchIds: ["1"]), SearchQuery(),
        ]
        for operation in operations {
            // Answered with no data: a decoding error, after the request was recorded.
            try? await Self.send(operation, with: client)
        }
        let sent = transport.queries
        #expect(sent.count == operations.count)
        for (operation, query) in zip(operations, sent) {
            #expect(try printedDefinitions(query) == printedDefinitions(operation.document), "\(operation)")
        }
    }

    private static func send(_ operation: some GraphQLOperation, with client: GraphQLClient) async throws {
        _ = try await client.send(operation)
    }

    @Test("a @connection operation's list asks for what the operation's types hold")
    func connectionListsAskForTheTypedDocument() throws {
        let document = try ConnectionDocument(
            RocketLaunchesQuery.connectionDocument, operationName: "RocketLaunches")
        #expect(try printedDefinitions(document.text) == printedDefinitions(RocketLaunchesQuery.document))
    }

    @Test("a @refetchable fragment's refetch query asks for the fragments as the parent query does")
    func refetchQueryAsksForTheTypedFragments() throws {
        let fragment = try PaginationFragmentDocument(RocketLaunches_rocket.paginationDocument)
        let refetch = try printedDefinitions(fragment.text)
        let parent = try printedDefinitions(RocketPageQuery.document)
        let fragments = parent.keys.filter { $0.hasPrefix("fragment ") }
        #expect(!fragments.isEmpty)
        for name in fragments {
            #expect(refetch[name] == parent[name], "\(name)")
        }
    }
}
