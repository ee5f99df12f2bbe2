import Foundation
import GraphQL
import Testing

@testable import LaunchServer

/// `launchConnection(orderBy:)`: the mission-name order paged both ways, alone and with the
/// filters; cursors that belong to one list only; bad arguments.
@Suite("Ordering the Relay connection")
struct LaunchOrderTests {
    /// One list in one order: its arguments, and its filters for the oracle.
    struct Case: Sendable, CustomStringConvertible {
        var order: LaunchOrder
        var filters = LaunchFilterTests.Case()

        var arguments: String {
            ["orderBy: \(order.rawValue)", filters.arguments].filter { !$0.isEmpty }.joined(separator: ", ")
        }

        var description: String { arguments }
    }

    static let cases: [Case] = [
        Case(order: .missionName), Case(order: .newestFirst),
        Case(order: .missionName, filters: .init(booked: true)),
        Case(order: .missionName, filters: .init(booked: false)),
        Case(order: .missionName, filters: .init(site: "KSC LC 39A")),
        Case(order: .missionName, filters: .init(booked: false, site: "CCAFS SLC 40")),
        Case(order: .missionName, filters: .init(search: "crs")),
        Case(order: .missionName, filters: .init(search: "crs", booked: true, site: "KSC LC 39A")),
        Case(order: .newestFirst, filters: .init(search: "sat", site: "CCAFS SLC 40")),
    ]

