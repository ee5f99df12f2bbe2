import ArgumentParser
import Benchmark
import BenchmarkSupport
import Foundation
import LaunchServer
import PagingCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Issue 6, target 3: `paging fetch` (the command, run in this process: the engine's pager over
// the GraphQL client, JSON Lines out) over the launch server on loopback, 100,000 rows at 100 a
// page, against a hand-written loop with URLSession and JSONDecoder doing the same requests and
// writing the same lines, as the Apollo tutorial's code would. Target: at most 1.05 times.

let exportRows = 100_000
let exportDocument = """
    query Export($first: Int, $after: String) {
      launchConnection(first: $first, after: $after) {
        edges { cursor node { id site mission { name } } }
        pageInfo { endCursor hasNextPage }
      }
    }
    """

struct ExportFixture: Sendable {
    let server: LaunchServer
    let queryFile: URL
}

/// The tutorial's way: Codable types for the response, a loop over the cursor.
struct ExportResponse: Decodable {
    struct Data: Decodable { let launchConnection: Connection }
    struct Connection: Decodable {
        let edges: [Edge]
        let pageInfo: PageInfo
    }
    struct Edge: Decodable {
        let cursor: String
        let node: Launch
    }
    struct PageInfo: Decodable {
        let endCursor: String?
        let hasNextPage: Bool
    }
    struct Launch: Codable {
        struct Mission: Codable { let name: String? }
        let id: String
        let site: String?
        let mission: Mission?
    }
    let data: Data?
}

struct ExportRequest: Encodable {
    struct Variables: Encodable {
        let first: Int
        let after: String?
    }
    let query: String
    let variables: Variables
}

/// Pages through the connection by hand and writes each node as a line to /dev/null.
func handWrittenExport(endpoint: URL) async throws -> Int {
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
    defer { try? output.close() }
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    var after: String?
    var written = 0
    while true {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try encoder.encode(
            ExportRequest(query: exportDocument, variables: .init(first: 100, after: after)))
        let (body, _) = try await URLSession.shared.data(for: request)
        guard let connection = try decoder.decode(ExportResponse.self, from: body).data?.launchConnection
        else {
            throw BenchmarkSetupError("no data in \(String(decoding: body, as: UTF8.self).prefix(200))")
        }
        var lines = Data()
        for edge in connection.edges {
            lines.append(try encoder.encode(edge.node))
            lines.append(0x0A)
        }
        try output.write(contentsOf: lines)
        written += connection.edges.count
        guard connection.pageInfo.hasNextPage, let cursor = connection.pageInfo.endCursor else {
            return written
        }
        after = cursor
    }
}

/// Runs `paging fetch` in this process, writing to /dev/null.
func pagingFetch(endpoint: URL, queryFile: URL) async throws {
    let parsed = try PagingCommand.parseAsRoot([
        "fetch", "--endpoint", endpoint.absoluteString, "--query", queryFile.path, "--page-size", "100",
        "--output", "/dev/null", "--quiet",
    ])
    guard var command = parsed as? any AsyncParsableCommand else {
        throw BenchmarkSetupError("fetch is not an async command")
    }
    try await command.run()
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], warmupIterations: 1,
        maxDuration: .seconds(200), maxIterations: 10)
    let fixture = Shared<ExportFixture>()
    let setup: @Sendable () async throws -> Void = {
        var settings = LaunchServerConfiguration()
        settings.dataset = .synthetic(count: exportRows)
        let server = try await LaunchServer.start(settings)
        let queryFile = FileManager.default.temporaryDirectory.appending(
            path: "paging-export-\(UUID()).graphql")
        try Data(exportDocument.utf8).write(to: queryFile)
        // Both variants must export every row.
        let count = try await handWrittenExport(endpoint: server.graphQLURL)
        guard count == exportRows else { throw BenchmarkSetupError("the loop exported \(count) rows") }
        fixture.set(ExportFixture(server: server, queryFile: queryFile))
    }
    let teardown: @Sendable () async throws -> Void = {
        if let value = try? fixture.get() {
            await value.server.stop()
            try? FileManager.default.removeItem(at: value.queryFile)
        }
        fixture.set(nil)
    }

    Benchmark(
        "export 100,000 rows: paging fetch (pager)", configuration: configuration,
        closure: { _ in
            let value = try fixture.get()
            try await pagingFetch(endpoint: value.server.graphQLURL, queryFile: value.queryFile)
        }, setup: setup, teardown: teardown)

    Benchmark(
        "export 100,000 rows: hand-written URLSession loop", configuration: configuration,
        closure: { _ in
            let value = try fixture.get()
            blackHole(try await handWrittenExport(endpoint: value.server.graphQLURL))
        }, setup: setup, teardown: teardown)
}
