import Foundation
import GRDB

/// The launches in SQLite, and every query the server makes of them.
///
/// Every list query is a keyset query on an index —
/// `WHERE (launch_date, id) < (?, ?) ORDER BY launch_date DESC, id DESC LIMIT ?` — so a page a
/// million rows deep costs what the first page costs, in either order (newest first, mission
/// name) and with the `booked` and `site` filters (see
/// ``keysetQuery(scope:order:after:before:fromStart:limit:)`` for the index of each). A search
/// (`LIKE`) has no index: its pages cost the rows passed over. The only other exception is
/// ``offsetPage(offset:limit:)``, whose `OFFSET` is inherent to offset paging: SQLite steps over
/// `offset` index entries, so its cost grows with the offset (that is the point of having it
/// next to the cursor lists).
///
/// Counts are kept in `launch_stats` (all launches, booked launches) and `rocket.launch_count`,
/// updated in the same transaction as every insertion, deletion and booking, so `totalCount`
/// counts no rows for those lists; a site's count is counted on its index.
final class LaunchStore: Sendable {
    /// The database; GRDB serializes the writes.
    let writer: any DatabaseWriter
    /// The rockets by id; they never change while the server runs.
    let rockets: [String: Rocket]
    /// The launches added and changed, published as their transactions commit: what the
    /// subscriptions (`launchAdded`, `launchUpdated`) read.
    let events = LaunchEvents()

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
    ///
    /// Version 2 added the indexes of the filtered and mission-name lists and the count of
    /// booked launches; a version 1 file is migrated when it is opened.
    private static let schemaVersion = 2

    /// The indexes of the filtered and mission-name lists (schema version 2), which
    /// ``keysetQuery(scope:order:after:before:fromStart:limit:)`` seeks. `is_booked` comes after
    /// the equality filters and before the order's key, so that a list without a `booked`
    /// filter reads its two halves in order from the same index.
    private static let filterIndexes = """
        CREATE INDEX IF NOT EXISTS launch_by_booked_date ON launch (is_booked, launch_date, id);
        CREATE INDEX IF NOT EXISTS launch_by_booked_name ON launch (is_booked, mission_name, id);
        CREATE INDEX IF NOT EXISTS launch_by_site_booked_date ON launch (site, is_booked, launch_date, id);
        CREATE INDEX IF NOT EXISTS launch_by_site_booked_name ON launch (site, is_booked, mission_name, id);
        """

