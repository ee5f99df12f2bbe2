import Foundation
import PagingGraphQL
import Testing

@Suite("Connection")
struct ConnectionTests {
    struct Launch: Codable, Hashable, Sendable { var id: String }

    @Test("is a collection of the nodes of its edges, skipping null edges and null nodes")
    func collectionOfEdges() throws {
        let json = #"""
            {"edges":[{"cursor":"a","node":{"id":"1"}},null,{"cursor":"b","node":null},{"cursor":"c","node":{"id":"3"}}],
             "pageInfo":{"hasNextPage":true,"hasPreviousPage":false,"startCursor":"a","endCursor":"c"},"totalCount":9}
            """#
        let connection = try JSONDecoder().decode(Connection<Launch>.self, from: Data(json.utf8))
        #expect(Array(connection) == [Launch(id: "1"), Launch(id: "3")])
        #expect(connection.count == 2)
        #expect(connection.cursor(at: 1) == "c")
        #expect(
            connection.pageInfo
                == PageInfo(hasNextPage: true, hasPreviousPage: false, startCursor: "a", endCursor: "c"))
        #expect(connection.totalCount == 9)
        #expect(connection.edges?.count == 4, "the edges stay as the response gave them")
    }

    @Test("works when the response gives only nodes")
    func collectionOfNodes() throws {
        let connection = try JSONDecoder().decode(
            Connection<Launch>.self, from: Data(#"{"nodes":[{"id":"1"},null,{"id":"2"}]}"#.utf8))
        #expect(connection.map(\.id) == ["1", "2"])
        #expect(connection.cursor(at: 0) == nil)
        #expect(connection.pageInfo == PageInfo(), "a missing pageInfo reads as nothing around")
    }

    @Test("prefers edges when both edges and nodes are given, and follows edits")
    func prefersEdgesAndFollowsEdits() {
        var connection = Connection<Launch>(
            edges: [Edge(cursor: "a", node: Launch(id: "e"))], nodes: [Launch(id: "n")])
        #expect(connection.map(\.id) == ["e"])
        connection.edges = nil
        #expect(connection.map(\.id) == ["n"])
        connection.nodes = []
        #expect(connection.isEmpty)
    }

    @Test("round-trips through JSON")
    func roundTrips() throws {
        let connection = Connection(
            edges: [Edge(cursor: "a", node: Launch(id: "1"))],
            pageInfo: PageInfo(hasNextPage: true, endCursor: "a"), totalCount: 1)
        let decoded = try JSONDecoder().decode(
            Connection<Launch>.self, from: JSONEncoder().encode(connection))
        #expect(decoded == connection)
    }

    @Test("reports a node of the wrong type with its coding path")
    func reportsBadNodes() {
        #expect {
            try JSONDecoder().decode(
                Connection<Launch>.self, from: Data(#"{"edges":[{"node":{"id":1}}]}"#.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue).contains("edges")
        }
    }

    @Test("a page info with only some fields decodes with the rest false or nil")
    func tolerantPageInfo() throws {
        let info = try JSONDecoder().decode(PageInfo.self, from: Data(#"{"hasNextPage":true}"#.utf8))
        #expect(info == PageInfo(hasNextPage: true))
    }
}
