import Foundation
import GraphQL
import PagingCodegen
import PagingGraphQL
import Testing

/// Answers every request with one body, keeping the requests.
private final class CannedTransport: GraphQLTransport {
    let body: String
    let requests = Lock<[GraphQLHTTPRequest]>([])

    init(_ body: String) { self.body = body }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        requests.withLock { $0.append(request) }
        return GraphQLHTTPResponse(statusCode: 200, body: Data(body.utf8))
    }
}

/// A minimal lock for the transport's log.
private final class Lock<Value>: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// The compiled output of the generator (Generated/, checked by CodegenGoldenTests), in use.
@Suite("Codegen, the generated types in use")
struct GeneratedTypesTests {
    static let page = #"""
        {"launches": {"cursor": "c108", "hasMore": true, "launches": [
          {"id": "109", "site": "KSC LC 39A", "isBooked": false, "mission": {"name": "Starlink-3", "smallPatch": null}},
          null
        ]}}
        """#

    @Test("a page decodes into the nested types, a fragment read from the same object as the fields")
    func decodesAPage() throws {
        let data = try JSONDecoder().decode(LaunchListQuery.Data.self, from: Data(Self.page.utf8))
        #expect(data.launches.cursor == "c108")
        #expect(data.launches.hasMore)
        #expect(data.launches.launches.count == 2)
        let tile = try #require(data.launches.launches[0]?.launchTile)
        #expect(tile.id == "109")
        #expect(tile.site == "KSC LC 39A")
        #expect(tile.mission.name == "Starlink-3")
        #expect(tile.mission.smallPatch == nil)
        #expect(data.launches.launches[1] == nil)
    }

    @Test("a field the schema makes non-null and the response leaves out is a decoding error")
    func nonNullEnforced() {
        let missing = #"{"launches": {"cursor": "c", "launches": []}}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(LaunchListQuery.Data.self, from: Data(missing.utf8))
        }
    }

    @Test("variables left nil are not sent, so the server's default applies; enums go as their names")
    func variables() throws {
        func json(_ value: some Encodable) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        #expect(try json(LaunchListQuery().variables) == "{}")
        #expect(try json(LaunchListQuery(cursor: "c1").variables) == #"{"cursor":"c1"}"#)
        #expect(
            try json(LaunchDetailsQuery(id: "7", withRocket: false).variables)
                == #"{"id":"7","withRocket":false}"#)
        #expect(
            try json(LaunchDetailsQuery(id: "7", size: .small, withRocket: true).variables)
                == #"{"id":"7","size":"SMALL","withRocket":true}"#)
        #expect(try json(BookTripsMutation(launchIds: ["1", nil]).variables) == #"{"launchIds":["1",null]}"#)
    }

    @Test("an enum value the schema did not have decodes as unknown and encodes back as it came")
    func unknownEnumValue() throws {
        let values = try JSONDecoder().decode([PatchSize].self, from: Data(#"["SMALL","LARGE","HUGE"]"#.utf8))
        #expect(values == [.small, .large, .unknown("HUGE")])
        #expect(
            String(decoding: try JSONEncoder().encode(values), as: UTF8.self) == #"["SMALL","LARGE","HUGE"]"#)
    }

    @Test("@include makes a field optional; a type that selects id is Identifiable by it")
    func includeAndIdentity() throws {
        let body =
            #"{"launch": {"id": "5", "site": null, "isBooked": true, "mission": {"name": "M", "smallPatch": "p", "missionPatch": "P"}}}"#
        let data = try JSONDecoder().decode(LaunchDetailsQuery.Data.self, from: Data(body.utf8))
        let launch = try #require(data.launch)
        #expect(launch.rocket == nil)
        #expect(launch.mission.missionPatch == "P")
        #expect(launch.launchTile.mission.smallPatch == "p")
        func identity<Item: Identifiable>(_ item: Item) -> Item.ID { item.id }
        #expect(identity(launch) == "5")
        #expect(identity(launch.launchTile) == "5")
    }

    @Test("the document sent holds the fragments it uses, parses, and carries no @connection")
    func documents() throws {
        #expect(LaunchListQuery.document.contains("fragment LaunchTile on Launch"))
        #expect(!RocketLaunchesQuery.document.contains("@connection"))
        #expect(RocketLaunchesQuery.document.contains("launches(first: $first, after: $after)"))
        #expect(!BookTripsMutation.document.contains("fragment"))
        for document in [LaunchListQuery.document, LaunchDetailsQuery.document, RocketLaunchesQuery.document]
        {
            _ = try parse(source: Source(body: document))
        }
    }

    @Test("a generated operation goes through the client: its name, document and variables, its typed data")
    func throughTheClient() async throws {
        let transport = CannedTransport(#"{"data": \#(Self.page)}"#)
        let endpoint = try #require(URL(string: "http://127.0.0.1:1/graphql"))
        let client = GraphQLClient(endpoint: endpoint, transport: transport)
        let response = try await client.send(LaunchListQuery(cursor: "c110"))
        #expect(response.data?.launches.launches.first??.launchTile.id == "109")
        let request = try #require(transport.requests.withLock { $0.first })
        let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(body["operationName"] as? String == "LaunchList")
        #expect(body["query"] as? String == LaunchListQuery.document)
        #expect((body["variables"] as? [String: Any])?["cursor"] as? String == "c110")
    }
}

/// Answers a rocket's launches two to a page, after the cursor a request names.
private final class RocketLaunchesTransport: GraphQLTransport {
    let requests = Lock<[[String: Any]]>([])

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let body = try JSONSerialization.jsonObject(with: request.body) as? [String: Any] ?? [:]
        requests.withLock { $0.append(body) }
        let after = (body["variables"] as? [String: Any])?["after"] as? String
        let ids = after == nil ? ["1", "2"] : ["3", "4"]
        let edges = ids.map { #"{"cursor": "c\#($0)", "node": {"id": "\#($0)", "site": "SLC-\#($0)"}}"# }
        let json = #"""
            {"data": {"rocket": {"name": "Falcon 9", "launches": {
              "edges": [\#(edges.joined(separator: ","))],
              "pageInfo": {"hasNextPage": \#(after == nil), "endCursor": "c\#(ids[1])"}}}}}
            """#
        return GraphQLHTTPResponse(statusCode: 200, body: Data(json.utf8))
    }
}

@Suite("Codegen, the @connection list factory")
struct GeneratedConnectionTests {
    @Test("the factory's source pages the connection with the operation's other variables, typed nodes out")
    func pagesTheConnection() async throws {
        let transport = RocketLaunchesTransport()
        let endpoint = try #require(URL(string: "http://127.0.0.1:1/graphql"))
        let source = try RocketLaunchesQuery.source(
            client: GraphQLClient(endpoint: endpoint, transport: transport), id: "falcon9")
        let pager = source.makePager(configuration: try PagingConfiguration(pageSize: 2, prefetchDistance: 0))
        #expect(try await pager.loadAll() == .endReached)
        let nodes: [RocketLaunchesQuery.ListNode] = Array(pager.items)
        #expect(nodes.map(\.id) == ["1", "2", "3", "4"])
        #expect(nodes.last?.site == "SLC-4")
        let requests = transport.requests.withLock { $0 }
        #expect(requests.count == 2)
        for request in requests {
            let variables = request["variables"] as? [String: Any]
            #expect(variables?["id"] as? String == "falcon9")
            #expect(variables?["first"] as? Int == 2)
            #expect((request["query"] as? String)?.contains("@connection") == false)
        }
        #expect((requests.last?["variables"] as? [String: Any])?["after"] as? String == "c2")
    }
}

@Suite("Codegen, an interface's members by __typename")
struct GeneratedTypeCasesTests {
    static func node(_ json: String) throws -> NodeByIDQuery.Data.Node? {
        try JSONDecoder().decode(NodeByIDQuery.Data.self, from: Data(#"{"node": \#(json)}"#.utf8)).node
    }

    @Test("each member's case decodes when __typename names it, the others stay nil")
    func cases() throws {
        let rocket = try #require(
            try Self.node(#"{"__typename": "Rocket", "id": "r1", "name": "Falcon 9", "type": "FT"}"#))
        #expect(rocket.id == "r1")
        #expect(rocket.asRocket == NodeByIDQuery.Data.Node.AsRocket(name: "Falcon 9", type: "FT"))
        #expect(rocket.asLaunch == nil)

        let launch = try #require(
            try Self.node(
                #"{"__typename": "Launch", "id": "7", "site": "KSC", "isBooked": false, "mission": {"name": "M", "smallPatch": null}}"#
            ))
        #expect(launch.asRocket == nil)
        #expect(launch.asLaunch?.launchTile.mission.name == "M")
    }

    @Test("a member the schema did not have when generated decodes with its shared fields, no case")
    func unknownMember() throws {
        let other = try #require(try Self.node(#"{"__typename": "Capsule", "id": "c1"}"#))
        #expect(other.__typename == "Capsule")
        #expect(other.asRocket == nil && other.asLaunch == nil)
    }

    @Test("a member's case under @include: its fields optional, absent when the server left them out")
    func conditionalCase() throws {
        let skipped = #"{"node": {"__typename": "Rocket", "id": "r1"}}"#
        let included = #"{"node": {"__typename": "Rocket", "id": "r1", "name": "Falcon 9"}}"#
        let decoder = JSONDecoder()
        let without = try decoder.decode(NodeMaybeRocketQuery.Data.self, from: Data(skipped.utf8))
        #expect(without.node?.asRocket?.name == nil)
        let with = try decoder.decode(NodeMaybeRocketQuery.Data.self, from: Data(included.utf8))
        #expect(with.node?.asRocket?.name == "Falcon 9")
    }

    @Test("the document asks for __typename where the data tells members apart")
    func asksForTypename() {
        #expect(NodeByIDQuery.document.contains("node(id: $id) {\n    __typename\n"))
    }
}

@Suite("Codegen, data encoded back")
struct GeneratedEncodingTests {
    @Test("data encodes to the JSON it decoded from: fragments and type cases into the same object")
    func roundTrip() throws {
        let json = #"""
            {"node": {"__typename": "Launch", "id": "7", "site": "KSC", "isBooked": false,
                      "mission": {"name": "M", "smallPatch": "p"}}}
            """#
        let data = try JSONDecoder().decode(NodeByIDQuery.Data.self, from: Data(json.utf8))
        let encoded = try JSONEncoder().encode(data)
        let object = try JSONSerialization.jsonObject(with: encoded) as? [String: Any]
        let node = try #require(object?["node"] as? [String: Any])
        #expect(Set(node.keys) == ["__typename", "id", "site", "isBooked", "mission"])
        #expect(try JSONDecoder().decode(NodeByIDQuery.Data.self, from: encoded) == data)
    }

    @Test(
        "a @connection field selects the cursors and flags its list pages on, though the document left them out"
    )
    func completedConnection() throws {
        let document = """
            query R($id: ID!, $first: Int, $after: String) {
              rocket(id: $id) {
                launches(first: $first, after: $after) @connection(key: "R_launches") { edges { node { id } } }
              }
            }
            """
        let files = try Codegen.generate(schema: try Fixtures.schema, documents: [("R.graphql", document)])
        let swift = try #require(files.first?.contents)
        #expect(swift.contains("public var pageInfo: PageInfo\n"))
        #expect(swift.contains("public var hasNextPage: Swift.Bool\n"))
        #expect(swift.contains("public var endCursor: Swift.String?\n"))
        #expect(swift.contains("public var cursor: Swift.String\n"))
        #expect(!swift.contains("hasPreviousPage"), "it pages forward only")
        #expect(
            swift.contains("        }\n                cursor\n              }\n              pageInfo {\n"))
    }
}

@Suite("Codegen, input objects that hold themselves")
struct GeneratedRecursiveInputTests {
    @Test(
        "a filter that holds filters encodes as nested objects, leaves out what is nil, and compares by value"
    )
    func encodesNested() throws {
        let window = DateWindow(from: "2020", except: WindowException(window: DateWindow(to: "2021")))
        let filter = LaunchFilter(
            site: "KSC", not: LaunchFilter(site: "VAFB"), and: [LaunchFilter(window: window)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(SearchQuery(filter: filter).variables), as: UTF8.self)
        #expect(
            json
                == #"{"filter":{"and":[{"window":{"except":{"window":{"to":"2021"}},"from":"2020"}}],"not":{"site":"VAFB"},"site":"KSC"}}"#
        )
        #expect(
            filter
                == LaunchFilter(
                    site: "KSC", not: LaunchFilter(site: "VAFB"), and: [LaunchFilter(window: window)]))
        #expect(filter != LaunchFilter(site: "KSC"))
        #expect(Set([filter, filter]).count == 1)
    }
}
