import GRDB

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
        /// Another connection (another process) holds a lock on the file
        /// longer than ``SQLiteFileConfiguration/busyTimeout``.
        public static var locked: Self { Self("locked") }
        /// The file cannot be opened or created: a missing directory, or no
        /// permission.
        public static var cannotOpen: Self { Self("cannotOpen") }
        /// A write failed: a full or read-only disk, say.
        public static var write: Self { Self("write") }
        /// A store file cannot be attached: the store already holds
        /// records, or the file is attached to a store.
        public static var notAttachable: Self { Self("notAttachable") }

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

    /// The error of a failed open or read.
    init(opening error: any Error, path: String, timeout: Duration) {
        guard let database = error as? DatabaseError else {
            self.init(.cannotOpen, path: path, "The file at \(path) cannot be opened: \(error).")
            return
        }
        let detail = database.message ?? "\(database.resultCode)"
        switch database.resultCode.primaryResultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            self.init(
                .corrupt, path: path,
                "The file at \(path) is not a SQLite database, or it is damaged (SQLite: \(detail)). It was left as "
                    + "it is: delete it, or open it with `unusableFile: .startAfresh` to replace it with an empty store."
            )
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self.init(
                .locked, path: path,
                "The file at \(path) stayed locked by another connection for \(timeout) (SQLite: \(detail)). "
                    + "Another process may be using it: close it, or open the file again later.")
        default:
            self.init(
                .cannotOpen, path: path,
                "The file at \(path) cannot be opened or created (SQLite: \(detail)). Check that its directory "
                    + "exists and that the app may write there.")
        }
    }

    /// The error of a failed write.
    init(writing error: any Error, path: String) {
        let detail = (error as? DatabaseError).map { $0.message ?? "\($0.resultCode)" } ?? "\(error)"
        self.init(
            .write, path: path,
            "A commit of the store could not be written to \(path) (SQLite: \(detail)). The store in memory keeps "
                + "it and the file keeps what it held before; it is tried again with the next commit. Free disk "
                + "space, or check that the file is writable.")
    }
}
