import Testing

@testable import LaunchServer

/// The Apollo tutorial's `launches(pageSize:, after:)` and its mutations.
@Suite("The tutorial's API")
struct TutorialConnectionTests {
    struct Page: Decodable {
        struct Connection: Decodable {
            let cursor: String
            let hasMore: Bool
            let launches: [LaunchBody?]
        }
        let launches: Connection?
    }

    @Test("paging with pageSize until hasMore is false ends at FalconSat and shows every launch once")
    func pagesToFalconSat() async throws {
        try await withLaunchServer { server in
            var seen: [LaunchBody] = []
            var cursor: String?
            var hasMore = true
            while hasMore, !Task.isCancelled {
                let after = cursor.map { ", after: \"\($0)\"" } ?? ""
                let response = try await server.graphQL(
                    "{ launches(pageSize: 7\(after)) { cursor hasMore launches { id site mission { name } isBooked } } }",
                    as: Page.self)
                let page = try #require(response.data?.launches)
                seen += page.launches.compactMap { $0 }
                cursor = page.cursor
                hasMore = page.hasMore
            }
            #expect(seen.count == 100)
            #expect(Set(seen.map(\.id)).count == 100)
            #expect(seen.first?.id == "100")
            #expect(seen.last?.mission?.name == "FalconSat")
            #expect(seen.last?.site == "Kwajalein Atoll")
        }
    }

    @Test("pageSize defaults to 20, and an empty page echoes the cursor")
    func defaultsAndEmptyPages() async throws {
        try await withLaunchServer { server in
            let first = try await server.graphQL(
                "{ launches { cursor hasMore launches { id } } }", as: Page.self)
            #expect(first.data?.launches?.launches.count == 20)
            let all = try await server.graphQL(
                "{ launches(pageSize: 100) { cursor hasMore launches { id } } }", as: Page.self)
            let end = try #require(all.data?.launches)
            #expect(!end.hasMore)
            let beyond = try await server.graphQL(
                "{ launches(pageSize: 5, after: \"\(end.cursor)\") { cursor hasMore launches { id } } }",
                as: Page.self)
            #expect(beyond.data?.launches?.launches.isEmpty == true)
            #expect(beyond.data?.launches?.cursor == end.cursor)
            #expect(beyond.data?.launches?.hasMore == false)
        }
    }

    struct Detail: Decodable {
        struct Launch: Decodable {
            struct Mission: Decodable {
                let name: String
                let small: String?
                let large: String?
                let standard: String?
            }
            struct Rocket: Decodable {
                let id: String
                let name: String
                let type: String
            }
            let id: String
            let mission: Mission
            let rocket: Rocket
            let launchDate: String
        }
        let launch: Launch?
    }

    @Test("a launch has the tutorial's fields, with the patch size chosen by argument")
    func launchDetail() async throws {
        try await withLaunchServer { server in
            let response = try await server.graphQL(
                """
                { launch(id: "1") { id launchDate
                    mission { name small: missionPatch(size: SMALL) large: missionPatch(size: LARGE) standard: missionPatch }
                    rocket { id name type } } }
                """, as: Detail.self)
            let launch = try #require(response.data?.launch)
            #expect(launch.mission.name == "FalconSat")
            #expect(launch.mission.small == "https://images2.imgbox.com/3c/0e/T8iJcSN3_o.png")
            #expect(launch.mission.large == "https://images2.imgbox.com/40/e3/GypSkayF_o.png")
            #expect(launch.mission.standard == launch.mission.large)
            #expect(launch.rocket.id == "falcon1" && launch.rocket.name == "Falcon 1")
            #expect(launch.launchDate == "2006-03-24T22:30:00Z")
            let missing = try await server.graphQL(#"{ launch(id: "9999") { id } }"#, as: Detail.self)
            #expect(missing.data != nil && missing.data?.launch == nil && missing.errors == nil)
        }
    }

    struct Trips: Decodable {
        struct Response: Decodable {
            let success: Bool
            let message: String?
            let launches: [LaunchBody?]
        }
        let bookTrips: Response?
        let cancelTrip: Response?
    }

    @Test("bookTrips and cancelTrip change isBooked and return the changed launches")
    func booksAndCancels() async throws {
        try await withLaunchServer { server in
            let booked = try await server.graphQL(
                #"mutation { bookTrips(launchIds: ["1", "2"]) { success message launches { id isBooked } } }"#,
                as: Trips.self)
            #expect(booked.data?.bookTrips?.success == true)
            #expect(booked.data?.bookTrips?.launches.compactMap { $0?.isBooked } == [true, true])
            #expect(try await server.store.launch(number: 2)?.isBooked == true)

            let cancelled = try await server.graphQL(
                #"mutation { cancelTrip(launchId: "2") { success message launches { id isBooked } } }"#,
                as: Trips.self)
            #expect(cancelled.data?.cancelTrip?.success == true)
            #expect(cancelled.data?.cancelTrip?.launches.first??.isBooked == false)

            let unknown = try await server.graphQL(
                #"mutation { bookTrips(launchIds: ["3", "nope"]) { success message launches { id } } }"#,
                as: Trips.self)
            #expect(unknown.data?.bookTrips?.success == false)
            #expect(unknown.data?.bookTrips?.message?.contains("'nope'") == true)
            #expect(unknown.data?.bookTrips?.launches.count == 1)
        }
    }

    struct Added: Decodable {
        struct Launch: Decodable {
            let id: String
            let launchDate: String
        }
        let addLaunch: Launch?
        let deleteLaunch: String?
    }

    @Test("addLaunch puts a launch at the head; deleteLaunch returns the deleted id")
    func addsAndDeletes() async throws {
        try await withLaunchServer { server in
            let added = try await server.graphQL(
                #"mutation { addLaunch(missionName: "Demo", rocketId: "falcon9") { id launchDate } }"#,
                as: Added.self)
            #expect(added.data?.addLaunch?.id == "101")
            #expect(added.data?.addLaunch?.launchDate == "2020-08-18T14:31:01Z")
            let dated = try await server.graphQL(
                #"mutation { addLaunch(missionName: "Old", rocketId: "falcon1", launchDate: "2000-01-01T00:00:00Z") { id launchDate } }"#,
                as: Added.self)
            #expect(dated.data?.addLaunch?.launchDate == "2000-01-01T00:00:00Z")

            let deleted = try await server.graphQL(#"mutation { deleteLaunch(id: "101") }"#, as: Added.self)
            #expect(deleted.data?.deleteLaunch == "101")
            let again = try await server.graphQL(#"mutation { deleteLaunch(id: "101") }"#, as: Added.self)
            #expect(again.data != nil && again.data?.deleteLaunch == nil)

            let badRocket = try await server.graphQL(
                #"mutation { addLaunch(missionName: "X", rocketId: "saturn5") { id } }"#, as: Added.self)
            #expect(badRocket.errors?.first?.extensions?["argument"] == "rocketId")
            let badDate = try await server.graphQL(
                #"mutation { addLaunch(missionName: "X", rocketId: "falcon9", launchDate: "yesterday") { id } }"#,
                as: Added.self)
            #expect(badDate.errors?.first?.extensions?["argument"] == "launchDate")
        }
    }
}
