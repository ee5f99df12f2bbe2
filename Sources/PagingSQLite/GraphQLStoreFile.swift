public import Foundation
import GRDB
import PagingGraphQLCore
public import PagingGraphQLStore
import PagingLock

/// A `GraphQLStore` kept in a SQLite file, so that an app opens its lists
/// from disk: after ``attach(_:)``, the store holds what the file held, and
/// every commit of the store (a response written, a record modified or
/// deleted, a collection) is written to the file in one transaction, off
/// the caller's path.
///
/// ```swift
/// let store = GraphQLStore()
/// let file = try GraphQLStoreFile(path: supportDirectory + "/store.sqlite")
/// try file.attach(store)  // the store now holds what the file held
/// let client = GraphQLClient(endpoint: endpoint, store: store)
/// // ... later, before the app is suspended:
/// try await file.flush()
/// ```
///
/// The file is in WAL mode. Each row is one field of one record, so a
/// commit writes the fields it changed, not whole records: a page's
/// records, the root field that lists them and the cursor that continues
/// from it land in the same transaction, and a reader of the file never
/// sees half a commit. Writes that fail (a full or read-only disk) are kept
/// and tried again before the next commit's, in order; the store in memory
/// goes on working, and ``lastError`` and ``flush()`` say what failed.
///
/// The file carries its layout's version (SQLite's `user_version`) and this
/// library's application id. An older layout is migrated at open; a newer
/// one, another application's database, a file that is not a database or is
/// damaged, or one another process keeps locked, is a
/// ``SQLiteFileError`` at open, never a crash, and its data is left as it
/// is unless ``SQLiteFileConfiguration/unusableFile`` asks to start afresh
/// (which sets the file aside). These are found before SQLite opens the
/// file for writing, so such a file is left byte for byte as it was.
public final class GraphQLStoreFile: Sendable {
    /// The file's path.
    public let path: String
    private let pool: DatabasePool
    /// What writes the commits; the store's sink holds it, not the file,
    /// so that releasing the file never runs inside the store's lock, and
    /// commits taken are written even after the file is released.
    private let writer: StoreFileWriter
    /// The attached store's registration.
    private let attachment = Lock<StoreObservation?>(nil)
    /// The records read at open, until `attach` takes them.
    private let warmed: Lock<[StoreRecord]?>

    /// Opens (or creates) a store file, migrating an older layout, and
    /// reads its records, which ``attach(_:)`` then puts in a store.
    ///
    /// Before SQLite opens the file for writing, its pages are checked
    /// (SQLite's `quick_check`, through a read-only connection), so that a
    /// damaged file is refused as it is, or set aside with
    /// ``SQLiteFileConfiguration/UnusableFile/startAfresh``; reading every
    /// record then finds any row this library did not write. A file that
    /// opens is a file whose records all read.
    ///
    /// A file the process may not write (its mode or owner, or a read-only
    /// disk), a `-wal` or `-shm` beside it that it may not write, or a
    /// directory it may not write where these are still to be created, is
    /// refused with ``SQLiteFileError/Code/cannotOpen`` before SQLite opens
    /// anything: the file is left byte for byte as it was, and nothing is
    /// created beside it. The file is not opened read-only instead, since
    /// it is written as the app goes on; to read such a file, copy it
    /// somewhere the app may write.
    /// - Parameters:
    ///   - path: the file's path; its directory must exist.
    ///   - configuration: how to open it.
    /// - Throws: ``SQLiteFileError`` when the file cannot be used.
    /// - Complexity: O(*n*) for *n* fields in the file; a migration
    ///   rewrites what it changes.
    public init(path: String, configuration: SQLiteFileConfiguration = SQLiteFileConfiguration())
        throws(SQLiteFileError)
    {
        self.path = path
        let (pool, records) = try FileSchema.open(path: path, configuration: configuration, verify: true) {
            pool throws(SQLiteFileError) in try Self.load(pool, path: path)
        }
        self.pool = pool
        warmed = Lock(records)
        writer = StoreFileWriter(pool: pool, path: path)
    }

    deinit {
        attachment.withLock { $0 }?.cancel()
    }

    // MARK: Attaching a store

