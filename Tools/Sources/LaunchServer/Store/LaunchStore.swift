import Foundation
import GRDB

/// The launches in SQLite, and every query the server makes of them.
///
/// Every list query is a keyset query on an index —
/// `WHERE (launch_date, id) < (?, ?) ORDER BY launch_date DESC, id DESC LIMIT ?` — so a page a
/// million rows deep costs what the first page costs. The only exception is
/// ``offsetPage(offset:limit:)``, whose `OFFSET` is inherent to offset paging: SQLite steps over
/// `offset` index entries, so its cost grows with the offset (that is the point of having it
/// next to the cursor lists).
///
/// Counts are kept in `launch_stats` and `rocket.launch_count`, updated in the same transaction
/// as every insertion and deletion, so `totalCount` never counts rows.
final class LaunchStore: Sendable {
    /// The database; GRDB serializes the writes.
    let writer: any DatabaseWriter
    /// The rockets by id; they never change while the server runs.
    let rockets: [String: Rocket]

    /// The columns every launch query selects, in the order ``launch(from:)`` reads them.
    static let columns =
        "id, launch_date, mission_name, site, rocket_id, mission_patch_small, mission_patch_large, is_booked, push_key"

    private init(writer: any DatabaseWriter, rockets: [String: Rocket]) {
        self.writer = writer
        self.rockets = rockets
    }

    /// Opens (and if needed creates and fills) the database.
    ///
    /// - Parameters:
    ///   - database: In memory, or a file.
    ///   - dataset: The launches a new database is filled with.
    /// - Returns: The open store.
    /// - Throws: ``LaunchServerError`` when the database cannot be opened or filled.
    static func open(database: LaunchDatabase, dataset: LaunchDataset) async throws(LaunchServerError)
        -> LaunchStore
    {
        let writer: any DatabaseWriter
        do {
            switch database {
            case .inMemory:
                writer = try DatabaseQueue()
            case .file(let path):
                writer = try DatabasePool(path: path)
            }
        } catch {
            throw .database("the database could not be opened: \(error)")
        }
        let rows: [LaunchRow]?
        switch dataset {
        case .spaceX: rows = try SpaceXLaunches.load()
        case .synthetic, .empty: rows = nil
        }
        do {
            let rockets = try await writer.write { db in
                try LaunchStore.prepare(db, dataset: dataset, rows: rows)
            }
            return LaunchStore(
                writer: writer, rockets: Dictionary(uniqueKeysWithValues: rockets.map { ($0.rocketID, $0) }))
        } catch let error as LaunchServerError {
            throw error
        } catch {
            throw .database("the database could not be prepared: \(error)")
        }
    }

    /// The value of `PRAGMA user_version` of a launch database.
    private static let schemaVersion = 1

    /// Creates the schema and loads the dataset into an empty database; checks an existing one.
    private static func prepare(_ db: Database, dataset: LaunchDataset, rows: [LaunchRow]?) throws -> [Rocket]
    {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let tableCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0
        if version == schemaVersion {
            return try Row.fetchAll(db, sql: "SELECT id, name, type FROM rocket ORDER BY id").map { row in
                Rocket(
                    rocketID: try row.decode(String.self, atIndex: 0),
                    name: try row.decode(String.self, atIndex: 1),
                    type: try row.decode(String.self, atIndex: 2)
                )
            }
        }
        guard version == 0 && tableCount == 0 else {
            throw LaunchServerError.database(
                "the file holds a database that is not a launch server database (user_version \(version), \(tableCount) schema objects); give a new path"
            )
        }
        try db.execute(
            sql: """
                CREATE TABLE rocket (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    type TEXT NOT NULL,
                    launch_count INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE launch (
                    id INTEGER PRIMARY KEY NOT NULL,
                    launch_date INTEGER NOT NULL,
                    mission_name TEXT NOT NULL,
                    site TEXT,
                    rocket_id TEXT NOT NULL,
                    mission_patch_small TEXT,
                    mission_patch_large TEXT,
                    is_booked INTEGER NOT NULL DEFAULT 0,
                    push_key TEXT NOT NULL
                );
                CREATE TABLE launch_stats (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    total INTEGER NOT NULL,
                    next_id INTEGER NOT NULL
                );
                """
        )
        let rocketInsert = try db.makeStatement(sql: "INSERT INTO rocket (id, name, type) VALUES (?, ?, ?)")
        for rocket in RocketCatalog.rockets {
            try rocketInsert.execute(arguments: [rocket.rocketID, rocket.name, rocket.type])
        }
        switch dataset {
        case .spaceX: try insert(rows ?? [], into: db)
        case .synthetic(let count): try insert(LaunchGenerator(count: count), into: db)
        case .empty: break
        }
        // Indexes after the bulk insert: building them once is faster than updating them per row.
        try db.execute(
            sql: """
                CREATE INDEX launch_by_date ON launch (launch_date, id);
                CREATE INDEX launch_by_rocket_date ON launch (rocket_id, launch_date, id);
                CREATE UNIQUE INDEX launch_by_push_key ON launch (push_key);
                UPDATE rocket SET launch_count = (SELECT COUNT(*) FROM launch WHERE rocket_id = rocket.id);
                INSERT INTO launch_stats (id, total, next_id)
                    SELECT 1, COUNT(*), COALESCE(MAX(id), 0) + 1 FROM launch;
                PRAGMA user_version = 1;
                """
        )
        return RocketCatalog.rockets
    }

