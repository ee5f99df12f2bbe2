import Foundation
import GRDB
import PagingGraphQLStore

/// The layout of a store file, its versions and their migrations.
///
/// - Version 1: `fields(record, field, value)`, one row per field of a
///   record, keyed by both (a table without row ids, clustered on the key).
/// - Version 2: adds `metadata(name, value)`, which holds when the file
///   last took a commit (`lastWrite`, seconds since 1970).
/// - Version 3: adds the lists of ``LocalListFile``: `lists(list,
///   item_count, next_key, refreshed_at)`, one row per list, and
///   `list_items(list, position, item)`, its items in order, keyed by both.
enum FileSchema {
    /// This library's SQLite application id: "PgSt".
    static let applicationID: Int32 = 0x5067_5374
    /// The layout this version writes.
    static let currentVersion = 3

    /// The statements that take a file from version `n - 1` to `n`, by `n`.
    static let migrations: [Int: [String]] = [
        1: [
            "CREATE TABLE fields (record TEXT NOT NULL, field TEXT NOT NULL, value BLOB NOT NULL, "
                + "PRIMARY KEY (record, field)) WITHOUT ROWID"
        ],
        2: ["CREATE TABLE metadata (name TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID"],
        3: [
            "CREATE TABLE lists (list TEXT PRIMARY KEY NOT NULL, item_count INTEGER NOT NULL, next_key BLOB, "
                + "refreshed_at REAL NOT NULL) WITHOUT ROWID",
            "CREATE TABLE list_items (list TEXT NOT NULL, position INTEGER NOT NULL, item BLOB NOT NULL, "
                + "PRIMARY KEY (list, position)) WITHOUT ROWID",
        ],
    ]

    /// Checks a file's identity and version, creating or migrating it, in
    /// the caller's transaction.
    /// - Throws: ``SQLiteFileError`` for another application's file or
    ///   a newer layout.
    static func prepare(_ db: Database, path: String) throws {
        let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        if application != applicationID && (application != 0 || tables > 0) {
            throw SQLiteFileError(
                .foreign, path: path,
                "The file at \(path) is a SQLite database of another application (application id \(application), "
                    + "\(tables) schema objects); it was left as it is. Give the store a path of its own.")
        }
        if version > currentVersion {
            throw SQLiteFileError(
                .newerVersion, path: path,
                "The file at \(path) was written by a newer version of PagingSQLite (layout \(version); this "
                    + "version reads up to \(currentVersion)). It was left as it is: update the app, or open it with "
                    + "`unusableFile: .startAfresh` to replace it with an empty store.")
        }
        guard version < currentVersion else { return }
        for step in (version + 1)...currentVersion {
            for statement in migrations[step] ?? [] { try db.execute(sql: statement) }
        }
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        try db.execute(sql: "PRAGMA user_version = \(currentVersion)")
    }

    /// Writes one commit's fields, in the caller's transaction.
    static func write(_ commit: StoreCommitSnapshot, to db: Database) throws {
        let upsert = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO fields (record, field, value) VALUES (?, ?, ?)")
        let deleteField = try db.cachedStatement(sql: "DELETE FROM fields WHERE record = ? AND field = ?")
        let deleteRecord = try db.cachedStatement(sql: "DELETE FROM fields WHERE record = ?")
        for record in commit.records {
            let key = record.key.rawValue
            guard let fields = record.fields else {
                try deleteRecord.execute(arguments: [key])
                continue
            }
            for (name, value) in fields {
                if let value {
                    try upsert.execute(arguments: [key, name, StoreFileValue.data(of: value)])
                } else {
                    try deleteField.execute(arguments: [key, name])
                }
            }
        }
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO metadata (name, value) VALUES ('lastWrite', ?)")
            .execute(arguments: [Date().timeIntervalSince1970])
    }
}

extension FileSchema {
    /// Caps a file at its current number of pages, so that a write that
    /// grows it fails as on a full disk (for tests); `false` lifts the cap.
    static func cap(_ pool: DatabasePool, _ capped: Bool) async throws {
        try await pool.writeWithoutTransaction { db in
            let pages = capped ? (try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 1) : 1_073_741_823
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)")
        }
    }

    /// Opens (or creates) a file, checking and migrating its layout; with
    /// ``SQLiteFileConfiguration/UnusableFile/startAfresh``, sets aside (as
    /// `<path>.unusable-<seconds since 1970>`) a file that is not a
    /// database, is damaged or is of a newer layout, and starts an empty one.
    static func open(path: String, configuration: SQLiteFileConfiguration) throws(SQLiteFileError)
        -> DatabasePool
    {
        do {
            return try openOnce(path: path, configuration: configuration)
        } catch let error where configuration.unusableFile == .startAfresh && error.isReplaceable {
            // Set aside, not deleted: what could not be read is not lost.
            let aside = path + ".unusable-\(Int(Date().timeIntervalSince1970))"
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
            return try openOnce(path: path, configuration: configuration)
        }
    }

    private static func openOnce(path: String, configuration: SQLiteFileConfiguration) throws(SQLiteFileError)
        -> DatabasePool
    {
        var options = GRDB.Configuration()
        let timeout = configuration.busyTimeout.components
        options.busyMode = .timeout(Double(timeout.seconds) + Double(timeout.attoseconds) / 1e18)
        options.label = "PagingSQLite"
        do {
            let pool = try DatabasePool(path: path, configuration: options)
            try pool.write { db in try FileSchema.prepare(db, path: path) }
            return pool
        } catch let error as SQLiteFileError {
            throw error
        } catch {
            throw SQLiteFileError(opening: error, path: path, timeout: configuration.busyTimeout)
        }
    }
}
