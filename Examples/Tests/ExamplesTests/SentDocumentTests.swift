import Foundation
import GraphQL
import PagingGraphQL
import Testing

@testable import RelayRocketLaunches
@testable import TutorialLaunchList

/// A document's definitions as GraphQLSwift prints them, by name: what each asks, field by field.
private func definitions(_ text: String) throws -> [String: String] {
    var definitions: [String: String] = [:]
    for definition in try GraphQL.parse(source: text).definitions {
        if let operation = definition as? OperationDefinition {
            definitions["operation " + (operation.name?.value ?? "")] = GraphQL.print(ast: operation)
        } else if let fragment = definition as? FragmentDefinition {
            definitions["fragment " + fragment.name.value] = GraphQL.print(ast: fragment)
        }
    }
    return definitions
}

/// Keeps the query of every request, and answers it with no data.
private final class RecordingTransport: GraphQLTransport, @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private var queries: [String] = []
    private let lock = NSLock()
    var sent: [String] { lock.withLock { queries } }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let body = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
        lock.withLock { queries.append(body?["query"] as? String ?? "") }
        return GraphQLHTTPResponse(statusCode: 200, body: Data(#"{"data": null}"#.utf8))
    }
}

// Issue 37: what the library sends for the examples' generated types is what the generator typed.
@Suite("The examples' requests are the documents their types were generated from")
struct SentDocumentTests {
    @Test("the tutorial's LaunchListQuery and RocketQuery are sent as generated")
    func operations() async throws {
        let transport = RecordingTransport()
        let client = GraphQLClient(endpoint: URL(fileURLWithPath: "/graphql"), transport: transport)
        _ = try? await client.send(LaunchListQuery(cursor: "c"))
        _ = try? await client.send(RocketQuery(id: "falcon9"))
        #expect(transport.sent.count == 2)
        #expect(try definitions(transport.sent[0]) == definitions(LaunchListQuery.document))
        #expect(try definitions(transport.sent[1]) == definitions(RocketQuery.document))
    }

    @Test("the pagination fragment's refetch query asks for the fragment as RocketQuery does")
    func refetchQuery() throws {
        let refetch = try definitions(
            PaginationFragmentDocument(RocketLaunches_rocket.paginationDocument).text)
        let parent = try definitions(RocketQuery.document)
        #expect(parent["fragment RocketLaunches_rocket"] != nil)
        #expect(refetch["fragment RocketLaunches_rocket"] == parent["fragment RocketLaunches_rocket"])
    }
}