    /// How many rows one `INSERT` statement carries during a bulk load.
    private static let batchSize = 256

    /// Inserts launches in batches of ``batchSize`` rows, reusing one prepared statement per
    /// batch size, inside the caller's transaction.
    static func insert(_ rows: some Sequence<LaunchRow>, into db: Database) throws {
        let columnCount = 9
        func statement(rows count: Int) throws -> Statement {
            let tuple = "(" + Array(repeating: "?", count: columnCount).joined(separator: ", ") + ")"
            let values = Array(repeating: tuple, count: count).joined(separator: ", ")
            return try db.makeStatement(sql: "INSERT INTO launch (\(columns)) VALUES \(values)")
        }
        let fullBatch = try statement(rows: batchSize)
        var values: [(any DatabaseValueConvertible)?] = []
        values.reserveCapacity(batchSize * columnCount)
        var pending = 0
        for row in rows {
            values.append(row.number)
            values.append(row.launchDate)
            values.append(row.missionName)
            values.append(row.site)
            values.append(row.rocketID)
            values.append(row.missionPatchSmall)
            values.append(row.missionPatchLarge)
            values.append(row.isBooked)
            values.append(PushKey.make(for: KeysetPosition(date: row.launchDate, id: row.number)))
            pending += 1
            if pending == batchSize {
                fullBatch.setUncheckedArguments(StatementArguments(values))
                try fullBatch.execute()
                values.removeAll(keepingCapacity: true)
                pending = 0
            }
        }
        if pending > 0 {
            try statement(rows: pending).execute(arguments: StatementArguments(values))
        }
    }

    // MARK: - Reading

    /// Reads a launch from a row selected with ``columns``.
    private func launch(from row: Row) throws -> Launch {
        let rocketID = try row.decode(String.self, atIndex: 4)
        return Launch(
            number: try row.decode(Int64.self, atIndex: 0),
            launchDate: try row.decode(Int64.self, atIndex: 1),
            mission: Mission(
                name: try row.decode(String.self, atIndex: 2),
                missionPatchSmall: try row.decode(String?.self, atIndex: 5),
                missionPatchLarge: try row.decode(String?.self, atIndex: 6)
            ),
            site: try row.decode(String?.self, atIndex: 3),
            rocket: rockets[rocketID] ?? Rocket(rocketID: rocketID, name: rocketID, type: ""),
            isBooked: try row.decode(Bool.self, atIndex: 7),
            pushKey: try row.decode(String.self, atIndex: 8)
        )
    }

