public import Foundation
import GRDB
import Paging

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
        /// The position of the first item, `nil` when there is none.
        let first: Int64?
        /// The position of the last item, `nil` when there is none.
        let last: Int64?
    }

    /// Opens (or creates) a list file, migrating an older layout.
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

    /// The distance between the positions of items written together: room
    /// for 32 inserts at one place before the list is renumbered.
    static let gap: Int64 = 1 << 32

    /// An item as the file holds it: its position in the list's order (not
    /// its index: positions have gaps, and keep their meaning across
    /// inserts and removals), and its encoding.
    struct StoredItem: Sendable {
        let position: Int64
        /// Its id, encoded; `nil` for a row of a file of layout 3.
        let id: String?
        let item: Data
    }

    /// An item to write: its id, encoded (what local edits find it by), and
    /// its encoding.
    struct NewItem: Sendable {
        let id: String
        let item: Data
    }

    /// What the file holds of a list, or `nil`.
    func head(_ list: String) async throws(SQLiteFileError) -> Head? {
        try await readingAsync { db in try Self.head(list, in: db) }
    }

    private static func head(_ list: String, in db: Database) throws -> Head? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT item_count, next_key, refreshed_at,
                      (SELECT position FROM list_items WHERE list = ?1 ORDER BY position LIMIT 1),
                      (SELECT position FROM list_items WHERE list = ?1 ORDER BY position DESC LIMIT 1)
                    FROM lists WHERE list = ?1
                    """,
                arguments: [list]),
            let count = Int.fromDatabaseValue(row[0]), let refreshedAt = Double.fromDatabaseValue(row[2])
        else { return nil }
        return Head(
            count: count, nextKey: Data.fromDatabaseValue(row[1]), refreshedAt: refreshedAt,
            first: Int64.fromDatabaseValue(row[3]), last: Int64.fromDatabaseValue(row[4]))
    }

    /// Up to `count` items of a list after position `after` (from the
    /// start when `nil`), or before position `before`, in order.
    /// - Complexity: O(log *n* + *count*).
    func items(_ list: String, after: Int64?, before: Int64? = nil, count: Int) async throws(SQLiteFileError)
        -> [StoredItem]
    {
        try await readingAsync { db in
            let rows: RowCursor
            if let before {
                rows = try Row.fetchCursor(
                    db,
                    sql: "SELECT position, item, item_id FROM list_items WHERE list = ? AND position < ? "
                        + "ORDER BY position DESC LIMIT ?",
                    arguments: [list, before, count])
            } else {
                rows = try Row.fetchCursor(
                    db,
                    sql: "SELECT position, item, item_id FROM list_items WHERE list = ? AND position > ? "
                        + "ORDER BY position LIMIT ?",
                    arguments: [list, after ?? Int64.min, count])
            }
            var items: [StoredItem] = []
            while let row = try rows.next() {
                guard let position = Int64.fromDatabaseValue(row[0]),
                    let item = Data.fromDatabaseValue(row[1])
                else { throw FileContentError() }
                items.append(StoredItem(position: position, id: String.fromDatabaseValue(row[2]), item: item))
            }
            return before == nil ? items : items.reversed()
        }
    }

    /// Where a list goes on after an item a reader saw at a position: that
    /// position while the item is still there (or the row has no id to
    /// tell); else the item's position now, when it moved (the list was
    /// renumbered, or replaced by another process with the item in it);
    /// else `nil` (the item is gone).
    /// - Complexity: O(log *n*).
    func place(of id: String, seenAt position: Int64, in list: String) async throws(SQLiteFileError) -> Int64?
    {
        try await readingAsync { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT item_id FROM list_items WHERE list = ? AND position = ?",
                arguments: [list, position])
            if let row {
                let stored = String.fromDatabaseValue(row[0])
                if stored == nil || stored == id { return position }
            }
            return try Int64.fetchOne(
                db, sql: "SELECT position FROM list_items WHERE list = ? AND item_id = ?",
                arguments: [list, id])
        }
    }

    /// Replaces a list's items and its next key, in one transaction.
    /// - Returns: the list's new head.
    func replace(_ list: String, with items: [NewItem], nextKey: Data?, at date: Date)
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
            try Self.insert(items, into: list, after: nil, in: db)
        }
        return Head(
            count: items.count, nextKey: nextKey, refreshedAt: refreshedAt, first: items.isEmpty ? nil : 0,
            last: items.isEmpty ? nil : Int64(items.count - 1) * LocalListFile.gap)
    }

    /// What an append wrote.
    struct Appended: Sendable {
        /// The position of the list's last item after it.
        let last: Int64?
    }

    /// Appends items to a list and sets its next key, in one transaction,
    /// when the list is still as `head` says (not refreshed, grown or
    /// edited in between, by this process or another); otherwise writes
    /// nothing.
    /// - Returns: what it wrote, or `nil` when it wrote nothing.
    func append(_ items: [NewItem], to list: String, after head: Head, nextKey: Data?)
        async throws(SQLiteFileError)
        -> Appended?
    {
        try await writing { db in
            guard try Self.head(list, in: db) == head else { return nil }
            try db.execute(
                sql: "UPDATE lists SET next_key = ?, item_count = ? WHERE list = ?",
                arguments: [nextKey, head.count + items.count, list])
            return Appended(last: try Self.insert(items, into: list, after: head.last, in: db) ?? head.last)
        }
    }

    /// Writes items after position `after` (from 0 when `nil`), a gap apart.
    /// - Returns: the last position written.
    @discardableResult
    private static func insert(_ items: [NewItem], into list: String, after: Int64?, in db: Database) throws
        -> Int64?
    {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO list_items (list, position, item_id, item) VALUES (?, ?, ?, ?)")
        var position = after.map { $0 + gap } ?? 0
        var last: Int64?
        for item in items {
            try statement.execute(arguments: [list, position, item.id, item.item])
            last = position
            position += gap
        }
        return last
    }

    // MARK: Local edits

    /// Replaces the stored item with an id.
    /// - Returns: whether the list held it.
    /// - Complexity: O(log *n*).
    func update(_ list: String, id: String, with item: Data, legacyID: @escaping @Sendable (Data) -> String?)
        async throws(SQLiteFileError) -> Bool
    {
        try await writing { db in
            guard let position = try Self.position(of: id, in: list, db, legacyID: legacyID) else {
                return false
            }
            try db.execute(
                sql: "UPDATE list_items SET item = ?, item_id = ? WHERE list = ? AND position = ?",
                arguments: [item, id, list, position])
            return true
        }
    }

    /// Removes the stored item with an id.
    /// - Returns: whether the list held it.
    /// - Complexity: O(log *n*).
    func remove(_ list: String, id: String, legacyID: @escaping @Sendable (Data) -> String?)
        async throws(SQLiteFileError) -> Bool
    {
        try await writing { db in
            guard let position = try Self.position(of: id, in: list, db, legacyID: legacyID) else {
                return false
            }
            try db.execute(
                sql: "DELETE FROM list_items WHERE list = ? AND position = ?", arguments: [list, position])
            try db.execute(
                sql: "UPDATE lists SET item_count = item_count - 1 WHERE list = ?", arguments: [list])
            return true
        }
    }

    /// Inserts an item at a place given by ids, unless the list holds its
    /// id already or does not hold the id it goes next to.
    /// - Returns: whether it was inserted.
    /// - Complexity: O(log *n*), and O(*n*) when 32 inserts at one place
    ///   used up the room there and the list is renumbered.
    func insert(
        _ new: NewItem, into list: String, at place: InsertPosition<String>,
        legacyID: @escaping @Sendable (Data) -> String?
    ) async throws(SQLiteFileError) -> Bool {
        try await writing { db in
            guard try Self.head(list, in: db) != nil,
                try Self.position(of: new.id, in: list, db, legacyID: legacyID) == nil
            else { return false }
            for attempt in 0..<2 {
                guard
                    let bounds = try Self.bounds(
                        of: place, in: list, db, legacyID: legacyID)
                else { return false }
                let position: Int64
                switch bounds {
                case (nil, nil): position = 0
                case (let low?, nil): position = low + Self.gap
                case (nil, let high?): position = high - Self.gap
                case (let low?, let high?):
                    guard high - low > 1 else {
                        guard attempt == 0 else { return false }
                        try Self.renumber(list, in: db)
                        continue
                    }
                    position = low + (high - low) / 2
                }
                try db.execute(
                    sql: "INSERT INTO list_items (list, position, item_id, item) VALUES (?, ?, ?, ?)",
                    arguments: [list, position, new.id, new.item])
                try db.execute(
                    sql: "UPDATE lists SET item_count = item_count + 1 WHERE list = ?", arguments: [list])
                return true
            }
            return false
        }
    }

    /// The positions an item placed at `place` goes between (`nil`: no
    /// item on that side), or `nil` when the id it goes next to is not held.
    private static func bounds(
        of place: InsertPosition<String>, in list: String, _ db: Database,
        legacyID: (Data) -> String?
    ) throws -> (low: Int64?, high: Int64?)? {
        func neighbour(of position: Int64, below: Bool) throws -> Int64? {
            try Int64.fetchOne(
                db,
                sql: below
                    ? "SELECT position FROM list_items WHERE list = ? AND position < ? ORDER BY position DESC LIMIT 1"
                    : "SELECT position FROM list_items WHERE list = ? AND position > ? ORDER BY position LIMIT 1",
                arguments: [list, position])
        }
        switch place {
        case .first: return (nil, try neighbour(of: Int64.min, below: false))
        case .last: return (try neighbour(of: Int64.max, below: true), nil)
        case .before(let id):
            guard let position = try position(of: id, in: list, db, legacyID: legacyID) else { return nil }
            return (try neighbour(of: position, below: true), position)
        case .after(let id):
            guard let position = try position(of: id, in: list, db, legacyID: legacyID) else { return nil }
            return (position, try neighbour(of: position, below: false))
        }
    }

    /// Spreads a list's items a gap apart again, in their order.
    private static func renumber(_ list: String, in db: Database) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT item_id, item FROM list_items WHERE list = ? ORDER BY position",
            arguments: [list])
        try db.execute(sql: "DELETE FROM list_items WHERE list = ?", arguments: [list])
        let statement = try db.cachedStatement(
            sql: "INSERT INTO list_items (list, position, item_id, item) VALUES (?, ?, ?, ?)")
        for (index, row) in rows.enumerated() {
            try statement.execute(arguments: [list, Int64(index) * gap, row[0], row[1]])
        }
    }

    /// The position of the item with an id. Rows a file of layout 3 wrote
    /// carry no id: those are decoded with `legacyID` (O(*n*) while such
    /// rows remain; a refresh writes the list with ids).
    private static func position(
        of id: String, in list: String, _ db: Database, legacyID: (Data) -> String?
    ) throws -> Int64? {
        if let position = try Int64.fetchOne(
            db, sql: "SELECT position FROM list_items WHERE list = ? AND item_id = ?", arguments: [list, id])
        {
            return position
        }
        let legacy = try Row.fetchCursor(
            db, sql: "SELECT position, item FROM list_items WHERE list = ? AND item_id IS NULL",
            arguments: [list])
        while let row = try legacy.next() {
            if let item = Data.fromDatabaseValue(row[1]), legacyID(item) == id {
                return Int64.fromDatabaseValue(row[0])
            }
        }
        return nil
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
