import Paging
import PagingGraphQL
import Testing

@Suite("Extracting a connection page")
struct ConnectionPageTests {
    struct Launch: Decodable, Equatable, Sendable { var id: String; var site: String? }

    let document: ConnectionDocument

    init() throws {
        document = try ConnectionDocument(
            """
            query($first: Int, $after: String, $last: Int, $before: String) {
              viewer { list: launches(first: $first, after: $after, last: $last, before: $before) @connection(key: "L") {
                edges { node { id site } }
                totalCount
              } }
            }
            """)
    }

    let data: JSONValue = [
        "viewer": [
            "list": [
                "edges": [
                    ["cursor": "c1", "node": ["id": "1", "site": "KSC"]],
                    nil,
                    ["cursor": "c2", "node": nil],
                    ["cursor": "c3", "node": ["id": "3", "site": nil]],
                ],
                "pageInfo": [
                    "hasNextPage": true, "hasPreviousPage": false, "startCursor": "c1", "endCursor": "c3",
                ],
                "totalCount": 42,
            ]
        ]
    ]

    @Test(
        "reads nodes, cursors, page info and total count at the connection's path, skipping null edges and nodes"
    )
    func extractsAPage() throws {
        let page = try document.extractPage(from: data)
        #expect(page.nodes.map { $0["id"] } == ["1", "3"])
        #expect(page.cursors == ["c1", "c3"])
        #expect(
            page.pageInfo
                == PageInfo(hasNextPage: true, hasPreviousPage: false, startCursor: "c1", endCursor: "c3"))
        #expect(page.totalCount == 42)
        #expect(
            try page.decodeNodes(as: Launch.self) == [
                Launch(id: "1", site: "KSC"), Launch(id: "3", site: nil),
            ])
    }

    @Test("a node that does not decode is reported at its response path")
    func reportsUndecodableNodes() throws {
        struct Strict: Decodable { var site: String }
        let page = try document.extractPage(from: data)
        #expect {
            _ = try page.decodeNodes(as: Strict.self)
        } throws: { error in
            (error as? GraphQLClientError)?.codingPath == "data.viewer.list.edges[3].node.site"
        }
    }

    @Test("a missing or null connection is reported with its path")
    func reportsAMissingConnection() throws {
        #expect {
            _ = try document.extractPage(from: ["viewer": nil])
        } throws: { error in
            let error = error as? GraphQLClientError
            return error?.code == .undecodableResponse && error?.codingPath == "data.viewer"
                && error?.description.contains("null where the connection \"L\" should be") == true
        }
        #expect(throws: GraphQLClientError.self) { try document.extractPage(from: ["viewer": [:]]) }
    }

    @Test("a connection nulled by an error reports the response's GraphQL errors")
    func reportsErrorsBehindANullConnection() throws {
        let response = GraphQLResponse<JSONValue>(
            data: ["viewer": ["list": nil]], errors: [GraphQLResponseError(message: "Rate limited")])
        #expect {
            _ = try document.extractPage(from: response)
        } throws: { error in
            (error as? GraphQLClientError)?.graphQLErrors.map(\.message) == ["Rate limited"]
        }
        let partial = GraphQLResponse<JSONValue>(
            data: data, errors: [GraphQLResponseError(message: "site failed")])
        #expect(try document.extractPage(from: partial).nodes.count == 2, "partial data still pages")
    }

    @Test("reads a connection given as nodes")
    func readsNodes() throws {
        let document = try ConnectionDocument(
            #"query($a: String) { launches(after: $a) @connection(key: "k") { nodes { id } } }"#)
        let page = try document.extractPage(from: [
            "launches": ["nodes": [["id": "1"], nil], "pageInfo": ["hasNextPage": false]]
        ])
        #expect(page.nodes == [["id": "1"]])
        #expect(page.cursors == [nil])
    }

    @Test("makes variables for each kind of request, nulling the other direction")
    func variablesForRequests() {
        let initial = document.variables(
            for: PageRequest(.initial(nil), count: 10), merging: ["site": "KSC", "first": 99])
        #expect(initial == ["site": "KSC", "first": 10, "after": nil, "last": nil, "before": nil])
        let next = document.variables(for: PageRequest(.next(after: "c3"), count: 5))
        #expect(next == ["first": 5, "after": "c3", "last": nil, "before": nil])
        let previous = document.variables(for: PageRequest(.previous(before: "c1"), count: 5))
        #expect(previous == ["last": 5, "before": "c1", "first": nil, "after": nil])
    }

    @Test("turns a connection page into the engine's page with cursor keys")
    func makesEnginePages() throws {
        let page = document.page(from: try document.extractPage(from: data))
        #expect(page.items.count == 2)
        #expect(page.nextKey == "c3")
        #expect(page.previousKey == nil, "hasPreviousPage is false")
        let forwardOnly = try ConnectionDocument(
            #"query($a: String) { launches(after: $a) @connection(key: "k") { nodes { id } } }"#)
        let both = ConnectionPage(
            nodes: [],
            pageInfo: PageInfo(hasNextPage: true, hasPreviousPage: true, startCursor: "s", endCursor: "e"))
        #expect(
            forwardOnly.page(from: both).previousKey == nil, "a forward-only document never pages backward")
        #expect(forwardOnly.page(from: both).nextKey == "e")
    }
}
