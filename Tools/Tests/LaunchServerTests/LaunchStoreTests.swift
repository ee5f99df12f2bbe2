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