    /// Creates the schema and loads the dataset into an empty database; checks an existing one,
    /// and migrates it from version 1.
    private static func prepare(_ db: Database, dataset: LaunchDataset, rows: [LaunchRow]?) throws -> [Rocket]
    {
        var version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let tableCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0
        if version == 1 {
            try db.execute(
                sql: filterIndexes + """
                    ALTER TABLE launch_stats ADD COLUMN booked INTEGER NOT NULL DEFAULT 0;
                    UPDATE launch_stats SET booked = (SELECT COUNT(*) FROM launch WHERE is_booked = 1);
                    PRAGMA user_version = 2;
                    """
            )
            version = 2
        }
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
                    next_id INTEGER NOT NULL,
                    booked INTEGER NOT NULL DEFAULT 0
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
                """ + filterIndexes + """
                    UPDATE rocket SET launch_count = (SELECT COUNT(*) FROM launch WHERE rocket_id = rocket.id);
                    INSERT INTO launch_stats (id, total, next_id, booked)
                        SELECT 1, COUNT(*), COALESCE(MAX(id), 0) + 1, COALESCE(SUM(is_booked), 0) FROM launch;
                    PRAGMA user_version = 2;
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

    /// The `WHERE` conditions (joined with `AND`) and their arguments of a scope's filters,
    /// with `booked` in place of the scope's own.
    private static func filter(_ scope: LaunchScope, booked: Bool?) -> (
        conditions: [String], arguments: [(any DatabaseValueConvertible)?]
    ) {
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let rocketID = scope.rocketID {
            conditions.append("rocket_id = ?")
            arguments.append(rocketID)
        }
        if let site = scope.site {
            conditions.append("site = ?")
            arguments.append(site)
        }
        if let booked {
            conditions.append("is_booked = ?")
            arguments.append(booked)
        }
        if let text = scope.missionContains {
            conditions.append("mission_name LIKE ? ESCAPE '\\'")
            arguments.append(LaunchScope.likePattern(text))
        }
        return (conditions, arguments)
    }

    /// The SQL and arguments of a keyset query of the newest-first order (the tutorial's list and
    /// the query-plan tests): ``keysetQuery(scope:order:after:before:fromStart:limit:)`` with
    /// `upper` as `after`, `lower` as `before` and `newestFirst` as `fromStart`.
    static func keysetQuery(
        scope: LaunchScope,
        below upper: KeysetPosition?,
        above lower: KeysetPosition?,
        newestFirst: Bool,
        limit: Int
    ) -> (sql: String, arguments: StatementArguments) {
        keysetQuery(
            scope: scope, order: .newestFirst, after: upper.map { .newestFirst($0) },
            before: lower.map { .newestFirst($0) }, fromStart: newestFirst, limit: limit)
    }

    /// The SQL and arguments of a keyset query (shared by ``page(scope:order:after:before:fromStart:limit:)``
    /// and the query-plan tests).
    ///
    /// The query seeks the index whose leading columns are the scope's equality filters and
    /// whose next columns are the order's key, so that SQLite reads the page in order from the
    /// seek on, with neither a scan nor a sort:
    ///
    /// | filters | newest first | mission name |
    /// | --- | --- | --- |
    /// | none | `launch_by_date` | `launch_by_booked_name`, merged |
    /// | `booked` | `launch_by_booked_date` | `launch_by_booked_name` |
    /// | `site` | `launch_by_site_booked_date`, merged | `launch_by_site_booked_name`, merged |
    /// | `site`, `booked` | `launch_by_site_booked_date` | `launch_by_site_booked_name` |
    /// | a rocket | `launch_by_rocket_date` | not indexed: sorts the rocket's launches |
    ///
    /// "Merged": `isBooked` has two values, so a list without a `booked` filter is the union of
    /// its unbooked and its booked launches, each read in order from the index with `booked`
    /// after the equality filters; each side reads at most `limit` rows, which SQLite sorts
    /// again and merges (`MERGE (UNION ALL)`): O(limit log limit) on top of the seeks, bounded
    /// by the page's size, never by the list's. That way four indexes serve the eight combinations of
    /// two orders and two optional equality filters. A search adds `LIKE` on the mission name,
    /// which no index serves: it is checked on the rows the index walk passes over.
    ///
    /// - Parameters:
    ///   - scope: The filters.
    ///   - order: The list's order; `after` and `before` must be positions of it.
    ///   - after: Only launches that follow this position in the list.
    ///   - before: Only launches that precede this position in the list.
    ///   - fromStart: `true` to take the first launches of the range in list order, `false`
    ///     the last ones (returned last first).
    ///   - limit: At most this many launches.
    static func keysetQuery(
        scope: LaunchScope,
        order: LaunchOrder,
        after: LaunchListPosition?,
        before: LaunchListPosition?,
        fromStart: Bool,
        limit: Int
    ) -> (sql: String, arguments: StatementArguments) {
        let keyColumns: [String]
        let ascending: Bool
        switch order {
        case .newestFirst:
            keyColumns = ["launch_date", "id"]
            ascending = false
        case .missionName:
            keyColumns = ["mission_name", "id"]
            ascending = true
        }
        func values(_ position: LaunchListPosition) -> [(any DatabaseValueConvertible)?] {
            switch position {
            case .newestFirst(let keyset): [keyset.date, keyset.id]
            case .missionName(let name, let id): [name, id]
            }
        }
        let key = "(" + keyColumns.joined(separator: ", ") + ")"
        let direction = fromStart == ascending ? "ASC" : "DESC"
        let ordering = keyColumns.map { "\($0) \(direction)" }.joined(separator: ", ")

        func select(booked: Bool?) -> (sql: String, arguments: [(any DatabaseValueConvertible)?]) {
            var (conditions, arguments) = filter(scope, booked: booked)
            if let after {
                conditions.append("\(key) \(ascending ? ">" : "<") (?, ?)")
                arguments += values(after)
            }
            if let before {
                conditions.append("\(key) \(ascending ? "<" : ">") (?, ?)")
                arguments += values(before)
            }
            arguments.append(limit)
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            return ("SELECT \(columns) FROM launch\(filter) ORDER BY \(ordering) LIMIT ?", arguments)
        }

        let merges =
            scope.booked == nil && scope.rocketID == nil && (order != .newestFirst || scope.site != nil)
        guard merges else {
            let query = select(booked: scope.booked)
            return (query.sql, StatementArguments(query.arguments))
        }
        let unbooked = select(booked: false)
        let booked = select(booked: true)
        return (
            "SELECT * FROM (\(unbooked.sql)) UNION ALL SELECT * FROM (\(booked.sql)) ORDER BY \(ordering) LIMIT ?",
            StatementArguments(unbooked.arguments + booked.arguments + [limit])
        )
    }

    /// Launches of the newest-first order strictly between two positions, from one end of that
    /// range: ``page(scope:order:after:before:fromStart:limit:)`` with `upper` as `after`,
    /// `lower` as `before` and `newestFirst` as `fromStart`.
    ///
    /// - Complexity: That of ``page(scope:order:after:before:fromStart:limit:)``.
    func page(
        scope: LaunchScope,
        below upper: KeysetPosition?,
        above lower: KeysetPosition?,
        newestFirst: Bool,
        limit: Int
    ) async throws -> [Launch] {
        try await page(
            scope: scope, order: .newestFirst, after: upper.map { .newestFirst($0) },
            before: lower.map { .newestFirst($0) }, fromStart: newestFirst, limit: limit)
    }

    /// Launches of a list strictly between two positions, from one end of that range.
    ///
    /// - Parameters:
    ///   - scope: The filters.
    ///   - order: The list's order; `after` and `before` must be positions of it.
    ///   - after: Only launches that follow this position (a list's `after` cursor).
    ///   - before: Only launches that precede this position (a list's `before` cursor).
    ///   - fromStart: `true` to take the first launches of the range in list order, `false`
    ///     the last ones.
    ///   - limit: At most this many launches.
    /// - Returns: The launches, in list order from `fromStart`'s end: last first when
    ///   `fromStart` is `false`.
    /// - Complexity: O(log n + limit): one index seek (two for a merged list, see
    ///   ``keysetQuery(scope:order:after:before:fromStart:limit:)``), then `limit` index steps,
    ///   whichever filters and order. With a search, O(log n + r) for the r rows passed over to
    ///   find `limit` that match. A rocket's launches in mission-name order (no field asks for
    ///   them) sort the rocket's launches: O(k log k) for its k launches.
    func page(
        scope: LaunchScope,
        order: LaunchOrder,
        after: LaunchListPosition?,
        before: LaunchListPosition?,
        fromStart: Bool,
        limit: Int
    ) async throws -> [Launch] {
        let query = Self.keysetQuery(
            scope: scope, order: order, after: after, before: before, fromStart: fromStart, limit: limit)
        return try await writer.read { db in
            try Row.fetchAll(db, sql: query.sql, arguments: query.arguments).map(self.launch(from:))
        }
    }

    /// Whether any launch of the list follows (`following == true`) or precedes `position`.
    ///
    /// - Complexity: That of a page of one launch: O(log n), or the rows passed over for a search.
    func exists(
        scope: LaunchScope, order: LaunchOrder, beyond position: LaunchListPosition, following: Bool
    ) async throws -> Bool {
        let query = Self.keysetQuery(
            scope: scope,
            order: order,
            after: following ? position : nil,
            before: following ? nil : position,
            fromStart: following,
            limit: 1
        )
        return try await writer.read { db in
            try Row.fetchOne(db, sql: query.sql, arguments: query.arguments) != nil
        }
    }

    /// How many launches `scope` holds.
    ///
    /// - Complexity: O(1) from the maintained counters for every launch, a rocket's, and the
    ///   booked or unbooked launches; O(log n + k) for the k launches of a site (with or
    ///   without `booked`), counted on its index; O(n) with a search, which checks every
    ///   mission name (O(k) within a site).
    func count(scope: LaunchScope) async throws -> Int {
        try await writer.read { db in
            if scope.isAll {
                return try Int.fetchOne(db, sql: "SELECT total FROM launch_stats WHERE id = 1") ?? 0
            }
            if let rocketID = scope.rocketID, scope == .rocket(rocketID) {
                return try Int.fetchOne(
                    db, sql: "SELECT launch_count FROM rocket WHERE id = ?", arguments: [rocketID]) ?? 0
            }
            if let booked = scope.booked, scope == LaunchScope(booked: booked) {
                let column = booked ? "booked" : "total - booked"
                return try Int.fetchOne(db, sql: "SELECT \(column) FROM launch_stats WHERE id = 1") ?? 0
            }
            let (conditions, arguments) = Self.filter(scope, booked: scope.booked)
            return try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM launch WHERE " + conditions.joined(separator: " AND "),
                arguments: StatementArguments(arguments)) ?? 0
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

    /// Books or cancels trips, keeping the count of booked launches.
    ///
    /// The change is committed before this returns, so the next request of a `booked:` list
    /// sees the launch in its new list, at its place in the list's order.
    ///
    /// - Parameters:
    ///   - numbers: The launch numbers.
    ///   - booked: The new value of `isBooked`.
    /// - Returns: The launches found, after the change, in the order of `numbers`.
    func setBooked(_ numbers: [Int64], booked: Bool) async throws -> [Launch] {
        try await writer.write { db in
            var launches: [Launch] = []
            var updated: [Launch] = []
            for number in numbers {
                try db.execute(
                    sql: "UPDATE launch SET is_booked = ? WHERE id = ? AND is_booked != ?",
                    arguments: [booked, number, booked])
                let changed = db.changesCount > 0
                if changed {
                    try db.execute(
                        sql: "UPDATE launch_stats SET booked = booked \(booked ? "+" : "-") 1 WHERE id = 1")
                }
                if let row = try Row.fetchOne(
                    db, sql: "SELECT \(Self.columns) FROM launch WHERE id = ?", arguments: [number])
                {
                    let launch = try self.launch(from: row)
                    launches.append(launch)
                    if changed { updated.append(launch) }
                }
            }
            let events = self.events
            db.afterNextTransaction(onCommit: { [updated] _ in events.publish(.updated, updated) })
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
            let launch = try self.launch(from: row)
            let events = self.events
            db.afterNextTransaction(onCommit: { _ in events.publish(.added, [launch]) })
            return launch
        }
    }

    /// Deletes a launch.
    ///
    /// - Parameter number: The launch's number.
    /// - Returns: Whether a launch was deleted.
    func delete(number: Int64) async throws -> Bool {
        try await writer.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT rocket_id, is_booked FROM launch WHERE id = ?", arguments: [number])
            else {
                return false
            }
            let rocketID = try row.decode(String.self, atIndex: 0)
            let wasBooked = try row.decode(Bool.self, atIndex: 1)
            try db.execute(sql: "DELETE FROM launch WHERE id = ?", arguments: [number])
            try db.execute(
                sql: "UPDATE launch_stats SET total = total - 1, booked = booked - ? WHERE id = 1",
                arguments: [wasBooked ? 1 : 0])
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