    /// The SQL and arguments of a keyset query (shared by ``page`` and the query-plan test).
    static func keysetQuery(
        scope: LaunchScope,
        below upper: KeysetPosition?,
        above lower: KeysetPosition?,
        newestFirst: Bool,
        limit: Int
    ) -> (sql: String, arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        switch scope {
        case .all:
            break
        case .rocket(let rocketID):
            conditions.append("rocket_id = ?")
            arguments.append(rocketID)
        case .missionContains(let text):
            // No index serves it: the keyset order walks the date index and skips what does not
            // match, so a page costs the rows passed over to fill it.
            conditions.append("mission_name LIKE ? ESCAPE '\\'")
            arguments.append(LaunchScope.likePattern(text))
        }
        if let upper {
            conditions.append("(launch_date, id) < (?, ?)")
            arguments += [upper.date, upper.id]
        }
        if let lower {
            conditions.append("(launch_date, id) > (?, ?)")
            arguments += [lower.date, lower.id]
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let order = newestFirst ? "launch_date DESC, id DESC" : "launch_date ASC, id ASC"
        arguments.append(limit)
        return (
            "SELECT \(columns) FROM launch\(filter) ORDER BY \(order) LIMIT ?", StatementArguments(arguments)
        )
    }

    /// Launches strictly between two positions, from one end of that range.
    ///
    /// - Parameters:
    ///   - scope: All launches, or one rocket's.
    ///   - upper: Only launches older than this position (a list's `after` cursor).
    ///   - lower: Only launches newer than this position (a list's `before` cursor).
    ///   - newestFirst: `true` to take the newest launches of the range, `false` the oldest.
    ///   - limit: At most this many launches.
    /// - Returns: The launches, in the order asked for.
    /// - Complexity: O(log n + limit): one index seek, then `limit` index steps; for a search
    ///   (``LaunchScope/missionContains(_:)``), O(log n + r) for the r rows passed over to find
    ///   `limit` that match.
    func page(
        scope: LaunchScope,
        below upper: KeysetPosition?,
        above lower: KeysetPosition?,
        newestFirst: Bool,
        limit: Int
    ) async throws -> [Launch] {
        let query = Self.keysetQuery(
            scope: scope, below: upper, above: lower, newestFirst: newestFirst, limit: limit)
        return try await writer.read { db in
            try Row.fetchAll(db, sql: query.sql, arguments: query.arguments).map(self.launch(from:))
        }
    }

    /// Whether any launch of `scope` is older (`older == true`) or newer than `position`.
    ///
    /// - Complexity: O(log n): one index seek; for a search, the rows passed over to find one.
    func exists(scope: LaunchScope, beyond position: KeysetPosition, older: Bool) async throws -> Bool {
        let query = Self.keysetQuery(
            scope: scope,
            below: older ? position : nil,
            above: older ? nil : position,
            newestFirst: older,
            limit: 1
        )
        return try await writer.read { db in
            try Row.fetchOne(db, sql: query.sql, arguments: query.arguments) != nil
        }
    }

    /// How many launches `scope` holds, from the maintained counters.
    ///
    /// - Complexity: O(1); O(n) for a search, which counts the rows that match.
    func count(scope: LaunchScope) async throws -> Int {
        try await writer.read { db in
            switch scope {
            case .all:
                try Int.fetchOne(db, sql: "SELECT total FROM launch_stats WHERE id = 1") ?? 0
            case .rocket(let rocketID):
                try Int.fetchOne(
                    db, sql: "SELECT launch_count FROM rocket WHERE id = ?", arguments: [rocketID]) ?? 0
            case .missionContains(let text):
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM launch WHERE mission_name LIKE ? ESCAPE '\\'",
                    arguments: [LaunchScope.likePattern(text)]) ?? 0
            }
        }
    }

