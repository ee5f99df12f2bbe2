import Foundation
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

@Suite("GraphQLClient with a store", .timeLimit(.minutes(HangLimit.minutes(1))))
struct ClientStoreTests {
    /// A feed query with a connection marked for a pager.
    static let feed = """
        query Feed($first: Int) {
          feed(first: $first) @connection(key: "Feed_feed") { edges { cursor node { id site } } }
        }
        """

    @Test("sends the store's document: __typename on every object, no client directive")
    func sendsTheStoreDocument() async throws {
        let backend = LaunchBackend(replies: ["Feed": ["data": ["feed": ["edges": []]]]])
        let client = GraphQLClient(endpoint: testEndpoint, transport: backend.server, store: GraphQLStore())
        _ = try await client.send(
            UntypedOperation(document: Self.feed, operationName: "Feed", variables: ["first": 2]))

        let sent = try #require(backend.server.received.first?.query)
        #expect(
            sent == """
                query Feed($first: Int) {
                  feed(first: $first) {
                    edges {
                      cursor
                      node {
                        id
                        site
                        __typename
                      }
                      __typename
                    }
                    __typename
                  }
                }
                """)
        let request = try client.makeHTTPRequest(
            for: UntypedOperation(document: Self.feed, operationName: "Feed", variables: ["first": 2]))
        #expect(try JSONValue(json: request.body)["query"]?.stringValue == sent)
    }

    @Test("without a store, the document is sent as written and nothing is written anywhere")
    func withoutAStoreSendsAsWritten() async throws {
        let backend = LaunchBackend(replies: ["Feed": ["data": ["feed": ["edges": []]]]])
        let client = GraphQLClient(endpoint: testEndpoint, transport: backend.server)
        let response = try await client.send(
            UntypedOperation(document: Self.feed, operationName: "Feed"))
        #expect(backend.server.received.first?.query == Self.feed)
        #expect(response.storeError == nil)
        #expect(response.source == .network)
    }

    @Test("writes the response to the store before send returns, keyed by the encoded variables")
    func writesTheResponse() async throws {
        let store = GraphQLStore()
        let backend = LaunchBackend()
        let client = GraphQLClient(endpoint: testEndpoint, transport: backend.server, store: store)
        let response = try await client.send(LaunchQuery(id: "109"))

        #expect(response.data == .init(launch: .init(id: "109", site: "Site 109", isBooked: false)))
        #expect(response.storeError == nil)
        #expect(store.record(for: .queryRoot)?[#"launch(id:"109")"#] == .reference("Launch:109"))
        #expect(
            store.record(for: "Launch:109")?.fields == [
                "__typename": .scalar("Launch"), "id": .scalar("109"), "site": .scalar("Site 109"),
                "isBooked": .scalar(false),
            ])
        let read = try StoreOperation(
            document: "query($id: ID!) { launch(id: $id) { id site isBooked } }", variables: ["id": "109"])
        #expect(store.read(read).data == ["launch": ["id": "109", "site": "Site 109", "isBooked": false]])
    }

    @Test("writes partial data that came with errors, and keeps the errors")
    func writesPartialData() async throws {
        let store = GraphQLStore()
        let backend = LaunchBackend(replies: [
            "Launch": [
                "data": ["launch": ["__typename": "Launch", "id": "7", "site": nil, "isBooked": false]],
                "errors": [["message": "site unavailable", "path": ["launch", "site"]]],
            ]
        ])
        let client = GraphQLClient(endpoint: testEndpoint, transport: backend.server, store: store)
        let response = try await client.send(LaunchQuery(id: "7"))
        #expect(response.hasPartialData)
        #expect(response.errors.map(\.message) == ["site unavailable"])
        #expect(response.storeError == nil)
        #expect(store.record(for: "Launch:7")?["site"] == .scalar(nil))
    }

    @Test("a mutation changes the record a query wrote, and an observer hears of it once")
    func mutationUpdatesAQueryRecord() async throws {
        let store = GraphQLStore()
        let backend = LaunchBackend()
        let client = GraphQLClient(endpoint: testEndpoint, transport: backend.server, store: store)
        _ = try await client.send(LaunchQuery(id: "1"))
        let changes = Recorder<StoreChange>()
        let observation = store.observe { changes.record($0) }
        defer { observation.cancel() }

        let response = try await client.send(BookTripsMutation(variables: .init(launchIds: ["1"])))

        #expect(response.data?.bookTrips.launches == [.init(id: "1", isBooked: true)])
        #expect(changes.recorded.count == 1)
        let change = try #require(changes.recorded.first)
        #expect(change.contains(record: "Launch:1", field: "isBooked"))
        #expect(change.contains(record: .mutationRoot, field: #"bookTrips(launchIds:["1"])"#))
        #expect(change.connectionEdits.isEmpty)
        #expect(change.deletedRecords.isEmpty)
        #expect(client.read(LaunchQuery(id: "1"))?.data?.launch?.isBooked == true)
    }

    @Test("a document the store cannot compile is still sent, and its response returned with the problem")
    func uncompilableDocumentDoesNotFailTheRequest() async throws {
        let store = GraphQLStore()
        let backend = LaunchBackend(replies: [
            "Add": ["data": ["addLaunch": ["__typename": "Launch", "id": "9"]]]
        ])
        let client = GraphQLClient(endpoint: testEndpoint, transport: backend.server, store: store)
        // @appendNode needs its connections.
        let response = try await client.send(
            UntypedOperation(
                document: "mutation Add { addLaunch @appendNode { id } }", operationName: "Add"))

        #expect(response.data == ["addLaunch": ["__typename": "Launch", "id": "9"]])
        let error = try #require(response.storeError)
        #expect(error.code == .document)
        #expect(
            error.message
                == #"@appendNode on the field "addLaunch" (line 1, column 26) lacks its connections argument; name the connections to edit, such as `@appendNode(connections: ["Feed_launches"])`."#
        )
        #expect(backend.server.received.first?.query.contains("@appendNode") == false)
        #expect(store.record(for: "Launch:9") == nil)
    }

    @Test("data that does not match the document is returned, with the store's problem")
    func mismatchedDataDoesNotFailTheRequest() async throws {
        let store = GraphQLStore()
        let backend = LaunchBackend(replies: [
            "Launch": ["data": ["launch": ["__typename": "Launch", "id": "3", "isBooked": false]]]
        ])
        let client = GraphQLClient(endpoint: testEndpoint, transport: backend.server, store: store)
        let response = try await client.send(LaunchQuery(id: "3"))

        #expect(response.data?.launch == .init(id: "3", site: nil, isBooked: false))
        let error = try #require(response.storeError)
        #expect(error.code == .data)
        #expect(error.path == ["launch", "site"])
        #expect(
            error.message
                == #"The data lacks the field "site" that the document selects, at launch.site; write the data the server returned for this document."#
        )
        #expect(store.recordCount == 0)
    }

    @Test("a response whose data is untyped JSON is written as it came")
    func writesUntypedData() async throws {
        let store = GraphQLStore()
        let backend = LaunchBackend()
        let client = GraphQLClient(endpoint: testEndpoint, transport: backend.server, store: store)
        let response = try await client.send(
            UntypedOperation(
                document: "query Launch($id: ID!) { launch(id: $id) { id site } }", operationName: "Launch",
                variables: ["id": "5"]))
        #expect(response.storeError == nil)
        #expect(store.record(for: "Launch:5")?["site"] == .scalar("Site 5"))
    }
}
