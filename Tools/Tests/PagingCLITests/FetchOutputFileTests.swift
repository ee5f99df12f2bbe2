import Foundation
import LaunchServer
import PagingExport
import Testing

@testable import PagingCLI

/// The ids of the objects of a file that holds one JSON array.
private func ids(inJSONArrayFile path: String) throws -> [String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
        throw TestFailure("not an array of objects: \(String(decoding: data, as: UTF8.self))")
    }
    return array.compactMap { $0["id"] as? String }
}

@Suite("paging fetch -o FILE, new and resumed")
struct FetchOutputFileTests {
    private func arguments(_ server: LaunchServer, _ extra: [String]) -> [String] {
        ["fetch", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery]
            + extra
    }

    @Test("--slurp --resume continues the JSON array in the file, keeping what the first run exported")
    func slurpResumeContinuesTheArray() async throws {
        try await withScratchFolder("paging-output") { folder in
            let path = folder.appendingPathComponent("launches.json").path
            try await withLaunchServer { server in
                let expected = try await allLaunchIDs(server)
                let options = ["--page-size", "30", "--slurp", "-o", path]
                let first = await Command.run(arguments(server, options + ["--max-pages", "2"]))
                #expect(first.status == 0, "\(first.standardError)")
                #expect(try ids(inJSONArrayFile: path) == Array(expected.prefix(60)))
                let cursor = try #require(first.resumeCursor)

                let second = await Command.run(arguments(server, options + ["--resume", cursor]))
                #expect(second.status == 0, "\(second.standardError)")
                #expect(try ids(inJSONArrayFile: path) == expected)
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["launches.json"])
            }
        }
    }

    @Test("a --slurp --resume that fails leaves every element the file held")
    func failedSlurpResumeKeepsTheFile() async throws {
        try await withScratchFolder("paging-output") { folder in
            let path = folder.appendingPathComponent("launches.json").path
            let server = try await LaunchServer.start()
            let options = ["--page-size", "25", "--slurp", "-o", path]
            let first = await Command.run(arguments(server, options + ["--max-pages", "1"]))
            await server.stop()
            #expect(first.status == 0, "\(first.standardError)")
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(try ids(inJSONArrayFile: path).count == 25)
            let cursor = try #require(first.resumeCursor)

            // The server is gone: the resumed export fails before it writes anything.
            let second = await Command.run(
                arguments(server, options + ["--resume", cursor, "--retries", "0"]))
            #expect(second.status == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #expect(second.resumeCursor == cursor)
        }
    }

    @Test("a resumed export refuses a file in the other format, says what to do, and leaves it as it was")
    func resumeRefusesTheOtherFormat() async throws {
        try await withScratchFolder("paging-output") { folder in
            let lines = folder.appendingPathComponent("launches.jsonl").path
            let array = folder.appendingPathComponent("launches.json").path
            try await withLaunchServer { server in
                let first = await Command.run(
                    arguments(server, ["--page-size", "10", "--max-pages", "1", "-o", lines]))
                let cursor = try #require(first.resumeCursor)
                _ = await Command.run(
                    arguments(server, ["--page-size", "10", "--max-pages", "1", "--slurp", "-o", array]))
                let linesBefore = try Data(contentsOf: URL(fileURLWithPath: lines))
                let arrayBefore = try Data(contentsOf: URL(fileURLWithPath: array))

                let slurpIntoLines = await Command.run(
                    arguments(server, ["--slurp", "--resume", cursor, "-o", lines]))
                #expect(slurpIntoLines.status == 2)
                #expect(
                    slurpIntoLines.standardError.contains("without --slurp"),
                    "\(slurpIntoLines.standardError)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: lines)) == linesBefore)

                let linesIntoArray = await Command.run(arguments(server, ["--resume", cursor, "-o", array]))
                #expect(linesIntoArray.status == 2)
                #expect(
                    linesIntoArray.standardError.contains("resume with --slurp"),
                    "\(linesIntoArray.standardError)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: array)) == arrayBefore)
            }
        }
    }

    @Test("an export without --resume replaces the file, --slurp or not")
    func newExportReplacesTheFile() async throws {
        try await withScratchFolder("paging-output") { folder in
            let path = folder.appendingPathComponent("launches.json").path
            try Data("[\n{\"id\":\"old\"}\n]\n".utf8).write(to: URL(fileURLWithPath: path))
            try await withLaunchServer { server in
                let expected = try await allLaunchIDs(server)
                let run = await Command.run(arguments(server, ["--max-items", "5", "--slurp", "-o", path]))
                #expect(run.status == 0, "\(run.standardError)")
                #expect(try ids(inJSONArrayFile: path) == Array(expected.prefix(5)))
                let lines = await Command.run(arguments(server, ["--max-items", "3", "-o", path]))
                #expect(lines.status == 0, "\(lines.standardError)")
                let text = try String(contentsOfFile: path, encoding: .utf8)
                #expect(try ids(inJSONLines: text) == Array(expected.prefix(3)))
            }
        }
    }
}
