import Foundation
import PagingExport
import PagingHTTPClient

/// A server-side program's exports, on the library products alone (no `Tools/`), appended to a
/// JSON Lines file over SwiftNIO with retries, each resumable from where it stopped: every item
/// of a REST list that gives its next page in a `Link` header (GitHub's way), and every launch of
/// every rocket of a GraphQL endpoint (connections inside connections).
public enum LaunchExport {
    /// Exports the list that starts at `start` into the file at `file`, appending.
    /// - Parameters:
    ///   - start: the list's first page, with its page size (`per_page=100`).
    ///   - file: the JSON Lines file; created when missing, appended to otherwise.
    ///   - resume: the cursor a stopped export reported, to continue after it.
    ///   - maximumItems: the most items to write this time; no limit when `nil`.
    ///   - progress: told after each page.
    /// - Returns: how the export ended, and the cursor to resume from.
    public static func run(
        from start: URL, to file: URL, resume: String? = nil, maximumItems: Int? = nil,
        progress: @escaping @Sendable (Exporter.Progress) -> Void = { _ in }
    ) async throws -> Exporter.Result {
        let source = RESTListSource(start: start, transport: RetryingTransport(base: HTTPClientTransport()))
        let exporter = Exporter(
            source: source, settings: Exporter.Settings(maximumItems: maximumItems, resume: resume))
        return try await export(exporter, to: file, progress: progress)
    }

    /// The GraphQL query of ``runRocketLaunches(endpoint:to:pageSize:resume:maximumItems:progress:)``:
    /// every rocket, and in each every launch, both connections paged.
    public static let rocketLaunchesQuery = """
        query RocketLaunches($after: String, $launchesAfter: String, $first: Int) {
          rocketConnection(first: $first, after: $after) @connection(key: "rockets") {
            nodes {
              name
              launches(first: $first, after: $launchesAfter) @connection(key: "launches") {
                nodes { id mission { name } }
              }
            }
          }
        }
        """

    /// Exports every launch of every rocket from a GraphQL endpoint, one line per launch with
    /// its rocket's id (`parentId`), appending to a JSON Lines file: the rockets page after page,
    /// and each rocket's launches to their end, their next pages through `node(id:)`.
    /// - Parameters:
    ///   - endpoint: the GraphQL endpoint.
    ///   - file: the JSON Lines file; created when missing, appended to otherwise.
    ///   - pageSize: the page size of both connections.
    ///   - resume: the cursor a stopped export reported (inside a rocket's launches too).
    ///   - maximumItems: the most launches to write this time; no limit when `nil`.
    ///   - progress: told after each write and each page of launches.
    /// - Returns: how the export ended, and the cursor to resume from.
    public static func runRocketLaunches(
        endpoint: URL, to file: URL, pageSize: Int = 10, resume: String? = nil, maximumItems: Int? = nil,
        progress: @escaping @Sendable (Exporter.Progress) -> Void = { _ in }
    ) async throws -> Exporter.Result {
        let client = GraphQLClient(
            endpoint: endpoint, transport: RetryingTransport(base: HTTPClientTransport()))
        let exporter = try Exporter(
            client: client, query: try GraphQLExportQuery(rocketLaunchesQuery), layout: .flattened,
            settings: Exporter.Settings(pageSize: pageSize, maximumItems: maximumItems, resume: resume))
        return try await export(exporter, to: file, progress: progress)
    }

    /// Runs an export, appending to a JSON Lines file.
    private static func export(
        _ exporter: Exporter, to file: URL, progress: @escaping @Sendable (Exporter.Progress) -> Void
    ) async throws -> Exporter.Result {
        if !FileManager.default.fileExists(atPath: file.path) {
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        let writer = JSONExportWriter(format: .lines) { try handle.write(contentsOf: $0) }
        let export = exporter.start(into: writer)
        // Cancelling this task interrupts the export, which still reports where to resume.
        return await withTaskCancellationHandler {
            for await step in export.progress { progress(step) }
            return await export.result
        } onCancel: {
            export.cancel()
        }
    }
}
