import Foundation
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

@Suite("Mutation directives", .timeLimit(.minutes(HangLimit.minutes(1))))
struct MutationDirectiveTests {
    static let feed = """
        query Feed { feed(first: 3) @connection(key: "Feed_feed") { edges { cursor node { __typename id site } } } }
        """

    /// A store holding a feed of Launch:1 and Launch:2.
    static func feedStore(_ configuration: GraphQLStore.Configuration = .init()) throws -> GraphQLStore {
        let store = GraphQLStore(configuration: configuration)
        try store.write(
            data: [
                "feed": [
                    "edges": [
                        ["cursor": "c1", "node": launch("1")],
                        ["cursor": "c2", "node": launch("2")],
                    ]
                ]
            ],
            for: StoreOperation(document: feed))
        return store
    }

    static func launch(_ id: String) -> JSONValue {
        ["__typename": "Launch", "id": .string(id), "site": .string("Site \(id)")]
    }

    /// Writes a mutation's data and returns the one change observers heard.
    static func write(
        _ data: JSONValue, document: String, variables: [String: JSONValue] = [:], to store: GraphQLStore
    ) throws -> StoreChange {
        let changes = Recorder<StoreChange>()
        let observation = store.observe { changes.record($0) }
        defer { observation.cancel() }
        let returned = try store.write(
            data: data, for: StoreOperation(document: document, variables: variables))
        #expect(changes.recorded == [returned], "observers hear exactly one change, the one returned")
        return returned
    }

