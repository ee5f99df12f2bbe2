/// Why a ``GraphQLStoreFile`` cannot open its file, or could not write a
/// commit to it.
///
/// Opening never deletes or rewrites a file it cannot use unless the app
/// asked for it (``GraphQLStoreFile/Configuration/unusableFile``); a write
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
public struct GraphQLStoreFileError: Error, Hashable, Sendable {
    /// The code of a ``GraphQLStoreFileError``: what kind of problem it is;
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
        /// longer than ``GraphQLStoreFile/Configuration/busyTimeout``.
        public static var locked: Self { Self("locked") }
        /// The file cannot be opened or created: a missing directory, or no
        /// permission.
        public static var cannotOpen: Self { Self("cannotOpen") }
        /// A write failed: a full or read-only disk, say.
        public static var write: Self { Self("write") }

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

extension GraphQLStoreFileError: CustomStringConvertible {
    /// The message.
    public var description: String { message }
}
