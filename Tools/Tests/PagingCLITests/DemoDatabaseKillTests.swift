import Foundation
import GRDB
import PagingGraphQL
import PagingSQLite
import PagingTesting
import Testing

@testable import PagingCLI

/// `paging demo --database FILE`, killed with SIGKILL at random moments while it pages a list of
/// 3,000 launches into its file: every reopen succeeds, the file holds whole pages and the key that
/// continues after them, and the next run pages on from there, to the same list an uninterrupted
/// run stores; and the client's store file in the same database opens every time, holding whole
/// commits: every launch with all its fields, no reference to a record it lacks.
@Suite("paging demo --database, killed while it writes", .timeLimit(.minutes(30)))
struct DemoDatabaseKillTests {
    static let launches = 3_000
    static let pageSize = 20
    /// Whether the tests run under ThreadSanitizer (`make race` says so): each demo started is
    /// then a sanitized build, about ten times slower to start and run, so the tests that start
    /// dozens run fewer of them there. What they check for races is the same in each run; the
    /// full count runs in `make test`.
    static let underThreadSanitizer = ProcessInfo.processInfo.environment["PAGING_SANITIZER"] == "thread"

    /// The `paging` executable built next to this test bundle.
    static var executable: URL? {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let candidates = [bundle, Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL]
            .map { $0.appendingPathComponent("paging") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the demo without a terminal (it prints each page as it loads); with `killAfter`, sends
    /// SIGKILL once it has printed that many pages, after `delay` more microseconds. `onPage` is
    /// awaited with the number of pages printed so far after each page (the demo goes on meanwhile).
    /// - Returns: whether it ran to the end ("All … launches loaded.").
    static func runDemo(
        database: String, killAfter: Int?, delay: UInt32 = 0, arguments: [String] = [],
        standardError: FileHandle = .nullDevice, onPage: (Int) async throws -> Void = { _ in }
    ) async throws -> Bool {
        let executable = try #require(
            Self.executable, "build the paging product first (swift build --build-tests)")
        let process = Process()
        process.executableURL = executable
        process.arguments =
            [
                "demo", "--database", database, "--synthetic", "\(launches)", "--page-size", "\(pageSize)",
            ] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = standardError
        let (chunks, continuation) = AsyncStream<Data>.makeStream()
        try process.run()
        // Read on a thread of its own, not with `readabilityHandler`: that one watches the pipe
        // with a dispatch source, and on Linux a source whose descriptor is closed before its
        // cancellation lands is one way into libdispatch's crash (RELIABILITY.md, "Race
        // detection"). The thread ends at the pipe's end, when the demo has exited.
        let reading = output.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let data = reading.availableData
                guard !data.isEmpty else { break }
                continuation.yield(data)
            }
            continuation.finish()
        }
        var pages = 0
        var finished = false
        var text = ""
        reading: for await chunk in chunks {
            text += String(decoding: chunk, as: UTF8.self)
            var lines = text.components(separatedBy: "\n")
            text = lines.removeLast()
            for line in lines {
                if line.hasPrefix("Page ") {
                    pages += 1
                    try await onPage(pages)
                }
                if line.hasPrefix("All \(launches) launches loaded") { finished = true }
                if let killAfter, pages >= killAfter, process.isRunning {
                    if delay > 0 { usleep(delay) }
                    kill(process.processIdentifier, SIGKILL)
                    break reading
                }
            }
        }
        process.waitUntilExit()
        return finished && process.terminationStatus == 0
    }

    /// What a file holds of the demo's list: the items' ids by position, and the stored next key.
    static func storedList(_ path: String) throws -> (ids: [String], positions: [Int], nextKey: Data?) {
        // Opening through the library first: a file it cannot open fails here.
        _ = try LocalListFile(path: path)
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT position, item FROM list_items WHERE list = 'demo-launches' ORDER BY position")
            let decoder = JSONDecoder()
            let ids = try rows.map { row -> String in
                let data: Data = row["item"]
                return try decoder.decode(TutorialLaunch.self, from: data).id
            }
            let nextKey = try Data.fetchOne(
                db, sql: "SELECT next_key FROM lists WHERE list = 'demo-launches'")
            return (ids, rows.map { $0["position"] }, nextKey)
        }
    }

    /// What the client's store file in the database holds: its records, and the launches among
    /// them that lack a field the list's query selects, or references to no record.
    static func storedStore(_ path: String) throws -> (records: Int, launches: Int, defects: [String]) {
        // Through the library: a store file it cannot open or load fails here.
        let store = GraphQLStore()
        try GraphQLStoreFile(path: path).attach(store)
        var defects: [String] = []
        var launches = 0
        func references(_ value: StoreValue) -> [CacheKey] {
            switch value {
            case .scalar: []
            case .reference(let key): [key]
            case .object(let object): object.fields.values.flatMap(references)
            case .list(let elements): elements.flatMap(references)
            }
        }
        for key in store.recordKeys {
            guard let record = store.record(for: key) else { continue }
            if key.rawValue.hasPrefix("Launch:") {
                launches += 1
                let missing = ["id", "site", "mission", "rocket", "isBooked", "launchDate"]
                    .filter { record.fields[$0] == nil }
                if !missing.isEmpty { defects.append("\(key) lacks \(missing)") }
            }
            for (name, value) in record.fields {
                for target in references(value) where store.record(for: target) == nil {
                    defects.append("\(key).\(name) refers to \(target), which the file lacks")
                }
            }
        }
        return (store.recordKeys.count, launches, defects)
    }

    @Test(
        "50 runs killed at random moments (10 under ThreadSanitizer) leave whole pages that the next run pages on from"
    )
    func killedRuns() async throws {
        let seed = SeededGenerator.testSeed()
        print("DemoDatabaseKillTests seed \(seed); replay with PAGING_SEED=\(seed)")
        var random = SeededGenerator(seed: seed)
        let directory = try makeScratchFolder("paging-kill")
        defer { removeScratchFolder(directory) }

        // The list an uninterrupted run stores.
        let reference = directory.appendingPathComponent("reference.sqlite").path
        #expect(try await Self.runDemo(database: reference, killAfter: nil))
        let expected = try Self.storedList(reference).ids
        #expect(expected.count == Self.launches)
        #expect(Set(expected).count == Self.launches)
        let referenceStore = try Self.storedStore(reference)
        #expect(referenceStore.launches == Self.launches, "the store file holds every launch")
        #expect(referenceStore.defects.isEmpty, "\(referenceStore.defects.prefix(3))")

        let database = directory.appendingPathComponent("killed.sqlite").path
        var stored = 0
        var storedLaunches = 0
        var killedBeforeTheEnd = 0
        let runs = Self.underThreadSanitizer ? 10 : 50
        for run in 0..<runs {
            // Somewhere between the pages the file already holds (printed first) and a few past them.
            let storedPages = stored / Self.pageSize
            let killAfter = Int.random(in: 1...(storedPages + 4), using: &random)
            let delay = UInt32.random(in: 0...3_000, using: &random)
            _ = try await Self.runDemo(database: database, killAfter: killAfter, delay: delay)
            let list = try Self.storedList(database)
            // Positions are written evenly spaced, from 0: an item missing inside a page, or a page
            // missing between two, breaks the spacing.
            let step = list.positions.count > 1 ? list.positions[1] - list.positions[0] : 1
            #expect(
                list.positions.first ?? 0 == 0 && step > 0
                    && zip(list.positions, list.positions.dropFirst()).allSatisfy { $1 - $0 == step },
                "run \(run): positions not evenly spaced")
            #expect(list.ids.count % Self.pageSize == 0, "run \(run): half a page (\(list.ids.count) items)")
            #expect(
                Array(expected.prefix(list.ids.count)) == list.ids, "run \(run): not the list's first items")
            #expect(
                list.ids.count >= stored, "run \(run): the file lost items (\(stored) → \(list.ids.count))")
            #expect(
                list.nextKey != nil || list.ids.count == Self.launches,
                "run \(run): no key to continue from")
            // The store file, written off the demo's path, opens and holds whole commits only.
            let storeFile = try Self.storedStore(database)
            #expect(storeFile.defects.isEmpty, "run \(run): \(storeFile.defects.prefix(3))")
            #expect(
                storeFile.launches >= storedLaunches,
                "run \(run): the store file lost launches (\(storedLaunches) → \(storeFile.launches))")
            storedLaunches = storeFile.launches
            stored = list.ids.count
            if stored < Self.launches { killedBeforeTheEnd += 1 }
        }
        #expect(killedBeforeTheEnd >= runs / 2, "most runs are to be killed while the list is incomplete")
        // The list pages on to its end from what the killed runs left.
        #expect(try await Self.runDemo(database: database, killAfter: nil))
        #expect(try Self.storedList(database).ids == expected)
        #expect(try Self.storedStore(database).launches == Self.launches)
    }
}