    /// Loads the file's records into `store` in one commit, then writes
    /// every later commit of the store to the file.
    ///
    /// The store must be empty (a new store): the file and the store then
    /// hold the same records from the start. The records loaded count as
    /// kept by a collection, so the store does not collect them before a
    /// list, watch or retain can reach them.
    /// - Parameter store: the store; one file keeps one store.
    /// - Returns: the number of records loaded.
    /// - Throws: ``SQLiteFileError/Code/corrupt`` when a row does not
    ///   hold what this library writes, ``SQLiteFileError/Code/notAttachable``
    ///   when the store already holds records or the file is attached (the
    ///   store is left as it was).
    /// - Complexity: O(*n*) for *n* fields in the file.
    @discardableResult
    public func attach(_ store: GraphQLStore) throws(SQLiteFileError) -> Int {
        guard attachment.withLock({ $0 == nil }) else {
            throw SQLiteFileError(
                .notAttachable, path: path,
                "The file at \(path) is attached to a store already: detach it first, or open the file again for "
                    + "another store.")
        }
        let taken = warmed.withLock { warmed in
            defer { warmed = nil }
            return warmed
        }
        let records: [StoreRecord]
        if let taken { records = taken } else { records = try Self.load(pool, path: path) }
        let writer = writer
        guard let observation = store.restore(records, thenCommitsTo: { writer.enqueue($0) }) else {
            throw SQLiteFileError(
                .notAttachable, path: path,
                "The store already holds records, which the file at \(path) does not: attach the file to a new, "
                    + "empty store, before a client uses it.")
        }
        attachment.withLock { $0 = observation }
        return records.count
    }

    /// Stops writing the attached store's commits; those already taken are
    /// still written.
    public func detach() {
        let observation = attachment.withLock { attached in
            defer { attached = nil }
            return attached
        }
        observation?.cancel()
    }

    /// The records the file holds.
    /// - Complexity: O(*n*) for *n* fields in the file.
    private static func load(_ pool: DatabasePool, path: String) throws(SQLiteFileError) -> [StoreRecord] {
        do {
            return try pool.read { db in
                var records: [StoreRecord] = []
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT record, field, value FROM fields ORDER BY record")
                while let row = try rows.next() {
                    guard let key = String.fromDatabaseValue(row[0]),
                        let name = String.fromDatabaseValue(row[1]),
                        let data = Data.fromDatabaseValue(row[2]), let value = StoreFileValue.value(of: data)
                    else {
                        throw SQLiteFileError(
                            .corrupt, path: path,
                            "The file at \(path) holds a row this library did not write (a field that is not a stored "
                                + "value); the store was left as it was. Delete the file to start an empty store."
                        )
                    }
                    if records.last?.key.rawValue != key {
                        records.append(StoreRecord(key: CacheKey(key)))
                    }
                    records[records.count - 1].fields[name] = value
                }
                return records
            }
        } catch let error as SQLiteFileError {
            throw error
        } catch {
            throw SQLiteFileError(error, path: path, while: .reading)
        }
    }

    // MARK: Writing

    /// The failure of the last write, until a write succeeds: the commits
    /// it could not write are kept and tried again with the next commit.
    public var lastError: SQLiteFileError? { writer.lastError }

    /// Waits until the file holds every commit taken so far.
    /// - Throws: ``SQLiteFileError/Code/write`` when commits could not
    ///   be written (they stay pending, and the next commit or flush tries
    ///   them again).
    public func flush() async throws(SQLiteFileError) {
        try await writer.flush()
    }

    // MARK: The file

    /// The number of records the file holds.
    /// - Complexity: O(*n*) for *n* fields in the file.
    public func recordCount() throws(SQLiteFileError) -> Int {
        do {
            return try pool.read { db in
                try Int.fetchOne(db, sql: "SELECT count(DISTINCT record) FROM fields") ?? 0
            }
        } catch {
            throw SQLiteFileError(error, path: path, while: .reading)
        }
    }

