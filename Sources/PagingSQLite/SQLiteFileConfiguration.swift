/// How a file of PagingSQLite (a ``GraphQLStoreFile`` or a ``LocalListFile``)
/// is opened.
public struct SQLiteFileConfiguration: Sendable {
    /// What to do with a file that cannot be used.
    public enum UnusableFile: Sendable {
        /// Throw, and leave the file as it is.
        case fail
        /// Set aside a file that is not a database, is damaged, or was
        /// written by a newer version (renamed to
        /// `<path>.unusable-<seconds since 1970>`, never deleted), and
        /// start an empty one. Another application's database and a locked
        /// file are never set aside.
        case startAfresh
    }

    /// What to do with a file that cannot be used; ``UnusableFile/fail``
    /// by default.
    public var unusableFile: UnusableFile
    /// How long to wait for another connection's lock before
    /// ``SQLiteFileError/Code/locked``.
    public var busyTimeout: Duration

    /// Creates a configuration.
    /// - Parameters:
    ///   - unusableFile: what to do with a file that cannot be used.
    ///   - busyTimeout: how long to wait for another connection's lock.
    public init(unusableFile: UnusableFile = .fail, busyTimeout: Duration = .seconds(5)) {
        self.unusableFile = unusableFile
        self.busyTimeout = busyTimeout
    }
}
