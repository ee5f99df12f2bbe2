import Foundation

/// A new, empty folder of one test's own under the temporary directory. The test removes it when it
/// ends: `defer { removeScratchFolder(folder) }`, or ``withScratchFolder(_:_:)``.
///
/// - Parameter prefix: the start of the folder's name, after which comes a UUID.
func makeScratchFolder(_ prefix: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Removes a folder of ``makeScratchFolder(_:)`` and everything in it; a folder already gone is no
/// error.
func removeScratchFolder(_ folder: URL) {
    try? FileManager.default.removeItem(at: folder)
}

/// Runs `body` with a scratch folder of its own, and removes the folder after it, however it ends.
func withScratchFolder<T>(_ prefix: String = "paging-test", _ body: (URL) async throws -> T) async throws -> T
{
    let folder = try makeScratchFolder(prefix)
    defer { removeScratchFolder(folder) }
    return try await body(folder)
}
