import Foundation
import Testing

@testable import LaunchServer

@Suite("The store")
struct LaunchStoreTests {
    @Test("loads the 100 SpaceX launches; FalconSat at Kwajalein Atoll is the oldest")
    func loadsTheDataset() async throws {
        let store = try await LaunchStore.open(database: .inMemory, dataset: .spaceX)
        #expect(try await store.count(scope: .all) == 100)
        let oldest = try await store.page(scope: .all, below: nil, above: nil, newestFirst: false, limit: 1)
        #expect(oldest.first?.mission.name == "FalconSat")
        #expect(oldest.first?.site == "Kwajalein Atoll")
        #expect(try await store.count(scope: .rocket("falcon1")) == 5)
        #expect(try await store.count(scope: .rocket("falcon9")) == 92)
    }

    @Test(
        "cursor queries seek an index: no scan, no sort",
        arguments: [
            (LaunchScope.all, true, "launch_by_date"), (LaunchScope.all, false, "launch_by_date"),
            (LaunchScope.rocket("falcon9"), true, "launch_by_rocket_date"),
            (LaunchScope.rocket("falcon9"), false, "launch_by_rocket_date"),
        ]
    )
    func usesTheIndex(scope: LaunchScope, newestFirst: Bool, index: String) async throws {
        let store = try await LaunchStore.open(database: .inMemory, dataset: .synthetic(count: 2_000))
        let position = KeysetPosition(date: 1_143_300_000, id: 100)
        for (upper, lower) in [
            (position, nil), (nil, position), (position, KeysetPosition(date: 0, id: 0)), (nil, nil),
        ] {
            let query = LaunchStore.keysetQuery(
                scope: scope, below: upper, above: lower, newestFirst: newestFirst, limit: 21)
            let plan = try await store.queryPlan(sql: query.sql, arguments: query.arguments)
            print(query.sql, plan)
            #expect(plan.contains { $0.contains("SEARCH") || $0.contains("SCAN") }, "\(plan)")
            #expect(plan.allSatisfy { $0.contains(index) }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
            if upper != nil || lower != nil || scope != .all {
                #expect(plan.allSatisfy { $0.hasPrefix("SEARCH") }, "a bounded query seeks: \(plan)")
            }
        }
    }

    @Test("a cursor at a launch that shares its second with another splits the tie by id")
    func splitsTies() async throws {
        let store = try await LaunchStore.open(database: .inMemory, dataset: .synthetic(count: 60))
        let rows = Array(LaunchGenerator(count: 60))
        #expect(rows[48].launchDate == rows[49].launchDate, "launches 49 and 50 share a second")
        let at50 = KeysetPosition(date: rows[49].launchDate, id: 50)
        let older = try await store.page(scope: .all, below: at50, above: nil, newestFirst: true, limit: 2)
        #expect(older.map(\.number) == [49, 48])
        let at49 = KeysetPosition(date: rows[48].launchDate, id: 49)
        let newer = try await store.page(scope: .all, below: nil, above: at49, newestFirst: false, limit: 2)
        #expect(newer.map(\.number) == [50, 51])
    }

    @Test("the timeline query seeks the push-key index")
    func timelineUsesTheIndex() async throws {
        let store = try await LaunchStore.open(database: .inMemory, dataset: .spaceX)
        let plan = try await store.queryPlan(
            sql:
                "SELECT \(LaunchStore.columns) FROM launch WHERE push_key <= ? ORDER BY push_key DESC LIMIT ?",
            arguments: ["-M", 5])
        #expect(plan.allSatisfy { $0.hasPrefix("SEARCH") && $0.contains("launch_by_push_key") }, "\(plan)")
    }

    @Test("push keys sort as the launches do")
    func pushKeysSortLikePositions() {
        let positions = LaunchGenerator(count: 300).map { KeysetPosition(date: $0.launchDate, id: $0.number) }
        let byKey = positions.sorted { PushKey.make(for: $0) < PushKey.make(for: $1) }
        #expect(byKey == positions.sorted())
        #expect(PushKey.make(for: positions[0]).count == 20)
    }

    @Test("a file database keeps its changes across openings and refuses foreign files")
    func persistsToAFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(
            path: "launch-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "launches.sqlite").path
        do {
            let store = try await LaunchStore.open(database: .file(path: path), dataset: .spaceX)
            _ = try await store.setBooked([7], booked: true)
        }
        let reopened = try await LaunchStore.open(database: .file(path: path), dataset: .synthetic(count: 5))
        #expect(try await reopened.count(scope: .all) == 100, "an existing database is used as it is")
        #expect(try await reopened.launch(number: 7)?.isBooked == true)

        let foreign = directory.appending(path: "foreign.txt").path
        try Data("this is not a database, just text long enough to look like a header".utf8).write(
            to: URL(filePath: foreign))
        await #expect(throws: LaunchServerError.self) {
            _ = try await LaunchStore.open(database: .file(path: foreign), dataset: .spaceX)
        }
    }
}

