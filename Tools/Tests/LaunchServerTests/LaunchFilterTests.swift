import GraphQL
import Testing

@testable import LaunchServer

/// `launchConnection(booked:, site:, search:)`: the filtered lists, paged both ways to their
/// ends, against the same filters computed in the test from the whole list.
@Suite("Filtering the Relay connection")
struct LaunchFilterTests {
    /// The 100 real launches, a quarter of them booked, and launches added to make the lists
    /// harder: a duplicate mission name, a lowercase one, one with a colon (cursors carry the
    /// name), one with a non-ASCII letter, one without a site.
    static func prepare(_ server: LaunchServer) async throws {
        try await server.setBooked(stride(from: 1, through: 100, by: 4).map(String.init), true)
        let added = [
            ("CRS-5", "KSC LC 39A"), ("crs-lower", "CCAFS SLC 40"), ("Zeta: colon", "VAFB SLC 4E"),
            ("Ünicode Sat", "KSC LC 39A"), ("CRS-5", "KSC LC 39A"), ("Siteless", nil),
        ]
        var ids: [String] = []
        for (name, site) in added {
            let launch = try await server.store.add(
                missionName: name, site: site, rocketID: "falcon9", launchDate: nil)
            ids.append(String(launch.number))
        }
        try await server.setBooked([ids[0], ids[3]], true)
    }

    /// One filtered list: its arguments, and the same filters for the oracle.
    struct Case: Sendable, CustomStringConvertible {
        var search: String?
        var booked: Bool?
        var site: String?

        var arguments: String {
            var parts: [String] = []
            if let search { parts.append(#"search: "\#(search)""#) }
            if let booked { parts.append("booked: \(booked)") }
            if let site { parts.append(#"site: "\#(site)""#) }
            return parts.joined(separator: ", ")
        }

        var description: String { arguments.isEmpty ? "no filter" : arguments }
    }

    static let cases: [Case] = [
        Case(booked: true), Case(booked: false),
        Case(site: "KSC LC 39A"), Case(site: "Kwajalein Atoll"), Case(site: "Nowhere"),
        Case(booked: true, site: "CCAFS SLC 40"), Case(booked: false, site: "VAFB SLC 4E"),
        Case(search: "crs", booked: false), Case(search: "CRS", booked: true),
        Case(search: "crs", site: "KSC LC 39A"), Case(search: "s", booked: true, site: "KSC LC 39A"),
    ]

    @Test(
        "each filter, alone or combined with search, pages forward and backward to the end of what it keeps, newest first, with its count",
        arguments: cases
    )
    func pagesTheFilteredList(_ testCase: Case) async throws {
        try await withLaunchServer { server in
            try await Self.prepare(server)
            let expected = ListOracle.filter(
                try await server.everyLaunch(), search: testCase.search, booked: testCase.booked,
                site: testCase.site
            ).map(\.id)
            let prefix = testCase.arguments
            for size in [1, 7, 100] {
                #expect(try await server.idsForward(prefix, size: size, total: expected.count) == expected)
                #expect(try await server.idsBackward(prefix, size: size, total: expected.count) == expected)
            }
        }
    }

    @Test(
        "the filters keep what they say on the real launches: bookings, sites, and none of a site no launch has"
    )
    func filtersTheRealLaunches() async throws {
        try await withLaunchServer { server in
            try await server.setBooked(["3", "50", "99"], true)
            let booked = try await server.launchConnection("booked: true, first: 10")
            #expect(booked.ids == ["99", "50", "3"])
            #expect(booked.totalCount == 3)
            #expect(try await server.launchConnection("booked: false, first: 0").totalCount == 97)
            #expect(try await server.launchConnection(#"site: "Kwajalein Atoll", last: 1"#).ids == ["1"])
            #expect(try await server.launchConnection(#"site: "Kwajalein Atoll", first: 0"#).totalCount == 5)
            let nowhere = try await server.launchConnection(#"site: "kwajalein atoll", first: 5"#)
            #expect(nowhere.ids == [] && nowhere.totalCount == 0, "a site matches exactly")
        }
    }

    @Test(
        "booking a trip moves its launch from booked: false to booked: true, at its place in the order, on the next request; cancelling moves it back",
        arguments: [LaunchOrder.newestFirst, .missionName]
    )
    func bookingMovesTheLaunch(order: LaunchOrder) async throws {
        try await withLaunchServer { server in
            try await Self.prepare(server)
            let orderBy = "orderBy: \(order.rawValue)"
            func expected(booked: Bool) async throws -> [String] {
                let kept = ListOracle.filter(try await server.everyLaunch(), booked: booked)
                return (order == .missionName ? ListOracle.byMissionName(kept) : kept).map(\.id)
            }
            let unbooked = try await server.idsForward("\(orderBy), booked: false", size: 100, total: 79)
            #expect(unbooked == (try await expected(booked: false)))
            // A launch from the middle of the unbooked list: its place in the booked list lies
            // between other booked launches.
            let moving = unbooked[unbooked.count / 2]
            let heldPage = try await server.launchConnection("\(orderBy), booked: true, first: 3")

            try await server.setBooked([moving], true)
            let booked = try await server.idsForward("\(orderBy), booked: true", size: 10, total: 28)
            #expect(booked.contains(moving))
            #expect(
                booked == (try await expected(booked: true)), "the launch stands at its place in the order")
            let rest = try await server.idsForward("\(orderBy), booked: false", size: 10, total: 78)
            #expect(!rest.contains(moving))
            #expect(rest == unbooked.filter { $0 != moving })
            // A cursor held from before the booking pages on, and finds the launch if it
            // stands after it.
            try #require((booked.firstIndex(of: moving) ?? 0) >= 3, "the launch lands after the held page")
            let held = try #require(heldPage.pageInfo.endCursor)
            let after = try await server.launchConnection(
                #"\#(orderBy), booked: true, first: 100, after: "\#(held)""#)
            #expect(heldPage.ids + after.ids == booked)

            try await server.setBooked([moving], false)
            #expect(
                try await server.idsForward("\(orderBy), booked: false", size: 100, total: 79) == unbooked)
            #expect(
                !(try await server.idsBackward("\(orderBy), booked: true", size: 9, total: 27)).contains(
                    moving))
        }
    }

    @Test("a launch added or deleted changes the lists it belongs to, and their counts")
    func additionsAndDeletions() async throws {
        try await withLaunchServer { server in
            let added = try await server.store.add(
                missionName: "Fresh", site: "KSC LC 39A", rocketID: "falcon9", launchDate: nil)
            let site = try await server.launchConnection(#"site: "KSC LC 39A", booked: false, first: 1"#)
            #expect(site.ids == [String(added.number)])
            #expect(site.totalCount == 24)
            try await server.setBooked([String(added.number)], true)
            #expect(try await server.launchConnection("booked: true, first: 5").ids == [String(added.number)])
            #expect(try await server.store.delete(number: added.number))
            let booked = try await server.launchConnection("booked: true, first: 5")
            #expect(booked.ids == [] && booked.totalCount == 0)
            #expect(try await server.launchConnection("booked: false, first: 0").totalCount == 100)
        }
    }
}
