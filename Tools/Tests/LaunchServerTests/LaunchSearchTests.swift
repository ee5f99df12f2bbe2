import GraphQL
import PagingTesting
import Testing

@testable import LaunchServer

/// `launchConnection(search:)`: the launches whose mission name contains a text, paged by the same
/// keyset cursors as the whole list.
@Suite("Searching the Relay connection")
struct LaunchSearchTests {
    func page(_ server: LaunchServer, _ arguments: String) async throws -> RelayPage {
        try await server.launchConnection(arguments)
    }

    /// The ids of the whole list whose mission name contains the text, ignoring case, read from
    /// the list without a search.
    func matching(_ text: String, _ server: LaunchServer) async throws -> [String] {
        let all = try await page(server, "first: 100")
        return all.edges.filter { ($0.node.mission?.name ?? "").lowercased().contains(text.lowercased()) }
            .map(\.node.id)
    }

    @Test("pages forward and backward through the launches that match, in list order, with their count")
    func pagesTheMatches() async throws {
        try await withLaunchServer { server in
            let expected = try await matching("crs", server)
            #expect(expected.count == 20)
            var seen: [String] = []
            var after: String?
            repeat {
                let arguments = #"first: 7, search: "CrS""# + (after.map { #", after: "\#($0)""# } ?? "")
                let page = try await page(server, arguments)
                #expect(page.totalCount == 20)
                #expect(page.pageInfo.hasPreviousPage == (after != nil))
                seen += page.ids
                after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : nil
            } while after != nil
            #expect(seen == expected)

            var backward: [String] = []
            var before: String?
            repeat {
                let arguments = #"last: 6, search: "crs""# + (before.map { #", before: "\#($0)""# } ?? "")
                let page = try await page(server, arguments)
                backward = page.ids + backward
                before = page.pageInfo.hasPreviousPage ? page.pageInfo.startCursor : nil
            } while before != nil
            #expect(backward == expected)
        }
    }

    @Test("an empty search is the whole list; LIKE's wildcards in the text match only themselves")
    func wildcardsAreText() async throws {
        try await withLaunchServer { server in
            #expect(try await page(server, #"first: 1, search: """#).totalCount == 100)
            #expect(try await page(server, #"first: 5, search: "%""#).ids == [])
            #expect(try await page(server, #"first: 5, search: "_""#).ids == [])
            let added = try await server.store.add(
                missionName: #"Odd 50%_off \ sale"#, site: nil, rocketID: "falcon9", launchDate: nil)
            let found = try await page(server, #"first: 5, search: "%_off \\""#)
            #expect(found.ids == [String(added.number)])
            #expect(found.totalCount == 1)
        }
    }

    @Test("a matching launch added at the head comes before the first page's start cursor, once")
    func additionsKeepTheirPlace() async throws {
        try await withLaunchServer { server in
            let first = try await page(server, #"first: 3, search: "crs""#)
            _ = try await server.store.add(
                missionName: "Other", site: nil, rocketID: "falcon9", launchDate: nil)
            let added = try await server.store.add(
                missionName: "CRS-99", site: nil, rocketID: "falcon9", launchDate: nil)
            let start = try #require(first.pageInfo.startCursor)
            let newer = try await page(server, #"last: 5, search: "crs", before: "\#(start)""#)
            #expect(newer.ids == [String(added.number)])
            #expect(newer.totalCount == 21)
        }
    }
}