@Suite("The store's filtered and ordered lists")
struct LaunchStoreFilterTests {
    /// Every combination of the two equality filters and the two orders, and the index it
    /// must seek.
    static let combinations: [(LaunchScope, LaunchOrder, String)] = [
        (LaunchScope(booked: true), .newestFirst, "launch_by_booked_date"),
        (LaunchScope(booked: false), .newestFirst, "launch_by_booked_date"),
        (LaunchScope(site: "KSC LC 39A"), .newestFirst, "launch_by_site_booked_date"),
        (LaunchScope(booked: true, site: "KSC LC 39A"), .newestFirst, "launch_by_site_booked_date"),
        (LaunchScope.all, .missionName, "launch_by_booked_name"),
        (LaunchScope(booked: false), .missionName, "launch_by_booked_name"),
        (LaunchScope(site: "VAFB SLC 4E"), .missionName, "launch_by_site_booked_name"),
        (LaunchScope(booked: true, site: "VAFB SLC 4E"), .missionName, "launch_by_site_booked_name"),
        (LaunchScope(search: "sat", booked: true), .missionName, "launch_by_booked_name"),
    ]

    @Test(
        "each filter and order seeks its index from the cursor on: no scan, no sort but the merge of at most twice a page",
        arguments: combinations
    )
    func usesTheIndexes(scope: LaunchScope, order: LaunchOrder, index: String) async throws {
        let store = try await LaunchStore.open(database: .inMemory, dataset: .synthetic(count: 2_000))
        let launch = try #require(try await store.launch(number: 1_000))
        let position = launch.position(in: order)
        for (after, before, fromStart) in [
            (position, nil, true), (nil, position, false), (nil, nil, true), (nil, nil, false),
        ] as [(LaunchListPosition?, LaunchListPosition?, Bool)] {
            let query = LaunchStore.keysetQuery(
                scope: scope, order: order, after: after, before: before, fromStart: fromStart, limit: 21)
            let plan = try await store.queryPlan(sql: query.sql, arguments: query.arguments)
            // The table's reads; a merged list also scans its two subqueries' rows (at most
            // `limit` each) and sorts them, which the page's size bounds.
            let reads = plan.filter { $0.hasPrefix("SEARCH launch") || $0.hasPrefix("SCAN launch") }
            #expect(reads.allSatisfy { $0.hasPrefix("SEARCH launch USING") && $0.contains(index) }, "\(plan)")
            let merged = scope.booked == nil
            #expect(reads.count == (merged ? 2 : 1), "\(plan)")
            if !merged {
                #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
            } else {
                #expect(plan.first == "MERGE (UNION ALL)", "\(plan)")
            }
        }
    }

    @Test("the counts of the booked and unbooked launches follow bookings, additions and deletions")
    func countsBookings() async throws {
        let store = try await LaunchStore.open(database: .inMemory, dataset: .spaceX)
        _ = try await store.setBooked([1, 2, 2, 3], booked: true)
        _ = try await store.setBooked([3, 3, 4], booked: true)
        #expect(try await store.count(scope: LaunchScope(booked: true)) == 4)
        _ = try await store.setBooked([4, 99], booked: false)
        #expect(try await store.count(scope: LaunchScope(booked: true)) == 3)
        #expect(try await store.count(scope: LaunchScope(booked: false)) == 97)
        #expect(try await store.delete(number: 2))
        #expect(try await store.count(scope: LaunchScope(booked: true)) == 2)
        _ = try await store.add(missionName: "New", site: "KSC LC 39A", rocketID: "falcon9", launchDate: nil)
        #expect(try await store.count(scope: LaunchScope(booked: false)) == 98)
        #expect(try await store.count(scope: LaunchScope(booked: false, site: "KSC LC 39A")) == 24)
        #expect(try await store.count(scope: LaunchScope(search: "crs", booked: true)) == 0)
    }

    @Test("a version 1 database file is migrated: the new indexes, and the count of its bookings")
    func migratesVersion1() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(
            path: "launch-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "launches.sqlite").path
        do {
            // A version 1 file, as the previous server left it: without the filter indexes and
            // the booked count, with bookings.
            let store = try await LaunchStore.open(database: .file(path: path), dataset: .spaceX)
            _ = try await store.setBooked([5, 6], booked: true)
            try await store.writer.write { db in
                try db.execute(
                    sql: """
                        DROP INDEX launch_by_booked_date; DROP INDEX launch_by_booked_name;
                        DROP INDEX launch_by_site_booked_date; DROP INDEX launch_by_site_booked_name;
                        ALTER TABLE launch_stats DROP COLUMN booked;
                        PRAGMA user_version = 1;
                        """)
            }
        }
        let reopened = try await LaunchStore.open(database: .file(path: path), dataset: .spaceX)
        #expect(try await reopened.count(scope: LaunchScope(booked: true)) == 2)
        let query = LaunchStore.keysetQuery(
            scope: LaunchScope(booked: true), order: .missionName, after: nil, before: nil, fromStart: true,
            limit: 5)
        let plan = try await reopened.queryPlan(sql: query.sql, arguments: query.arguments)
        #expect(plan.allSatisfy { $0.contains("launch_by_booked_name") }, "\(plan)")
        let version = try await reopened.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version")
        }
        #expect(version == 2)
    }
}
