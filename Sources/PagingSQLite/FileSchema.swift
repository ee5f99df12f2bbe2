import Foundation
import GRDB
import PagingGraphQLStore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The layout of a store file, its versions and their migrations.
///
/// - Version 1: `fields(record, field, value)`, one row per field of a
///   record, keyed by both (a table without row ids, clustered on the key).
/// - Version 2: adds `metadata(name, value)`, which holds when the file
///   last took a commit (`lastWrite`, seconds since 1970).
/// - Version 3: adds the lists of ``LocalListFile``: `lists(list,
///   item_count, next_key, refreshed_at)`, one row per list, and
///   `list_items(list, position, item)`, its items in order, keyed by both.
/// - Version 4: adds `list_items.item_id`, the item's id (encoded), and an
///   index by it, for local edits; positions become an order with gaps
///   (written 2³² apart) rather than indices. Rows of version 3 keep their
///   positions (0, 1, 2, …, still in order) and no id until their list is
///   refreshed.
enum FileSchema {
    /// This library's SQLite application id: "PgSt".
    static let applicationID: Int32 = 0x5067_5374
    /// The layout this version writes.
    static let currentVersion = 4

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
        4: [
            "ALTER TABLE list_items ADD COLUMN item_id TEXT",
            "CREATE INDEX list_items_by_id ON list_items (list, item_id)",
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
        try checkIdentity(application: application, version: version, tables: tables, path: path)
        guard version < currentVersion else { return }
        for step in (version + 1)...currentVersion {
            for statement in migrations[step] ?? [] { try db.execute(sql: statement) }
        }
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        try db.execute(sql: "PRAGMA user_version = \(currentVersion)")
    }

    /// Writes records' fields in the caller's transaction, with statements
    /// prepared once.
    struct FieldWriter {
        private let upsert: Statement
        private let deleteField: Statement
        private let deleteRecord: Statement
        private let db: Database

        init(_ db: Database) throws {
            self.db = db
            upsert = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO fields (record, field, value) VALUES (?, ?, ?)")
            deleteField = try db.cachedStatement(sql: "DELETE FROM fields WHERE record = ? AND field = ?")
            deleteRecord = try db.cachedStatement(sql: "DELETE FROM fields WHERE record = ?")
        }

        /// Writes one record: removes it first when `removed`, then sets
        /// (or, for `nil`, removes) `fields`.
        func write(_ key: String, removed: Bool, fields: [(name: String, value: StoreValue?)]) throws {
            if removed { try deleteRecord.execute(arguments: [key]) }
            for (name, value) in fields {
                if let value {
                    try upsert.execute(arguments: [key, name, StoreFileValue.data(of: value)])
                } else if !removed {
                    try deleteField.execute(arguments: [key, name])
                }
            }
        }

        /// Writes one commit's fields.
        func write(_ commit: StoreCommitSnapshot) throws {
            for record in commit.records {
                try write(record.key.rawValue, removed: record.fields == nil, fields: record.fields ?? [])
            }
        }

        /// Notes when the file last took a commit.
        func stamp() throws {
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO metadata (name, value) VALUES ('lastWrite', ?)"
            )
            .execute(arguments: [Date().timeIntervalSince1970])
        }
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

