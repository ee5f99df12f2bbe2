import Foundation
import PagingGraphQL
import PagingTestSupport
import Testing

@testable import PagingSQLite

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A file the process may not write is refused before SQLite opens it: no `-wal` or `-shm`
/// beside it, and the file byte for byte as it was.
///
/// Root may write any file whatever its mode, so under root (as these tests run in CI) the test
/// of a real file runs itself again as root without the capabilities that override file modes
/// (`setpriv --bounding-set=-dac_override,-dac_read_search`: it still reaches the test bundle in
/// a clone's private temporary directory, and may write only what its modes allow), and
/// the decisions about the `-wal`, `-shm` and the directory are tested through the check's probe,
/// answering as the system answers other users.
// A run of the test bundle in a process of its own takes a while under ThreadSanitizer on a
// busy machine.
@Suite("Opening a file the process may not write", .timeLimit(.minutes(HangLimit.minutes(5))))
struct UnwritableFileTests {
    /// Set in the environment of the run as an unprivileged user: the file it opens.
    static let fileVariable = "PAGING_SQLITE_TEST_UNWRITABLE_FILE"
    /// What that run prints once both files were refused, for the root run to find.
    static let refusedMark = "unwritable file refused"
    static let setpriv = "/usr/bin/setpriv"

    /// Whether the test can see what a process bound by file modes sees: it is not root, or it
    /// can run itself again as root without the capabilities that override them.
    static var canRunUnprivileged: Bool {
        #if os(Linux)
            geteuid() != 0 || FileManager.default.isExecutableFile(atPath: setpriv)
        #else
            geteuid() != 0
        #endif
    }

