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
/// (which sets the file aside). (Opening sets a database to WAL mode before
/// its layout is read.)
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

    /// Opens (or creates) a store file, migrating an older layout.
    /// - Parameters:
    ///   - path: the file's path; its directory must exist.
    ///   - configuration: how to open it.
    /// - Throws: ``SQLiteFileError`` when the file cannot be used.
    /// - Complexity: O(1) for a file of the current layout; a migration
    ///   rewrites what it changes.
    public init(path: String, configuration: SQLiteFileConfiguration = SQLiteFileConfiguration())
        throws(SQLiteFileError)
    {
        self.path = path
        pool = try FileSchema.open(path: path, configuration: configuration)
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
        let records = try load()
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
    private func load() throws(SQLiteFileError) -> [StoreRecord] {
        let path = path
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
            throw SQLiteFileError(opening: error, path: path, timeout: .zero)
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
            throw SQLiteFileError(opening: error, path: path, timeout: .zero)
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
            throw SQLiteFileError(writing: error, path: path)
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
            throw SQLiteFileError(opening: error, path: path, timeout: .zero)
        }
    }

    /// Caps the file at its current number of pages, so that a write that
    /// grows it fails as on a full disk (for tests); `false` lifts the cap.
    package func capAtCurrentSize(_ capped: Bool) async throws {
        try await FileSchema.cap(pool, capped)
    }

    /// The size of the database file in bytes (not counting its WAL).
    public var fileSize: Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}

/// Writes a store's commits to its file, in order, off the caller's path:
/// the commits wait in `pending`, and one write on GRDB's serial writer
/// queue takes all that wait, in one transaction.
final class StoreFileWriter: Sendable {
    private let pool: DatabasePool
    private let path: String
    private let state = Lock(State())

    private struct State {
        /// Commits not yet written, oldest first.
        var pending: [StoreCommitSnapshot] = []
        /// Whether a write is queued that will take `pending`.
        var scheduled = false
        /// The last write's failure, until a write succeeds.
        var lastError: SQLiteFileError?
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
        guard !state.scheduled, !state.pending.isEmpty else { return }
        state.scheduled = true
        pool.asyncWriteWithoutTransaction { db in self.writePending(db) }
    }

    /// Writes the pending commits, oldest first; on failure keeps them
    /// pending for the next write.
    private func writePending(_ db: Database) {
        let batch = state.withLock { state in
            defer {
                state.pending = []
                state.scheduled = false
            }
            return state.pending
        }
        guard !batch.isEmpty else { return }
        do {
            try db.inTransaction {
                for commit in batch { try FileSchema.write(commit, to: db) }
                return .commit
            }
            state.withLock { $0.lastError = nil }
        } catch {
            let failure = SQLiteFileError(writing: error, path: path)
            state.withLock { state in
                state.pending = batch + state.pending
                state.lastError = failure
            }
        }
    }

    var lastError: SQLiteFileError? { state.withLock { $0.lastError } }

    /// Forgets what waits (the file is being cleared).
    func dropPending() {
        state.withLock { $0.pending = [] }
    }

    /// Waits until every commit taken before the call is written, or throws
    /// why it could not be.
    func flush() async throws(SQLiteFileError) {
        state.withLock { scheduleIfNeeded(&$0) }
        do {
            // The writer queue is serial: this runs after every write queued before it.
            try await pool.writeWithoutTransaction { _ in }
        } catch {
            throw SQLiteFileError(writing: error, path: path)
        }
        if let failure = state.withLock({ $0.pending.isEmpty ? nil : $0.lastError }) {
            throw failure
        }
    }
}