    /// Makes every write of the pool's writer fail as on a read-only disk
    /// (SQLite's `query_only`, for tests); `false` lifts it.
    static func makeReadOnly(_ pool: DatabasePool, _ readOnly: Bool) async throws {
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA query_only = \(readOnly ? 1 : 0)")
        }
    }

    /// Opens (or creates) a file, checking and migrating its layout, and
    /// runs `check` on it (a store file loads its records there). A file
    /// the process may not write is refused first (``checkWritable(path:access:)``),
    /// as SQLite would open it read-only and create its `-wal` and `-shm`
    /// beside it before the first write failed. With
    /// `verify`, checks every page first (O(*n*) for a file of *n* pages);
    /// with
    /// ``SQLiteFileConfiguration/UnusableFile/startAfresh``, sets aside (as
    /// `<path>.unusable-<seconds since 1970>`) a file that is not a
    /// database, is damaged or is of a newer layout, and starts an empty one.
    static func open<Checked>(
        path: String, configuration: SQLiteFileConfiguration, verify: Bool = false,
        check: (DatabasePool) throws(SQLiteFileError) -> Checked
    ) throws(SQLiteFileError) -> (DatabasePool, Checked) {
        do {
            return try openOnce(path: path, configuration: configuration, verify: verify, check: check)
        } catch let error where configuration.unusableFile == .startAfresh && error.isReplaceable {
            // Set aside, not deleted: what could not be read is not lost.
            let aside = path + ".unusable-\(Int(Date().timeIntervalSince1970))"
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
            return try openOnce(path: path, configuration: configuration, verify: false, check: check)
        }
    }

    private static func openOnce<Checked>(
        path: String, configuration: SQLiteFileConfiguration, verify: Bool,
        check: (DatabasePool) throws(SQLiteFileError) -> Checked
    ) throws(SQLiteFileError) -> (DatabasePool, Checked) {
        try checkWritable(path: path)
        try checkBeforeOpening(path: path, verify: verify)
        var options = GRDB.Configuration()
        let timeout = configuration.busyTimeout.components
        options.busyMode = .timeout(Double(timeout.seconds) + Double(timeout.attoseconds) / 1e18)
        options.label = "PagingSQLite"
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: options)
            try pool.write { db in try FileSchema.prepare(db, path: path) }
        } catch let error as SQLiteFileError {
            throw error
        } catch {
            throw SQLiteFileError(error, path: path, while: .opening(timeout: configuration.busyTimeout))
        }
        return (pool, try check(pool))
    }

    /// Checks a file's identity before SQLite opens it for writing (which
    /// sets it to WAL mode, and writes to a file that has no WAL yet): a
    /// file that is not a database, another application's database and a
    /// newer layout are refused untouched; with `verify`, so is one whose
    /// pages SQLite's `quick_check` finds damaged.
    ///
    /// The header (SQLite's first 100 bytes) holds the user version at
    /// offset 60 and the application id at 68. A file whose header has no
    /// application id (another application's, or one of ours whose first
    /// commit is still in its WAL), and one to verify, are read through a
    /// read-only connection.
    static func checkBeforeOpening(path: String, verify: Bool) throws(SQLiteFileError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }  // none yet, or see the open
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        try? handle.close()
        guard !header.isEmpty else { return }  // SQLite takes an empty file as a new database
        let magic = Data("SQLite format 3".utf8) + [0]
        guard header.count == 100, header.prefix(16) == magic else {
            throw .corrupt(path: path, detail: "no SQLite header")
        }
        func integer(at offset: Int) -> Int32 {
            Int32(bitPattern: header[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        let application = integer(at: 68)
        try checkIdentity(application: application, version: Int(integer(at: 60)), tables: 0, path: path)
        guard application == 0 || verify else { return }
        var options = GRDB.Configuration()
        options.readonly = true
        let read: (identity: (Int32, Int, Int), problems: [String])
        do {
            read = try DatabaseQueue(path: path, configuration: options).read { db in
                let identity = (
                    try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                    try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                )
                let problems = verify ? try String.fetchAll(db, sql: "PRAGMA quick_check(3)") : []
                return (identity, problems)
            }
        } catch let error as DatabaseError
            where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode)
        {
            throw .corrupt(path: path, detail: "SQLite: " + (error.message ?? "\(error.resultCode)"))
        } catch {
            return  // the open that follows says what is wrong
        }
        try checkIdentity(
            application: read.identity.0, version: read.identity.1, tables: read.identity.2, path: path)
        if read.problems != ["ok"] && !read.problems.isEmpty {
            throw .corrupt(path: path, detail: "SQLite's check: " + read.problems.joined(separator: "; "))
        }
    }

    /// Whether this process may access a path in a mode (`F_OK`, or `R_OK`
    /// and `W_OK` combined), as `faccessat(2)` says for its effective user
    /// and groups: 0 when it may, else the `errno` (`ENOENT`, `EACCES`,
    /// `EROFS`, …).
    typealias AccessProbe = (_ path: String, _ mode: Int32) -> Int32

    /// The system's answer, through `faccessat(2)` with `AT_EACCESS` (the
    /// ids `open(2)` checks).
    static func systemAccess(_ path: String, _ mode: Int32) -> Int32 {
        faccessat(AT_FDCWD, path, mode, AT_EACCESS) == 0 ? 0 : errno
    }

    /// Refuses, before SQLite opens anything, a file this process may not
    /// both read and write, a `-wal` or `-shm` beside it that it may not,
    /// and, when one of these three is still to be created, a directory it
    /// may not write.
    ///
    /// SQLite opens a file it may not write read-only without a word, and
    /// in WAL mode creates the `-shm` and `-wal` files beside it on the
    /// first read: refused only at the first write, the file would be left
    /// with two files beside it (owned by this process's user). A missing
    /// directory is left to the open, which says so.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - access: how to ask the system (tests answer as a user other
    ///     than root would be answered: root may write any file).
    /// - Throws: ``SQLiteFileError`` with code ``SQLiteFileError/Code/cannotOpen``.
    static func checkWritable(path: String, access: AccessProbe = systemAccess) throws(SQLiteFileError) {
        var created = false
        for file in [path, path + "-wal", path + "-shm"] {
            guard access(file, F_OK) != ENOENT else {
                created = true
                continue
            }
            let problem = access(file, R_OK | W_OK)
            if problem != 0 { throw .notWritable(path: path, file: file, errno: problem) }
        }
        guard created else { return }
        let directory = (path as NSString).deletingLastPathComponent
        let problem = access(directory.isEmpty ? "." : directory, W_OK | X_OK)
        if problem != 0 && problem != ENOENT {
            throw .notWritable(path: path, file: directory.isEmpty ? "." : directory, errno: problem)
        }
    }

    /// Refuses another application's database and a newer layout.
    static func checkIdentity(application: Int32, version: Int, tables: Int, path: String)
        throws(SQLiteFileError)
    {
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
                    + "`unusableFile: .startAfresh` to set it aside and start an empty store.")
        }
    }
}