    @Test(
        "a file of mode 0444 is refused, as a list file and as a store file, and nothing is created beside it",
        .enabled(
            if: canRunUnprivileged, "root writes any file, and setpriv is missing to drop its capabilities"))
    func readOnlyFile() async throws {
        if let path = ProcessInfo.processInfo.environment[Self.fileVariable] {
            // The run without the override that the root run below started.
            try Self.expectRefused(path)
            return
        }
        let directory = try TemporaryDirectory()
        let path = directory.file("demo.sqlite")
        try await Self.writeSomething(to: path)
        for suffix in ["-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: path + suffix), "closed: no \(suffix) yet")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)

        if geteuid() == 0 {
            // The directory is root's own, which it may write: SQLite could create the -wal and
            // -shm there, as it did before the fix.
            let (status, output) = try await Self.runWithoutOverride(filePath: path)
            #expect(status == 0, "the run without the override failed:\n\(output)")
            #expect(
                output.contains(Self.refusedMark),
                "the run without the override did not refuse it:\n\(output)")
        } else {
            try Self.expectRefused(path)
        }

        for suffix in ["-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(suffix) was created beside it")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "byte for byte as it was")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o444)
    }

    /// A probe that answers as the system answers a user who may read and write only the paths
    /// in `writable`, of which only those in `existing` exist (`errno` for the others).
    static func probe(existing: Set<String>, writable: Set<String>, errno: Int32 = EACCES)
        -> FileSchema.AccessProbe
    {
        { path, mode in
            if mode == F_OK { return existing.contains(path) ? 0 : ENOENT }
            return writable.contains(path) ? 0 : errno
        }
    }

    @Test(
        "the -wal and -shm beside the file, and the directory where they are still to be created, must be writable"
    )
    func walAndDirectory() throws {
        let path = "/data/app/demo.sqlite"
        let (wal, shm, directory) = (path + "-wal", path + "-shm", "/data/app")
        // All three there and writable, in a directory that is not: opens.
        try FileSchema.checkWritable(
            path: path, access: Self.probe(existing: [path, wal, shm], writable: [path, wal, shm]))

        let cases: [(existing: Set<String>, writable: Set<String>, refused: String)] = [
            // A -shm this process may not write (left by another user, say).
            ([path, wal, shm], [path, wal, directory], shm),
            // No -wal yet, in a directory this process may not write.
            ([path], [path], directory),
            // No file yet.
            ([], [], directory),
        ]
        for (existing, writable, refused) in cases {
            let error = #expect(throws: SQLiteFileError.self, "\(refused)") {
                try FileSchema.checkWritable(
                    path: path, access: Self.probe(existing: existing, writable: writable))
            }
            #expect(error?.code == .cannotOpen)
            #expect(error?.path == path)
            #expect(
                error?.message.hasPrefix(
                    refused == directory ? "The directory \(directory)," : "The file \(refused)") == true,
                "\(error?.message ?? "")")
        }
        // A missing directory is left to SQLite's open, which says so.
        try FileSchema.checkWritable(
            path: path, access: Self.probe(existing: [], writable: [], errno: ENOENT))
    }

    @Test("a file on a read-only disk is refused as such")
    func readOnlyDisk() {
        let path = "/mnt/image/demo.sqlite"
        let error = #expect(throws: SQLiteFileError.self) {
            try FileSchema.checkWritable(
                path: path, access: Self.probe(existing: [path], writable: [], errno: EROFS))
        }
        #expect(error?.code == .cannotOpen)
        #expect(error?.message.contains("is on a read-only disk") == true)
        #expect(error?.message.contains("writable disk") == true)
    }

    /// A file of this library, with records and a list, closed.
    static func writeSomething(to path: String) async throws {
        let store = GraphQLStore()
        let file = try GraphQLStoreFile(path: path)
        try file.attach(store)
        try writePages(1, to: store)
        try await file.flush()
        let lists = try LocalListFile(path: path)
        _ = try await lists.replace(
            "launches", with: [.init(id: "\"1\"", item: Data("{}".utf8))], nextKey: nil, at: Date())
        #expect(try lists.itemCount(list: "launches") == 1)
    }

    /// Expects opening `path` as a list file and as a store file to be refused as unwritable.
    static func expectRefused(_ path: String) throws {
        let openings: [(String, () throws(SQLiteFileError) -> Void)] = [
            ("LocalListFile", { () throws(SQLiteFileError) in _ = try LocalListFile(path: path) }),
            ("GraphQLStoreFile", { () throws(SQLiteFileError) in _ = try GraphQLStoreFile(path: path) }),
        ]
        var messages: [String] = []
        for (name, open) in openings {
            let error = #expect(throws: SQLiteFileError.self, "\(name)") { try open() }
            messages.append("\(name): \(error?.message ?? "opened")")
            #expect(error?.code == .cannotOpen, "\(name): \(error?.message ?? "")")
            #expect(error?.message.contains("may not be read and written by this process") == true)
            #expect(error?.message.contains("nothing was changed or created beside it") == true)
            #expect(error?.message.contains("chmod") == true)
        }
        print("\(refusedMark)\n" + messages.joined(separator: "\n"))
    }

    /// Runs this test again as root without the capabilities that override file modes, on the
    /// file at `filePath`.
    /// - Returns: its exit status, and what it printed.
    static func runWithoutOverride(filePath: String) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        let testBundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        process.arguments = [
            "--bounding-set=-dac_override,-dac_read_search", testBundle,
            "--testing-library", "swift-testing", "--filter", "UnwritableFileTests/readOnlyFile",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment[fileVariable] = filePath
        environment["TMPDIR"] = "/tmp"
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Nothing here blocks a thread of the cooperative pool, which every other test of the run
        // shares: the run is read and waited for on a thread of its own. (A termination handler
        // would leave the process object to Foundation on Linux, which LeakSanitizer reports.)
        let running = RunningProcess(process: process, output: pipe.fileHandleForReading)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: running.waitForEnd()) }
        }
    }
}

/// A process started, handed to the thread that waits for it.
///
/// `@unchecked Sendable`: `Process` is not `Sendable`, but once started it is handed to one
/// thread and only that thread touches it (reads its output, waits, reads its status).
private final class RunningProcess: @unchecked Sendable {
    private let process: Process
    private let output: FileHandle

    init(process: Process, output: FileHandle) {
        self.process = process
        self.output = output
    }

    /// Reads everything the process writes, waits for it to end, and returns its exit status and
    /// what it wrote.
    func waitForEnd() -> (Int32, String) {
        let data = output.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