    /// Empties the file and gives its space back to the file system (the
    /// store in memory keeps its records; detach it first to start over).
    /// - Complexity: O(*n*) for a file of *n* bytes.
    public func clear() async throws(SQLiteFileError) {
        writer.dropPending()
        do {
            try await pool.writeWithoutTransaction { db in
                try db.execute(sql: "DELETE FROM fields")
                try db.execute(sql: "VACUUM")
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        } catch {
            throw SQLiteFileError(
                error, path: path,
                while: .writing(what: "The emptied file", kept: "The file keeps what it held."))
        }
    }

    /// When the file last took a commit, or `nil` when it never did.
    public func lastWrite() throws(SQLiteFileError) -> Date? {
        do {
            return try pool.read { db in
                try Double.fetchOne(db, sql: "SELECT value FROM metadata WHERE name = 'lastWrite'")
                    .map(Date.init(timeIntervalSince1970:))
            }
        } catch {
            throw SQLiteFileError(error, path: path, while: .reading)
        }
    }

    /// Caps the file at its current number of pages, so that a write that
    /// grows it fails as on a full disk (for tests); `false` lifts the cap.
    package func capAtCurrentSize(_ capped: Bool) async throws {
        try await FileSchema.cap(pool, capped)
    }

    /// Copies the WAL into the database file and empties it (for tests,
    /// which measure the database file alone).
    package func checkpoint() async throws {
        try await pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Makes every write fail as on a read-only disk (for tests; the tests
    /// run as root, whom file permissions do not stop); `false` lifts it.
    package func makeReadOnly(_ readOnly: Bool) async throws {
        try await FileSchema.makeReadOnly(pool, readOnly)
    }

    /// The number of commits waiting to be written, and of fields kept from
    /// writes that failed (for tests).
    package var unwritten: (commits: Int, fields: Int) { writer.unwritten }

    /// The size of the database file in bytes (not counting its WAL).
    public var fileSize: Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}

/// Writes a store's commits to its file, in order, off the caller's path:
/// the commits wait in `pending`, and one write on GRDB's serial writer
/// queue takes all that wait, in one transaction.
///
/// The commits of a write that failed are folded into `unwritten`, one
/// entry per field (the last value wins), so that what waits while the disk
/// is full is bounded by the store's size, not by the number of commits.
final class StoreFileWriter: Sendable {
    private let pool: DatabasePool
    private let path: String
    private let state = Lock(State())

    private struct State {
        /// Commits not yet written, oldest first, after `unwritten`.
        var pending: [StoreCommitSnapshot] = []
        /// What writes that failed left, folded: older than `pending`.
        var unwritten: [String: UnwrittenRecord] = [:]
        /// Whether a write is queued that will take `pending`.
        var scheduled = false
        /// The last write's failure, until a write succeeds.
        var lastError: SQLiteFileError?
    }

    /// A record's changes from commits that could not be written.
    struct UnwrittenRecord: Sendable {
        /// Whether the record's rows are removed before `fields` are written.
        var removed = false
        /// The fields' last values (`nil`: removed).
        var fields: [String: StoreValue?] = [:]

        /// Folds the changes of commits, oldest first, into `records`.
        static func fold(_ commits: [StoreCommitSnapshot], into records: inout [String: UnwrittenRecord]) {
            for commit in commits {
                for record in commit.records {
                    guard let fields = record.fields else {
                        records[record.key.rawValue] = UnwrittenRecord(removed: true)
                        continue
                    }
                    for (name, value) in fields {
                        records[record.key.rawValue, default: .init()].fields[name] = value
                    }
                }
            }
        }
    }

    init(pool: DatabasePool, path: String) {
        self.pool = pool
        self.path = path
    }

    /// Takes a commit (under the store's lock: it only queues it). The
    /// write is queued under this writer's lock, so a flush that follows
    /// is queued after it.
    func enqueue(_ snapshot: StoreCommitSnapshot) {
        state.withLock { state in
            state.pending.append(snapshot)
            scheduleIfNeeded(&state)
        }
    }

    /// Queues a write of what is pending unless one is queued (GRDB's
    /// `asyncWriteWithoutTransaction` only dispatches to its queue).
    private func scheduleIfNeeded(_ state: inout State) {
        guard !state.scheduled, !state.pending.isEmpty || !state.unwritten.isEmpty else { return }
        state.scheduled = true
        pool.asyncWriteWithoutTransaction { db in self.writePending(db) }
    }

    /// Writes what failed before, then the pending commits, oldest first;
    /// on failure folds them all into `unwritten` for the next write.
    private func writePending(_ db: Database) {
        let (unwritten, batch) = state.withLock { state in
            defer {
                state.unwritten = [:]
                state.pending = []
                state.scheduled = false
            }
            return (state.unwritten, state.pending)
        }
        guard !batch.isEmpty || !unwritten.isEmpty else { return }
        do {
            try db.inTransaction {
                let writer = try FileSchema.FieldWriter(db)
                for (key, record) in unwritten {
                    try writer.write(
                        key, removed: record.removed, fields: record.fields.map { ($0.key, $0.value) })
                }
                for commit in batch { try writer.write(commit) }
                try writer.stamp()
                return .commit
            }
            state.withLock { $0.lastError = nil }
        } catch {
            let failure = SQLiteFileError(
                error, path: path,
                while: .writing(
                    what: "A commit of the store",
                    kept: "The store in memory keeps it and the file keeps what it held before; it is tried "
                        + "again with the next commit."))
            var folded = unwritten
            UnwrittenRecord.fold(batch, into: &folded)
            state.withLock { state in
                // Commits taken during the write stay pending, after what failed.
                state.unwritten = folded
                state.lastError = failure
            }
        }
    }

    var lastError: SQLiteFileError? { state.withLock { $0.lastError } }

    var unwritten: (commits: Int, fields: Int) {
        state.withLock { state in
            (state.pending.count, state.unwritten.values.reduce(0) { $0 + max($1.fields.count, 1) })
        }
    }

    /// Forgets what waits (the file is being cleared).
    func dropPending() {
        state.withLock { state in
            state.pending = []
            state.unwritten = [:]
        }
    }

    /// Waits until every commit taken before the call is written, or throws
    /// why it could not be.
    func flush() async throws(SQLiteFileError) {
        state.withLock { scheduleIfNeeded(&$0) }
        do {
            // The writer queue is serial: this runs after every write queued before it.
            try await pool.writeWithoutTransaction { _ in }
        } catch {
            throw SQLiteFileError(
                error, path: path,
                while: .writing(what: "Waiting for the file", kept: "What was queued is still written."))
        }
        if let failure = state.withLock({ $0.unwritten.isEmpty ? nil : $0.lastError }) {
            throw failure
        }
    }
}
