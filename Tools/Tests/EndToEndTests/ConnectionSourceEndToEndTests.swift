import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import Testing

/// Query documents paged from their `@connection` alone (`ConnectionDocument` and
/// `ConnectionSource`), against the server on loopback.
@Suite("Documents paged from their @connection, end to end", .timeLimit(.minutes(30)))
struct ConnectionSourceEndToEndTests {
    /// `launchConnection` with all four pagination arguments: pages both ways.
    static let bidirectional = """
        query Launches($first: Int, $after: String, $last: Int, $before: String) {
          launchConnection(first: $first, after: $after, last: $last, before: $before)
            @connection(key: "Launches_launchConnection") {
            edges { node { \(Launch.selection) } }
          }
        }
        """

    /// `launchConnection` with `last` and `before` only: pages backward from the end.
    static let backwardOnly = """
        query OldestLaunches($count: Int, $before: String) {
          list: launchConnection(last: $count, before: $before) @connection(key: "Oldest_list") {
            nodes { \(Launch.selection) }
          }
        }
        """

    @Test("A document pages forward from the start: every launch once, newest first")
    func forwardFromTheStart() async throws {
        let expected = try ReferenceLaunches.ids()
        let document = try ConnectionDocument(Self.bidirectional)
        #expect(
            document.variables
                == PaginationVariables(first: "first", after: "after", last: "last", before: "before"))
        try await withLaunchServer { server in
            let source = ConnectionSource(client: server.client, document: document, as: Launch.self)
            #expect(source.direction == .bidirectional)
            let pager = source.makePager(configuration: try PagingConfiguration(pageSize: 12))
            #expect(try await pager.loadNext().value == .loaded)
            #expect(!pager.hasPrevious)
            #expect(try await Drive.toEnd(pager) == 0)
            #expect(pager.items.ids == expected)
        }
    }

    @Test("A backward-only document under an alias starts at the oldest launches and prepends to the newest")
    func backwardFromTheEnd() async throws {
        let expected = try ReferenceLaunches.ids()
        let document = try ConnectionDocument(Self.backwardOnly)
        #expect(document.connectionPath == [.key("list")])
        try await withLaunchServer { server in
            let source = ConnectionSource(client: server.client, document: document, as: Launch.self)
            #expect(source.direction == .reverse)
            let pager = source.makePager(configuration: try PagingConfiguration(pageSize: 9))
            #expect(try await pager.loadPrevious().value == .loaded)
            #expect(pager.items.ids == Array(expected.suffix(9)))
            #expect(!pager.hasNext)
            try await Drive.toEnd(pager, .previous)
            #expect(pager.items.ids == expected)
            #expect(pager.items.last?.mission?.name == "FalconSat")
        }
    }

    @Test(
        "A document opened at a cursor in the middle loads the page after it, then both ways to both ends",
        arguments: [0, 37, 98])
    func openedAtACursor(index: Int) async throws {
        let expected = try ReferenceLaunches.ids()
        let document = try ConnectionDocument(Self.bidirectional)
        try await withLaunchServer { server in
            let (cursor, _) = try await server.client.cursor(ofLaunchAt: index)
            let pager = ConnectionSource(client: server.client, document: document, as: Launch.self)
                .makePager(initialKey: cursor, configuration: try PagingConfiguration(pageSize: 10))
            #expect(try await pager.loadNext().value == .loaded)
            #expect(pager.items.ids == Array(expected[(index + 1)..<min(index + 11, expected.count)]))
            // The launch at the cursor precedes the page, so the list has a previous page.
            #expect(pager.hasPrevious)
            try await Drive.toEnd(pager, .previous)
            #expect(pager.items.first?.id == expected.first)
            try await Drive.toEnd(pager, .next)
            #expect(pager.items.ids == expected)
        }
    }

    @Test("A nested connection with a variable of its own pages one rocket's launches")
    func nestedConnectionWithVariables() async throws {
        let falcon1 = try ReferenceLaunches.newestFirst().filter { $0.rocket_id == "falcon1" }.map(\.id)
        let document = try ConnectionDocument(
            """
            query RocketLaunches($rocket: ID!, $first: Int, $after: String) {
              rocket(id: $rocket) {
                name
                launches(first: $first, after: $after) @connection(key: "Rocket_launches") {
                  edges { node { \(Launch.selection) } }
                }
              }
            }
            """)
        #expect(document.connectionPath == [.key("rocket"), .key("launches")])
        try await withLaunchServer { server in
            let pager = ConnectionSource(
                client: server.client, document: document, variables: ["rocket": "falcon1"], as: Launch.self
            ).makePager(configuration: try PagingConfiguration(pageSize: 2))
            try await Drive.toEnd(pager)
            #expect(!falcon1.isEmpty)
            #expect(pager.items.ids == falcon1)
        }
    }

    @Test("A tool without Swift types pages the same document as JSON nodes, told apart by id")
    func jsonNodes() async throws {
        let expected = try ReferenceLaunches.ids()
        let document = try ConnectionDocument(Self.bidirectional)
        try await withLaunchServer { server in
            let pager = ConnectionSource(client: server.client, document: document, idKey: "id")
                .makePager(configuration: try PagingConfiguration(pageSize: 25))
            try await Drive.toEnd(pager)
            #expect(pager.items.map(\.id) == expected.map { JSONValue.string($0) })
            #expect(pager.items.allSatisfy { $0.cursor != nil })
            #expect(pager.items.last?["mission"]?["name"] == .string("FalconSat"))
        }
    }
}
