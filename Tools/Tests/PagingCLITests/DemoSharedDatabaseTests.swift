import Foundation
import LaunchServer
import Paging
import PagingGraphQLClient
import PagingSQLite
import Testing

@testable import PagingCLI

/// Two processes on one list file, as an app and its widget share one: two `paging demo
/// --database FILE` started at once both page to the end, and the file holds the list once; and a
/// demo pages to the end while another process (this test's) refreshes the list in the same file
/// again and again.
@Suite("paging demo --database, two processes on one file", .timeLimit(.minutes(30)))
struct DemoSharedDatabaseTests {
    typealias Kill = DemoDatabaseKillTests

    @Test("two demos started at once on one file both load every launch, and the file holds each once")
    func twoDemosAtOnce() async throws {
        let directory = try makeScratchFolder("paging-shared")
        defer { removeScratchFolder(directory) }
        let reference = directory.appendingPathComponent("reference.sqlite").path
        #expect(try await Kill.runDemo(database: reference, killAfter: nil))
        let expected = try Kill.storedList(reference).ids

        // The second starts at once, or once the first has stored a few pages: it then opens from
        // the file, reads what the first stored, and reaches the file's end while the first writes
        // there (before the fix it stopped there, at 20 items, with a repeated key).
        // Under ThreadSanitizer (Kill.underThreadSanitizer), the case the fix was for only.
        for startAfter in Kill.underThreadSanitizer ? [4] : [0, 1, 4] {
            let shared = directory.appendingPathComponent("shared-\(startAfter).sqlite").path
            // A server answer takes a few milliseconds, as over a network: time for the other to
            // store the same page meanwhile.
            let latency = ["--latency", "2-10"]
            // What each prints on its standard error: a page that failed (then retried) shows there.
            let logs = (0..<2).map { directory.appendingPathComponent("errors-\(startAfter)-\($0).txt") }
            let handles = try logs.map { log in
                #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
                return try FileHandle(forWritingTo: log)
            }
            let (firstErrors, secondErrors) = (handles[0], handles[1])
            var second: Task<Bool, any Error>?
            func startSecond() {
                second = Task {
                    try await Kill.runDemo(
                        database: shared, killAfter: nil, arguments: latency, standardError: secondErrors)
                }
            }
            if startAfter == 0 { startSecond() }
            let first = try await Kill.runDemo(
                database: shared, killAfter: nil, arguments: latency, standardError: firstErrors
            ) { pages in
                if pages == startAfter { startSecond() }
            }
            let finished = [first, try await second?.value ?? false]
            for handle in handles { try handle.close() }
            #expect(
                finished == [true, true],
                "second started after \(startAfter) pages: each prints \"All \(Kill.launches) launches loaded.\""
            )
            for log in logs {
                let errors = try String(contentsOf: log, encoding: .utf8)
                #expect(errors.isEmpty, "second started after \(startAfter) pages: \(errors.prefix(400))")
            }
            #expect(
                try Kill.storedList(shared).ids == expected,
                "second started after \(startAfter) pages: the file holds the list once")
        }
    }

    @Test("a demo pages to the end while another process refreshes the list in its file")
    func refreshInAnotherProcess() async throws {
        let directory = try makeScratchFolder("paging-shared-refresh")
        defer { removeScratchFolder(directory) }
        let database = directory.appendingPathComponent("shared.sqlite").path
        // This process serves the same launches as the demo's server, and keeps the same list.
        var configuration = LaunchServerConfiguration()
        configuration.dataset = .synthetic(count: Kill.launches)
        let server = try await LaunchServer.start(configuration)
        let api = TutorialAPI(client: GraphQLClient(endpoint: server.graphQLURL, timeout: patience))
        let source = try DemoCommand.offlineFirstSource(api: api, path: database)
        let pager = try DemoCommand.makePager(source: source, pageSize: Kill.pageSize, prefetchDistance: 0)
        var refreshes = 0
        let finished: Bool
        let log = directory.appendingPathComponent("errors.txt")
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        let errors = try FileHandle(forWritingTo: log)
        do {
            finished = try await Kill.runDemo(
                database: database, killAfter: nil, arguments: ["--latency", "2-10"], standardError: errors
            ) { pages in
                // Every fifth page the demo prints, this process refreshes the list it shares.
                guard pages % 5 == 0 else { return }
                _ = try await pager.refresh().value
                refreshes += 1
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        try errors.close()
        #expect(finished, "the demo prints \"All \(Kill.launches) launches loaded.\"")
        let printed = try String(contentsOf: log, encoding: .utf8)
        #expect(printed.isEmpty, "no page failed: \(printed.prefix(400))")
        #expect(refreshes >= 5, "the list was refreshed while the demo paged (\(refreshes) times)")
        let stored = try Kill.storedList(database).ids
        #expect(Set(stored).count == stored.count, "no launch stored twice")
    }
}
