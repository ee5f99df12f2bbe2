/// Where the launch server keeps its SQLite database.
public enum LaunchDatabase: Sendable, Hashable {
    /// A private in-memory database, filled at start and gone at stop.
    case inMemory
    /// A database file at `path`. A new or empty file is created and filled with the
    /// configured dataset; a file that already holds a launch database is used as it is, so
    /// bookings, additions and deletions persist between runs.
    case file(path: String)
}