    /// A page of the newest-first list by offset.
    ///
    /// - Complexity: O(log n + offset + limit): `OFFSET` steps over `offset` index entries. This
    ///   is inherent to offset paging, and the reason the cursor lists exist.
    func offsetPage(offset: Int, limit: Int) async throws -> [Launch] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(Self.columns) FROM launch ORDER BY launch_date DESC, id DESC LIMIT ? OFFSET ?",
                arguments: [limit, offset]
            ).map(self.launch(from:))
        }
    }

    /// The launch with this number, if any.
    func launch(number: Int64) async throws -> Launch? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM launch WHERE id = ?", arguments: [number])
                .map(self.launch(from:))
        }
    }

    /// Launches of the Firebase-style timeline, ordered by push key.
    ///
    /// - Parameters:
    ///   - startAt: Only keys at or after this text (inclusive), if given.
    ///   - endAt: Only keys at or before this text (inclusive), if given.
    ///   - fromEnd: `true` to take the *last* `limit` keys of the range, `false` the first.
    ///   - limit: At most this many launches.
    /// - Returns: The launches in ascending key order.
    /// - Complexity: O(log n + limit) on the push-key index.
    func timeline(startAt: String?, endAt: String?, fromEnd: Bool, limit: Int) async throws -> [Launch] {
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let startAt {
            conditions.append("push_key >= ?")
            arguments.append(startAt)
        }
        if let endAt {
            conditions.append("push_key <= ?")
            arguments.append(endAt)
        }
        arguments.append(limit)
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let sql =
            "SELECT \(Self.columns) FROM launch\(filter) ORDER BY push_key \(fromEnd ? "DESC" : "ASC") LIMIT ?"
        let statementArguments = StatementArguments(arguments)
        let launches = try await writer.read { db in
            try Row.fetchAll(db, sql: sql, arguments: statementArguments).map(self.launch(from:))
        }
        return fromEnd ? launches.reversed() : launches
    }

    // MARK: - Writing

    /// Books or cancels trips.
    ///
    /// - Parameters:
    ///   - numbers: The launch numbers.
    ///   - booked: The new value of `isBooked`.
    /// - Returns: The launches found, after the change, in the order of `numbers`.
    func setBooked(_ numbers: [Int64], booked: Bool) async throws -> [Launch] {
        try await writer.write { db in
            var launches: [Launch] = []
            for number in numbers {
                try db.execute(
                    sql: "UPDATE launch SET is_booked = ? WHERE id = ?", arguments: [booked, number])
                if let row = try Row.fetchOne(
                    db, sql: "SELECT \(Self.columns) FROM launch WHERE id = ?", arguments: [number])
                {
                    launches.append(try self.launch(from: row))
                }
            }
            return launches
        }
    }

    /// Adds a launch with the next free id.
    ///
    /// - Parameters:
    ///   - missionName: The mission's name.
    ///   - site: The launch site's short name.
    ///   - rocketID: The id of an existing rocket.
    ///   - launchDate: Seconds since 1970; `nil` for one second after the newest launch, so the
    ///     new launch lands at the head of every list.
    /// - Returns: The new launch.
    func add(missionName: String, site: String?, rocketID: String, launchDate: Int64?) async throws -> Launch
    {
        try await writer.write { db in
            let number = try Int64.fetchOne(db, sql: "SELECT next_id FROM launch_stats WHERE id = 1") ?? 1
            let newest = try Int64.fetchOne(db, sql: "SELECT MAX(launch_date) FROM launch")
            let date = launchDate ?? ((newest ?? LaunchGenerator.firstDate) + 1)
            try Self.insert(
                [
                    LaunchRow(
                        number: number, launchDate: date, missionName: missionName, site: site,
                        rocketID: rocketID)
                ],
                into: db
            )
            try db.execute(
                sql: "UPDATE launch_stats SET total = total + 1, next_id = next_id + 1 WHERE id = 1")
            try db.execute(
                sql: "UPDATE rocket SET launch_count = launch_count + 1 WHERE id = ?", arguments: [rocketID])
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT \(Self.columns) FROM launch WHERE id = ?", arguments: [number])
            else {
                throw LaunchServerError.database("the new launch \(number) could not be read back")
            }
            return try self.launch(from: row)
        }
    }

    /// Deletes a launch.
    ///
    /// - Parameter number: The launch's number.
    /// - Returns: Whether a launch was deleted.
    func delete(number: Int64) async throws -> Bool {
        try await writer.write { db in
            guard
                let rocketID = try String.fetchOne(
                    db, sql: "SELECT rocket_id FROM launch WHERE id = ?", arguments: [number])
            else {
                return false
            }
            try db.execute(sql: "DELETE FROM launch WHERE id = ?", arguments: [number])
            try db.execute(sql: "UPDATE launch_stats SET total = total - 1 WHERE id = 1")
            try db.execute(
                sql: "UPDATE rocket SET launch_count = launch_count - 1 WHERE id = ?", arguments: [rocketID])
            return true
        }
    }

    /// The lines of `EXPLAIN QUERY PLAN` for a query, for tests that check index use.
    func queryPlan(sql: String, arguments: StatementArguments) async throws -> [String] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { row in
                try row.decode(String.self, atIndex: 3)
            }
        }
    }
}