    @Test(
        "each order, with or without filters, pages forward and backward to the end of the list the test sorts itself",
        arguments: cases
    )
    func pagesTheOrderedList(_ testCase: Case) async throws {
        try await withLaunchServer { server in
            try await LaunchFilterTests.prepare(server)
            let kept = ListOracle.filter(
                try await server.everyLaunch(), search: testCase.filters.search,
                booked: testCase.filters.booked, site: testCase.filters.site)
            let expected = (testCase.order == .missionName ? ListOracle.byMissionName(kept) : kept).map(\.id)
            for size in [1, 6, 100] {
                let arguments = testCase.arguments
                #expect(try await server.idsForward(arguments, size: size, total: expected.count) == expected)
                #expect(
                    try await server.idsBackward(arguments, size: size, total: expected.count) == expected)
            }
        }
    }

    @Test("the mission-name order compares bytes and breaks ties by id; NEWEST_FIRST is the default order")
    func missionNameOrder() async throws {
        try await withLaunchServer { server in
            try await LaunchFilterTests.prepare(server)
            let all = try await server.idsForward("orderBy: MISSION_NAME", size: 100, total: 106)
            let names = Dictionary(
                uniqueKeysWithValues: try await server.everyLaunch().map { ($0.id, $0.mission?.name ?? "") })
            let crs5 = all.filter { names[$0] == "CRS-5" }
            #expect(crs5.count == 3)
            #expect(crs5 == crs5.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }, "ties by ascending id")
            let ordered = all.compactMap { names[$0] }
            #expect(ordered.firstIndex(of: "Zeta: colon") ?? 0 < ordered.firstIndex(of: "crs-lower") ?? 0)
            #expect(ordered.last == "Ünicode Sat", "UTF-8 bytes: Ü (0xC3) after every ASCII letter")
            #expect(
                try await server.launchConnection("first: 5").ids
                    == (try await server.launchConnection("orderBy: NEWEST_FIRST, first: 5").ids))
        }
    }

    /// The message of the one error a `launchConnection` request gets, with its `argument`.
    func refusal(_ server: LaunchServer, _ arguments: String) async throws -> (
        message: String, argument: String?
    ) {
        struct Payload: Decodable {}
        let response = try await server.graphQL(
            "{ launchConnection(\(arguments)) { totalCount } }", as: Payload.self)
        let error = try #require(response.errors?.first, "\(arguments) must be refused")
        #expect(response.errors?.count == 1)
        return (error.message, error.extensions?["argument"])
    }

    @Test(
        "a cursor of one order, or of one set of filters, is refused by every other list with a clear error")
    func refusesCursorsOfOtherLists() async throws {
        try await withLaunchServer { server in
            let byName = try #require(
                try await server.launchConnection("orderBy: MISSION_NAME, first: 2").pageInfo.endCursor)
            let newest = try #require(try await server.launchConnection("first: 2").pageInfo.endCursor)
            let booked = try #require(
                try await server.launchConnection("booked: false, first: 2").pageInfo.endCursor)
            let site = try #require(
                try await server.launchConnection(#"site: "KSC LC 39A", first: 2"#).pageInfo.endCursor)
            let search = try #require(
                try await server.launchConnection(#"search: "crs", first: 2"#).pageInfo.endCursor)

            let otherOrder = try await refusal(server, #"first: 2, after: "\#(byName)""#)
            #expect(otherOrder.argument == "after")
            #expect(otherOrder.message.contains("`MISSION_NAME` order"), "\(otherOrder.message)")
            #expect(otherOrder.message.contains("`NEWEST_FIRST`"), "\(otherOrder.message)")
            let reversed = try await refusal(server, #"orderBy: MISSION_NAME, last: 2, before: "\#(newest)""#)
            #expect(reversed.argument == "before")
            #expect(reversed.message.contains("`NEWEST_FIRST` order"), "\(reversed.message)")

            for (arguments, cursor) in [
                ("booked: true", booked), ("", booked), (#"search: "crs", booked: false"#, booked),
                (#"site: "KSC LC 39A", booked: false"#, site), (#"site: "CCAFS SLC 40""#, site),
                ("booked: false", newest), (#"search: "CRS""#, search),
                (#"search: "crs", site: "x""#, search),
                ("orderBy: MISSION_NAME, booked: false", byName),
            ] {
                let prefix = arguments.isEmpty ? "" : arguments + ", "
                let refused = try await refusal(server, #"\#(prefix)first: 2, after: "\#(cursor)""#)
                #expect(refused.argument == "after")
                #expect(refused.message.contains("other filters"), "\(arguments): \(refused.message)")
            }

            // The tutorial's list and a rocket's launches read the whole list's cursors only.
            struct Payload: Decodable {}
            for query in [
                #"{ launches(after: "\#(booked)") { hasMore } }"#,
                #"{ rocket(id: "falcon9") { launches(first: 1, after: "\#(byName)") { totalCount } } }"#,
            ] {
                let response = try await server.graphQL(query, as: Payload.self)
                #expect(response.messages.count == 1)
                #expect(
                    response.messages.first?.contains("cannot be used here") == true, "\(response.messages)")
            }
            // The same list takes its own cursors.
            #expect(
                try await server.launchConnection(#"booked: false, first: 2, after: "\#(booked)""#).ids.count
                    == 2)
        }
    }

    @Test(
        "bad orderBy and filter values get GraphQL errors over HTTP, and the server keeps serving",
        arguments: [
            "{ launchConnection(first: 1, orderBy: OLDEST_FIRST) { totalCount } }",
            #"{ launchConnection(first: 1, orderBy: "MISSION_NAME") { totalCount } }"#,
            "{ launchConnection(first: 1, orderBy: mission_name) { totalCount } }",
            #"{ launchConnection(first: 1, booked: "yes") { totalCount } }"#,
            "{ launchConnection(first: 1, site: 39) { totalCount } }",
            "{ launchConnection(first: 1, orderBy: [MISSION_NAME]) { totalCount } }",
        ]
    )
    func badValues(query: String) async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let reply = try await client.graphQL(query)
            let body = try JSONDecoder().decode(BadInputTests.GraphQLBody.self, from: reply.body)
            #expect(body.errors?.isEmpty == false, "\(reply.text)")
            #expect(!reply.text.contains(#""totalCount""#), "no data: \(reply.text)")
            try await BadInputTests().expectStillServing(client)
        }
    }

    @Test("an unknown order in a variable is a GraphQL error, and null is the default order")
    func orderVariables() async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let query =
                "query($order: LaunchOrder) { launchConnection(first: 2, orderBy: $order) { nodes { id } } }"
            let bad = try await client.graphQL(query, variables: ["order": "SIDEWAYS"])
            let body = try JSONDecoder().decode(BadInputTests.GraphQLBody.self, from: bad.body)
            #expect(body.errors?.first?.message.contains("SIDEWAYS") == true, "\(bad.text)")
            let defaulted = try await client.graphQL(
                "query($order: LaunchOrder) { launchConnection(first: 2, orderBy: $order) { nodes { id } } }")
            #expect(defaulted.text == #"{"data":{"launchConnection":{"nodes":[{"id":"100"},{"id":"99"}]}}}"#)
            try await BadInputTests().expectStillServing(client)
        }
    }

    @Test("a mission name too long for a cursor is refused by addLaunch")
    func longMissionNames() async throws {
        try await withLaunchServer { server in
            struct Payload: Decodable {}
            let name = String(repeating: "é", count: LaunchResolver.maximumMissionNameLength + 1)
            let response = try await server.graphQL(
                #"mutation { addLaunch(missionName: "\#(name)", rocketId: "falcon9") { id } }"#,
                as: Payload.self)
            #expect(response.errors?.first?.extensions?["argument"] == "missionName")
            let longest = String(repeating: "😀", count: LaunchResolver.maximumMissionNameLength)
            let added = try await server.store.add(
                missionName: longest, site: nil, rocketID: "falcon9", launchDate: nil)
            let page = try await server.launchConnection(#"orderBy: MISSION_NAME, search: "😀", first: 1"#)
            let cursor = try #require(page.pageInfo.endCursor)
            #expect(cursor.utf8.count <= LaunchCursor.maximumLength)
            #expect(page.ids == [String(added.number)])
            let next = try await server.launchConnection(
                #"orderBy: MISSION_NAME, search: "😀", last: 1, before: "\#(cursor)""#)
            #expect(next.ids == [])
        }
    }
}
