import Foundation
import LaunchServer
import PagingExport
import Testing

@testable import LaunchExport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("An export of a REST list on PagingExport and HTTPClientTransport, without Tools/")
struct LaunchExportTests {
    /// The ids of a JSON Lines file, in order.
    private static func ids(in file: URL) throws -> [String] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { line in
            let value = try JSONValue(json: Data(line.utf8))
            return try #require(value["id"]?.stringValue, "a line without an id: \(line)")
        }
    }

    @Test("every launch, once, in the server's order; stopped in the middle of a page, resumed to the end")
    func exportAndResume() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "launch-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await LaunchServer.withRunning(LaunchServerConfiguration()) { server in
            let start = server.baseURL.appending(path: "api/launches").appending(queryItems: [
                URLQueryItem(name: "per_page", value: "25")
            ])
            let whole = folder.appending(path: "whole.jsonl")
            let steps = Recorder()
            let done = try await LaunchExport.run(from: start, to: whole) { steps.add($0) }
            guard case .completed = done.ending else {
                Issue.record("the export ended \(done.ending)")
                return
            }
            let all = try Self.ids(in: whole)
            #expect(all.count == 100)
            #expect(Set(all).count == 100, "each launch once")
            #expect(done.pages == 4)
            #expect(steps.values.map(\.items) == [25, 50, 75, 100])
            #expect(steps.values.last?.totalCount == 100, "the server's X-Total-Count")

            // 30 items: the second page is cut after its fifth; the rest comes on resuming.
            let parts = folder.appending(path: "parts.jsonl")
            let stopped = try await LaunchExport.run(from: start, to: parts, maximumItems: 30)
            guard case .limitReached = stopped.ending, let cursor = stopped.resumeCursor else {
                Issue.record("the first part ended \(stopped.ending)")
                return
            }
            #expect(try Self.ids(in: parts) == Array(all.prefix(30)))
            let rest = try await LaunchExport.run(from: start, to: parts, resume: cursor)
            guard case .completed = rest.ending else {
                Issue.record("the rest ended \(rest.ending)")
                return
            }
            #expect(rest.items == 70)
            #expect(try Self.ids(in: parts) == all, "nothing lost, nothing repeated")
        }
    }
}

@Suite("An export of connections inside connections on PagingExport, without Tools/")
struct RocketLaunchesExportTests {
    /// Every rocket id and its launch ids, as the server has them, in one request.
    private static func rocketLaunches(_ server: LaunchServer) async throws -> [String] {
        var request = URLRequest(url: server.graphQLURL)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(
            #"{"query":"{ rocketConnection(first: 100) { nodes { id launches(first: 100) { nodes { id } } } } }"}"#
                .utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        let rockets = try #require(
            try JSONValue(json: data)[path: ["data", "rocketConnection", "nodes"]]?.arrayValue)
        return rockets.flatMap { rocket in
            let id = rocket["id"]?.stringValue ?? "?"
            return (rocket[path: ["launches", "nodes"]]?.arrayValue ?? []).map {
                "\(id)/\($0["id"]?.stringValue ?? "?")"
            }
        }
    }

    /// The lines of a flattened export as "rocket/launch".
    private static func lines(in file: URL) throws -> [String] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { line in
            let value = try JSONValue(json: Data(line.utf8))
            let parent = try #require(value["parentId"]?.stringValue, "no parentId: \(line)")
            let id = try #require(value["id"]?.stringValue, "no id: \(line)")
            #expect(value["mission"]?["name"]?.stringValue != nil)
            return "\(parent)/\(id)"
        }
    }

    @Test(
        "every launch of every rocket once, in order; stopped inside a rocket's launches, resumed to the end")
    func exportAndResume() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "rocket-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await LaunchServer.withRunning(LaunchServerConfiguration()) { server in
            let expected = try await Self.rocketLaunches(server)
            #expect(expected.count == 100)
            let whole = folder.appending(path: "whole.jsonl")
            let steps = Recorder()
            let done = try await LaunchExport.runRocketLaunches(
                endpoint: server.graphQLURL, to: whole, pageSize: 3
            ) { steps.add($0) }
            guard case .completed = done.ending else {
                Issue.record("the export ended \(done.ending)")
                return
            }
            #expect(try Self.lines(in: whole) == expected)
            #expect(done.items == 100)
            #expect(steps.values.last?.innerNodes == 100, "every launch loaded once")
            #expect((steps.values.last?.innerPages ?? 0) > steps.values.last?.pages ?? 0)

            // 7 launches: the export stops inside a rocket's launches (pages of 3); the rest on resuming.
            let parts = folder.appending(path: "parts.jsonl")
            let stopped = try await LaunchExport.runRocketLaunches(
                endpoint: server.graphQLURL, to: parts, pageSize: 3, maximumItems: 7)
            guard case .limitReached = stopped.ending, let cursor = stopped.resumeCursor else {
                Issue.record("the first part ended \(stopped.ending)")
                return
            }
            #expect(try Self.lines(in: parts) == Array(expected.prefix(7)))
            #expect(cursor.hasPrefix("nested1."), "a position inside a rocket's launches: \(cursor)")
            let rest = try await LaunchExport.runRocketLaunches(
                endpoint: server.graphQLURL, to: parts, pageSize: 3, resume: cursor)
            guard case .completed = rest.ending else {
                Issue.record("the rest ended \(rest.ending)")
                return
            }
            #expect(rest.items == 93)
            #expect(try Self.lines(in: parts) == expected, "nothing lost, nothing repeated")
        }
    }
}

/// The progress an export told, in order.
private final class Recorder: @unchecked Sendable {
    // @unchecked: `steps` is read and written under `lock` only.
    private let lock = NSLock()
    private var steps: [Exporter.Progress] = []
    var values: [Exporter.Progress] { lock.withLock { steps } }
    func add(_ step: Exporter.Progress) { lock.withLock { steps.append(step) } }
}
