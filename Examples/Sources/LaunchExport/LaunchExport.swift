import Foundation
import PagingExport
import PagingHTTPClient

/// A server-side program's export, on the library products alone (no `Tools/`): every item
/// of a REST list that gives its next page in a `Link` header, GitHub's way, appended to a
/// JSON Lines file, over SwiftNIO with retries, and resumable from where it stopped.
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
        if !FileManager.default.fileExists(atPath: file.path) {
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()

        let source = RESTListSource(start: start, transport: RetryingTransport(base: HTTPClientTransport()))
        let writer = JSONExportWriter(format: .lines) { try handle.write(contentsOf: $0) }
        let exporter = Exporter(
            source: source, settings: Exporter.Settings(maximumItems: maximumItems, resume: resume))
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
