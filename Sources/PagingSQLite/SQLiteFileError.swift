import Foundation
import GRDB

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Why a file of PagingSQLite (a ``GraphQLStoreFile`` or a
/// ``LocalListFile``) cannot be opened, or could not be written.
///
/// Opening never deletes or rewrites a file it cannot use unless the app
/// asked for it (``SQLiteFileConfiguration/unusableFile``); a write
/// that fails leaves the store in memory as it was, and the file as it was
/// before the failed commit.
///
/// ```swift
/// do {
///     let file = try GraphQLStoreFile(path: path)
/// } catch where error.code == .newerVersion {
///     // written by a newer version of the app: keep it, work in memory
/// }
/// ```
public struct SQLiteFileError: Error, Hashable, Sendable {
    /// The code of a ``SQLiteFileError``: what kind of problem it is;
    /// compare with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The file is not a SQLite database, or is damaged.
        public static var corrupt: Self { Self("corrupt") }
        /// The file is a SQLite database of another application.
        public static var foreign: Self { Self("foreign") }
        /// The file was written by a newer version of this library, whose
        /// layout this one cannot read.
        public static var newerVersion: Self { Self("newerVersion") }
        /// Another connection (another process) held a lock on the file
        /// longer than ``SQLiteFileConfiguration/busyTimeout``, at open or
        /// during a read or write.
        public static var locked: Self { Self("locked") }
        /// The file cannot be opened or created: a missing directory, or no
        /// permission. A file (or its `-wal` or `-shm`, or the directory
        /// they are to be created in) that the process may not write is
        /// refused before SQLite opens it: nothing is created or changed.
        public static var cannotOpen: Self { Self("cannotOpen") }
        /// A write failed: a full or read-only disk, say. (A write that
        /// waited too long for another connection's lock is ``locked``.)
        public static var write: Self { Self("write") }
        /// A store file cannot be attached: the store already holds
        /// records, or the file is attached to a store.
        public static var notAttachable: Self { Self("notAttachable") }
        /// The task waiting on the file (a `flush()`, say) was cancelled;
        /// what was queued is still written.
        public static var cancelled: Self { Self("cancelled") }

        /// The name of the code, such as `corrupt`.
        public var description: String { name }
    }

    /// What kind of problem this is, for code to branch on.
    public let code: Code
    /// The problem and what to do about it, as sentences a person can act on.
    public let message: String
    /// The file's path.
    public let path: String

    init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }
}

extension SQLiteFileError: CustomStringConvertible {
    /// The message.
    public var description: String { message }
}

extension SQLiteFileError {
    /// Whether starting afresh may replace the file.
    var isReplaceable: Bool {
        code == .corrupt || code == .newerVersion
    }

    /// What was being done when SQLite failed.
    enum Operation {
        /// Opening the file, waiting at most `timeout` for a lock.
        case opening(timeout: Duration)
        /// Reading a file that opened.
        case reading
        /// Writing `what` (such as "A commit of the store"), which is kept
        /// (`kept`) or dropped, and the file keeps what it held before.
        case writing(what: String, kept: String)
    }

    /// The file is not a SQLite database, or is damaged.
    static func corrupt(path: String, detail: String) -> Self {
        Self(
            .corrupt, path: path,
            "The file at \(path) is not a SQLite database, or it is damaged (\(detail)). It was left as it is: "
                + "delete it, or open it with `unusableFile: .startAfresh` to set it aside and start an empty one."
        )
    }

    /// A file the process may not write, found before SQLite opened
    /// anything: `file` is the database at `path`, its `-wal` or `-shm`, or
    /// the directory they are to be created in; `errno` is what
    /// `faccessat(2)` said.
    static func notWritable(path: String, file: String, errno: Int32) -> Self {
        let reason = String(cString: strerror(errno))
        let untouched = "It was not opened: nothing was changed or created beside it."
        let what: String
        var remedy: String
        var permission = "may not be read and written by this process (\(reason))"
        if file == path {
            what = "The file at \(path)"
            remedy = "Make it writable (chmod u+rw), or give a path the app may write."
        } else if file == path + "-wal" || file == path + "-shm" {
            what = "The file \(file), SQLite's write-ahead log of \(path),"
            remedy =
                "Make it writable, or open the file as the user that owns it (the log may hold the last "
                + "writes: do not delete it)."
        } else {
            what = "The directory \(file), where SQLite creates \(path) and its -wal and -shm files,"
            remedy = "Make the directory writable, or give a path in one the app may write."
            permission = "may not be written by this process (\(reason))"
        }
        if errno == EROFS {
            permission = "is on a read-only disk"
            remedy = "Give a path on a writable disk."
        }
        return Self(
            .cannotOpen, path: path,
            "\(what) \(permission); PagingSQLite writes to the files it opens. \(untouched) \(remedy)")
    }

    /// The error of a failed open, read or write.
    init(_ error: any Error, path: String, while operation: Operation) {
        if error is CancellationError {
            self.init(
                .cancelled, path: path,
                "The task waiting on \(path) was cancelled. What was queued for the file is still written.")
            return
        }
        guard let database = error as? DatabaseError else {
            self.init(.cannotOpen, path: path, "The file at \(path) cannot be used: \(error).")
            return
        }
        let detail = "SQLite: " + (database.message ?? "\(database.resultCode)")
        switch (database.resultCode.primaryResultCode, operation) {
        case (.SQLITE_NOTADB, _), (.SQLITE_CORRUPT, _):
            self = .corrupt(path: path, detail: detail)
        case (.SQLITE_ERROR, .reading):
            // A file of this library's layout version that lacks a table or column of it.
            self.init(
                .corrupt, path: path,
                "The file at \(path) does not hold the tables its layout version promises (\(detail)); something "
                    + "other than this library changed it. It was left as it is: delete it, or open it with "
                    + "`unusableFile: .startAfresh` to set it aside and start an empty one.")
        case (.SQLITE_BUSY, .opening(let timeout)), (.SQLITE_LOCKED, .opening(let timeout)):
            self.init(
                .locked, path: path,
                "The file at \(path) stayed locked by another connection for \(timeout) (\(detail)). "
                    + "Another process may be using it: close it, or open the file again later.")
        case (.SQLITE_BUSY, .writing(let what, let kept)), (.SQLITE_LOCKED, .writing(let what, let kept)):
            self.init(
                .locked, path: path,
                "\(what) could not be written to \(path): another connection kept the file locked past the busy "
                    + "timeout (\(detail)). \(kept) Another process may be using the file.")
        case (.SQLITE_BUSY, .reading), (.SQLITE_LOCKED, .reading):
            self.init(
                .locked, path: path,
                "The file at \(path) could not be read: another connection kept it locked (\(detail)). "
                    + "Another process may be using it: try again later.")
        case (.SQLITE_READONLY, .writing(let what, let kept)), (.SQLITE_PERM, .writing(let what, let kept)):
            self.init(
                .write, path: path,
                "\(what) could not be written to \(path): the file or its disk is read-only (\(detail)). "
                    + "\(kept) Check the file's permissions and where it is mounted.")
        case (_, .writing(let what, let kept)):
            self.init(
                .write, path: path,
                "\(what) could not be written to \(path) (\(detail)). \(kept) Free disk space, or check that "
                    + "the file is writable.")
        case (_, .opening), (_, .reading):
            self.init(
                .cannotOpen, path: path,
                "The file at \(path) cannot be opened or created (\(detail)). Check that its directory "
                    + "exists and that the app may write there.")
        }
    }
}
