public import Foundation
import GRDB

/// A SQLite file that keeps lists of items, each under a key the app names,
/// for ``OfflineFirstSource``: a list's items in order, and the key its
/// remote source continues from.
///
/// One file can hold many lists, and can be the same file as a
/// ``GraphQLStoreFile``'s. It is opened like one: WAL mode, a versioned
/// layout migrated at open, and a ``SQLiteFileError`` for a file that cannot
/// be used.
///
/// ```swift
/// let file = try LocalListFile(path: directory + "/lists.sqlite")
/// let source = OfflineFirstSource(remote: launches, file: file, list: "launches")
/// ```
public final class LocalListFile: Sendable {
    /// The file's path.
    public let path: String
    let pool: DatabasePool

    /// What the file holds of one list.
    struct Head: Sendable, Equatable {
        /// The number of items.
        let count: Int
        /// The remote source's key after the last item, encoded; `nil` when
        /// the remote list ends there.
        let nextKey: Data?
        /// When the list was last replaced from the remote source.
        let refreshedAt: Double
    }

    /// Opens (or creates) a list file, migrating an older layout.
    /// - Parameters:
    ///   - path: the file's path; its directory must exist.
    ///   - configuration: how to open it.
    /// - Throws: ``SQLiteFileError`` when the file cannot be used.
    public init(path: String, configuration: SQLiteFileConfiguration = SQLiteFileConfiguration())
        throws(SQLiteFileError)
    {
        self.path = path
        (pool, _) = try FileSchema.open(path: path, configuration: configuration) { _ in }
    }

    /// When a list was last replaced from its remote source, or `nil` when
    /// the file holds no such list.
    /// - Parameter list: the list's key.
    /// - Complexity: O(log *l*) for *l* lists.
    public func lastRefreshed(list: String) throws(SQLiteFileError) -> Date? {
        try reading { db in
            try Double.fetchOne(db, sql: "SELECT refreshed_at FROM lists WHERE list = ?", arguments: [list])
                .map(Date.init(timeIntervalSince1970:))
        }
    }

    /// The number of items the file holds of a list.
    /// - Parameter list: the list's key.
    /// - Complexity: O(log *l*) for *l* lists.
    public func itemCount(list: String) throws(SQLiteFileError) -> Int {
        try reading { db in
            try Int.fetchOne(db, sql: "SELECT item_count FROM lists WHERE list = ?", arguments: [list]) ?? 0
        }
    }

    /// Removes a list and its items.
    /// - Parameter list: the list's key.
    public func removeList(_ list: String) async throws(SQLiteFileError) {
        try await writing { db in
            try db.execute(sql: "DELETE FROM list_items WHERE list = ?", arguments: [list])
            try db.execute(sql: "DELETE FROM lists WHERE list = ?", arguments: [list])
        }
    }

    /// Caps the file at its current number of pages, so that a write that
    /// grows it fails as on a full disk (for tests); `false` lifts the cap.
    package func capAtCurrentSize(_ capped: Bool) async throws {
        try await FileSchema.cap(pool, capped)
    }

    /// Makes every write fail as on a read-only disk (for tests; the tests
    /// run as root, whom file permissions do not stop); `false` lifts it.
    package func makeReadOnly(_ readOnly: Bool) async throws {
        try await FileSchema.makeReadOnly(pool, readOnly)
    }

    // MARK: For OfflineFirstSource

    /// What the file holds of a list, or `nil`.
    func head(_ list: String) async throws(SQLiteFileError) -> Head? {
        try await readingAsync { db in try Self.head(list, in: db) }
    }

    private static func head(_ list: String, in db: Database) throws -> Head? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT item_count, next_key, refreshed_at FROM lists WHERE list = ?",
                arguments: [list]),
            let count = Int.fromDatabaseValue(row[0]), let refreshedAt = Double.fromDatabaseValue(row[2])
        else { return nil }
        return Head(count: count, nextKey: Data.fromDatabaseValue(row[1]), refreshedAt: refreshedAt)
    }

    /// The encoded items of a list at positions `range`.
    func items(_ list: String, in range: Range<Int>) async throws(SQLiteFileError) -> [Data] {
        try await readingAsync { db in
            let rows = try Row.fetchCursor(
                db,
                sql:
                    "SELECT item FROM list_items WHERE list = ? AND position >= ? AND position < ? ORDER BY position",
                arguments: [list, range.lowerBound, range.upperBound])
            var items: [Data] = []
            while let row = try rows.next() {
                guard let item = Data.fromDatabaseValue(row[0]) else { throw FileContentError() }
                items.append(item)
            }
            return items
        }
    }

    /// Replaces a list's items and its next key, in one transaction.
    /// - Returns: the list's new head.
    func replace(_ list: String, with items: [Data], nextKey: Data?, at date: Date)
        async throws(SQLiteFileError)
        -> Head
    {
        let refreshedAt = date.timeIntervalSince1970
        try await writing { db in
            try db.execute(sql: "DELETE FROM list_items WHERE list = ?", arguments: [list])
            try db.execute(
                sql:
                    "INSERT OR REPLACE INTO lists (list, item_count, next_key, refreshed_at) VALUES (?, ?, ?, ?)",
                arguments: [list, items.count, nextKey, refreshedAt])
            try Self.insert(items, into: list, from: 0, in: db)
        }
        return Head(count: items.count, nextKey: nextKey, refreshedAt: refreshedAt)
    }

    /// Appends items to a list and sets its next key, in one transaction,
    /// when the list is still as `head` says (not refreshed or grown in
    /// between); otherwise writes nothing.
    /// - Returns: whether it wrote.
    func append(_ items: [Data], to list: String, after head: Head, nextKey: Data?)
        async throws(SQLiteFileError)
        -> Bool
    {
        try await writing { db in
            guard try Self.head(list, in: db) == head else { return false }
            try db.execute(
                sql: "UPDATE lists SET next_key = ?, item_count = ? WHERE list = ?",
                arguments: [nextKey, head.count + items.count, list])
            try Self.insert(items, into: list, from: head.count, in: db)
            return true
        }
    }

    private static func insert(_ items: [Data], into list: String, from offset: Int, in db: Database) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO list_items (list, position, item) VALUES (?, ?, ?)")
        for (index, item) in items.enumerated() {
            try statement.execute(arguments: [list, offset + index, item])
        }
    }

    // MARK: Errors

    /// A row that does not hold what this library writes.
    struct FileContentError: Error {}

    private func reading<T>(_ body: (Database) throws -> T) throws(SQLiteFileError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw mapped(error, writing: false)
        }
    }

    private func readingAsync<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T)
        async throws(SQLiteFileError) -> T
    {
        do {
            return try await pool.read(body)
        } catch {
            throw mapped(error, writing: false)
        }
    }

    private func writing<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T)
        async throws(SQLiteFileError) -> T
    {
        do {
            return try await pool.write(body)
        } catch {
            throw mapped(error, writing: true)
        }
    }

    private func mapped(_ error: any Error, writing: Bool) -> SQLiteFileError {
        if error is FileContentError {
            return SQLiteFileError(
                .corrupt, path: path,
                "The file at \(path) holds a list row this library did not write. Remove the list "
                    + "(removeList(_:)) or the file to start it afresh.")
        }
        return SQLiteFileError(
            error, path: path,
            while: writing
                ? .writing(what: "A page of a list", kept: "The file keeps what it held before.") : .reading)
    }
}