    @Test("@appendEdge appends the edge's node to each named connection, in the write's one change")
    func appendEdge() throws {
        let store = try Self.feedStore()
        let change = try Self.write(
            [
                "addLaunch": [
                    "__typename": "AddLaunchPayload",
                    "edge": ["__typename": "LaunchEdge", "cursor": "c3", "node": Self.launch("3")],
                ]
            ],
            document: """
                mutation {
                  addLaunch(site: "Site 3") {
                    __typename
                    edge @appendEdge(connections: ["Feed_feed", "Search_results"]) {
                      __typename cursor node { __typename id site }
                    }
                  }
                }
                """, to: store)
        #expect(
            change.connectionEdits == [
                StoreConnectionEdit(connection: "Feed_feed", kind: .append, record: "Launch:3"),
                StoreConnectionEdit(connection: "Search_results", kind: .append, record: "Launch:3"),
            ])
        #expect(change.contains(record: "Launch:3", field: "site"))
        #expect(change.contains(record: .mutationRoot, field: #"addLaunch(site:"Site 3")"#))
        #expect(change.deletedRecords.isEmpty)
        #expect(store.record(for: "Launch:3")?["site"] == .scalar("Site 3"))
    }

    @Test("@prependEdge prepends the node of each edge of a list, in the list's order")
    func prependEdges() throws {
        let store = try Self.feedStore()
        let change = try Self.write(
            ["addLaunches": [["node": Self.launch("4")], ["node": nil], ["node": Self.launch("5")]]],
            document: """
                mutation { addLaunches @prependEdge(connections: ["Feed_feed"]) { node { __typename id site } } }
                """, to: store)
        #expect(
            change.connectionEdits == [
                StoreConnectionEdit(connection: "Feed_feed", kind: .prepend, record: "Launch:4"),
                StoreConnectionEdit(connection: "Feed_feed", kind: .prepend, record: "Launch:5"),
            ])
    }

    @Test("@appendNode and @prependNode take the node itself, or each node of a list")
    func appendAndPrependNodes() throws {
        let store = try Self.feedStore()
        let change = try Self.write(
            [
                "one": Self.launch("6"),
                "many": [Self.launch("7"), nil, Self.launch("8")],
                "none": nil,
            ],
            document: """
                mutation {
                  one: addLaunch(site: "a") @appendNode(connections: ["Feed_feed"]) { __typename id site }
                  many: addLaunches @prependNode(connections: ["Feed_feed", "Other"]) { __typename id site }
                  none: addLaunch(site: "b") @appendNode(connections: ["Feed_feed"]) { __typename id site }
                }
                """, to: store)
        #expect(
            change.connectionEdits == [
                StoreConnectionEdit(connection: "Feed_feed", kind: .append, record: "Launch:6"),
                StoreConnectionEdit(connection: "Feed_feed", kind: .prepend, record: "Launch:7"),
                StoreConnectionEdit(connection: "Other", kind: .prepend, record: "Launch:7"),
                StoreConnectionEdit(connection: "Feed_feed", kind: .prepend, record: "Launch:8"),
                StoreConnectionEdit(connection: "Other", kind: .prepend, record: "Launch:8"),
            ])
    }

    @Test(
        "@deleteEdge removes the node of an ID (typename given), a node object or a list of IDs; the records stay"
    )
    func deleteEdge() throws {
        let store = try Self.feedStore()
        let change = try Self.write(
            [
                "byID": ["deletedId": "1"],
                "byNode": ["launch": ["__typename": "Launch", "id": "2"]],
                "byIDs": ["deletedIds": ["1", nil, "2"]],
            ],
            document: """
                mutation {
                  byID: removeFromFeed(id: "1") { deletedId @deleteEdge(connections: ["Feed_feed"], typename: "Launch") }
                  byNode: removeFromFeed(id: "2") { launch @deleteEdge(connections: ["Feed_feed"]) { __typename id } }
                  byIDs: removeAll { deletedIds @deleteEdge(connections: ["Other"], typename: "Launch") }
                }
                """, to: store)
        #expect(
            change.connectionEdits == [
                StoreConnectionEdit(connection: "Feed_feed", kind: .remove, record: "Launch:1"),
                StoreConnectionEdit(connection: "Feed_feed", kind: .remove, record: "Launch:2"),
                StoreConnectionEdit(connection: "Other", kind: .remove, record: "Launch:1"),
                StoreConnectionEdit(connection: "Other", kind: .remove, record: "Launch:2"),
            ])
        #expect(change.deletedRecords.isEmpty)
        #expect(store.record(for: "Launch:1") != nil)
        #expect(store.record(for: "Launch:2") != nil)
    }

    @Test("an ID without typename is keyed by the store's rules with the id alone")
    func bareIDsUseTheKeyRules() throws {
        let document = #"mutation { remove(id: "1") { id @deleteEdge(connections: ["Feed_feed"]) } }"#
        let plain = try Self.write(["remove": ["id": "1"]], document: document, to: GraphQLStore())
        #expect(plain.connectionEdits.map(\.record) == ["1"], "the default rule makes a bare id its own key")

        var configuration = GraphQLStore.Configuration()
        configuration.cacheKey = { _, object in object["id"]?.stringValue.map { "node/\($0)" } }
        let global = try Self.write(
            ["remove": ["id": "1"]], document: document, to: GraphQLStore(configuration: configuration))
        #expect(global.connectionEdits.map(\.record) == ["node/1"])
    }

    @Test("@deleteRecord on an ID deletes the record, takes it out of every list, and reports it")
    func deleteRecordByID() throws {
        let store = try Self.feedStore()
        let change = try Self.write(
            ["deleteLaunch": ["__typename": "DeletePayload", "deletedId": "1"]],
            document: """
                mutation Delete($id: ID!) {
                  deleteLaunch(id: $id) { __typename deletedId @deleteRecord(typename: "Launch") }
                }
                """, variables: ["id": "1"], to: store)
        #expect(change.deletedRecords == ["Launch:1"])
        #expect(change.contains(record: "Launch:1", field: "site"))
        #expect(change.contains(record: .queryRoot, field: "feed(first:3)"))
        #expect(change.contains(record: .mutationRoot, field: #"deleteLaunch(id:"1")"#))
        #expect(change.connectionEdits.isEmpty)
        #expect(store.record(for: "Launch:1") == nil)
        #expect(
            try store.read(StoreOperation(document: Self.feed)).data == [
                "feed": ["edges": [["cursor": "c2", "node": Self.launch("2")]]]
            ])
    }

    @Test(
        "@deleteRecord on a node object or a list of IDs deletes each record once, after the data is written")
    func deleteRecordByNode() throws {
        let store = try Self.feedStore()
        let change = try Self.write(
            [
                "node": ["launch": Self.launch("2")],
                "ids": ["deletedIds": ["1", "2", "9"]],
            ],
            document: """
                mutation {
                  node: deleteLaunch(id: "2") { launch @deleteRecord { __typename id site } }
                  ids: deleteLaunches { deletedIds @deleteRecord(typename: "Launch") }
                }
                """, to: store)
        #expect(change.deletedRecords == ["Launch:1", "Launch:2"], "Launch:9 was never in the store")
        #expect(store.record(for: "Launch:1") == nil)
        #expect(store.record(for: "Launch:2") == nil)
        // The payload stays, its reference to the deleted launch dangling.
        #expect(
            store.record(for: .mutationRoot)?[#"deleteLaunch(id:"2")"#]
                == .object(StoreObject(["launch": .reference("Launch:2")])))
    }

    @Test("connections and typename may come from variables; one key stands for a list of one")
    func argumentsFromVariables() throws {
        let store = try Self.feedStore()
        let change = try Self.write(
            ["add": Self.launch("3"), "remove": ["id": "1"]],
            document: """
                mutation($connections: [ID!]!, $one: String!, $type: String) {
                  add @appendNode(connections: $connections) { __typename id site }
                  remove { id @deleteEdge(connections: $one, typename: $type) }
                }
                """,
            variables: ["connections": ["A", "B"], "one": "C", "type": "Launch"], to: store)
        #expect(
            change.connectionEdits == [
                StoreConnectionEdit(connection: "A", kind: .append, record: "Launch:3"),
                StoreConnectionEdit(connection: "B", kind: .append, record: "Launch:3"),
                StoreConnectionEdit(connection: "C", kind: .remove, record: "Launch:1"),
            ])
    }

    @Test("directives in a fragment spread apply where the fragment is spread")
    func directivesInFragments() throws {
        let store = try Self.feedStore()
        let change = try Self.write(
            ["addLaunch": ["__typename": "AddLaunchPayload", "launch": Self.launch("3")]],
            document: """
                mutation { addLaunch(site: "x") { __typename ...Added } }
                fragment Added on AddLaunchPayload {
                  launch @prependNode(connections: ["Feed_feed"]) { __typename id site }
                }
                """, to: store)
        #expect(
            change.connectionEdits == [
                StoreConnectionEdit(connection: "Feed_feed", kind: .prepend, record: "Launch:3")
            ])
    }

    @Test("a field selected twice keeps the directives of each occurrence, each once")
    func directivesOfMergedFields() throws {
        let store = try Self.feedStore()
        let change = try Self.write(
            ["addLaunch": ["__typename": "AddLaunchPayload", "launch": Self.launch("3")]],
            document: """
                mutation {
                  addLaunch(site: "x") {
                    __typename
                    launch { __typename id }
                    ... on AddLaunchPayload { launch @prependNode(connections: ["Feed_feed"]) { site } }
                    ...Added
                    ...Added
                  }
                }
                fragment Added on AddLaunchPayload {
                  launch @appendNode(connections: ["Other"]) { __typename id }
                }
                """, to: store)
        #expect(
            change.connectionEdits == [
                StoreConnectionEdit(connection: "Feed_feed", kind: .prepend, record: "Launch:3"),
                StoreConnectionEdit(connection: "Other", kind: .append, record: "Launch:3"),
            ])
        #expect(store.record(for: "Launch:3")?["site"] == .scalar("Site 3"))
    }

    @Test(
        "a misplaced or incomplete directive is a document error that says what to write",
        arguments: [
            (
                #"mutation { add @appendEdge { node { id } } }"#,
                #"@appendEdge on the field "add" (line 1, column 16) lacks its connections argument; name the connections to edit, such as `@appendEdge(connections: ["Feed_launches"])`."#
            ),
            (
                #"mutation { add @appendEdge(connections: ["A"]) { id } }"#,
                #"@appendEdge on the field "add" (line 1, column 16) needs an edge that selects `node`; select it, or use @appendNode on a field that returns the node itself."#
            ),
            (
                #"mutation { addedId @prependNode(connections: ["A"]) }"#,
                #"@prependNode on the field "addedId" (line 1, column 20) needs a field that returns an object with subfields, but the field selects none."#
            ),
            (
                #"mutation { add @appendNode(connections: [1]) { id } }"#,
                #"@appendNode on the field "add" (line 1, column 16) has connections: [1], which is not a list of connection keys; write a list of strings such as ["Feed_launches"]."#
            ),
            (
                #"mutation { remove { id @deleteRecord(typename: 3) } }"#,
                #"@deleteRecord on the field "id" (line 1, column 24) has typename: 3, which is not a type name; write a string such as "Launch"."#
            ),
        ])
    func documentErrors(document: String, message: String) throws {
        let error = try #require(throws: GraphQLStoreError.self) { try StoreOperation(document: document) }
        #expect(error.code == .document)
        #expect(error.message == message)
    }

    @Test("an ID the key rules cannot key, or a variable without a value, fails the write and writes nothing")
    func dataErrors() throws {
        var configuration = GraphQLStore.Configuration()
        configuration.keyFields = ["Launch": ["flightNumber"]]
        let store = try Self.feedStore(configuration)
        let before = store.recordKeys
        let error = try #require(throws: GraphQLStoreError.self) {
            try store.write(
                data: ["remove": ["id": "1"]],
                for: StoreOperation(
                    document: #"mutation { remove { id @deleteRecord(typename: "Launch") } }"#))
        }
        #expect(error.code == .data)
        #expect(error.path == ["remove", "id"])
        #expect(
            error.message
                == #"The store's key rules give no record key for the ID "1" of @deleteRecord at remove.id; pass the type with typename:, or select the object instead of its ID."#
        )

        let missing = try #require(throws: GraphQLStoreError.self) {
            try store.write(
                data: ["add": Self.launch("3")],
                for: StoreOperation(
                    document:
                        "mutation($c: [String!]) { add @appendNode(connections: $c) { __typename id site } }")
            )
        }
        #expect(missing.code == .variables)
        #expect(
            missing.message
                == "The connections of @appendNode at add come from a variable that has no value; pass the connection keys."
        )
        #expect(store.recordKeys == before)
    }

    @Test(
        "through the client: the directives are not sent, and one change holds the fields, edits and deletions"
    )
    func throughTheClient() async throws {
        let store = try Self.feedStore()
        let backend = LaunchBackend(replies: [
            "Replace": [
                "data": [
                    "replaceLaunch": [
                        "__typename": "ReplacePayload",
                        "removedId": "1",
                        "edge": ["__typename": "LaunchEdge", "cursor": "c9", "node": Self.launch("9")],
                    ]
                ]
            ]
        ])
        let client = GraphQLClient(endpoint: testEndpoint, transport: backend.server, store: store)
        let changes = Recorder<StoreChange>()
        let observation = store.observe { changes.record($0) }
        defer { observation.cancel() }

        let response = try await client.send(
            UntypedOperation(
                document: """
                    mutation Replace($id: ID!) {
                      replaceLaunch(id: $id) {
                        removedId @deleteRecord(typename: "Launch")
                        edge @prependEdge(connections: ["Feed_feed"]) { cursor node { id site } }
                      }
                    }
                    """, operationName: "Replace", variables: ["id": "1"]))

        #expect(response.storeError == nil)
        let sent = try #require(backend.server.received.first?.query)
        #expect(!sent.contains("@"), "no directive reaches the server: \(sent)")
        #expect(changes.recorded.count == 1)
        let change = try #require(changes.recorded.first)
        #expect(change.deletedRecords == ["Launch:1"])
        #expect(
            change.connectionEdits == [
                StoreConnectionEdit(connection: "Feed_feed", kind: .prepend, record: "Launch:9")
            ])
        #expect(change.contains(record: "Launch:9", field: "site"))
        #expect(change.contains(record: .queryRoot, field: "feed(first:3)"))
    }
}
