import Foundation
import GRDB
import PagingGraphQL
import PagingTestSupport
import Testing

@testable import PagingSQLite

@Suite("GraphQLStoreFile, opening", .timeLimit(.minutes(HangLimit.minutes(1))))
struct StoreFileOpeningTests {
    /// The bytes of a file.
    static func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test("a file that is not a database is an error naming what to do, and is left as it is")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let garbage = Data(String(repeating: "not a database, ", count: 512).utf8)
        try garbage.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SQLiteFileError.self) { try GraphQLStoreFile(path: path) }
        #expect(error?.code == .corrupt)
        #expect(error?.path == path)
        #expect(error?.message.contains("startAfresh") == true)
        #expect(try Self.contents(path) == garbage, "left as it was")

        // Asked to, the app starts afresh.
        let store = GraphQLStore()
        let file = try GraphQLStoreFile(path: path, configuration: .init(unusableFile: .startAfresh))
        #expect(try file.attach(store) == 0)
        #expect(try Self.contents(path) != garbage)
        // Set aside, not deleted.
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter {
                $0.hasPrefix("store.sqlite.unusable-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
            }
        #expect(aside.count == 1)
        #expect(try aside.first.map { try Self.contents(directory.path + "/" + $0) } == garbage)
    }

    @Test("another application's database is an error, and is never replaced")
    func foreignDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
            try db.execute(sql: "INSERT INTO notes (text) VALUES ('keep me')")
        }
        let before = try Self.contents(path)
        for configuration in [SQLiteFileConfiguration(), .init(unusableFile: .startAfresh)] {
            let error = #expect(throws: SQLiteFileError.self) {
                try GraphQLStoreFile(path: path, configuration: configuration)
            }
            #expect(error?.code == .foreign)
            #expect(error?.message.contains("another application") == true)
            #expect(try Self.contents(path) == before, "byte for byte as it was")
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "not switched to WAL mode")
        }
        // One with an application id of its own is refused from its header alone.
        let tagged = directory.file("tagged.sqlite")
        try DatabaseQueue(path: tagged).write { db in
            try db.execute(sql: "PRAGMA application_id = 42")
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY)")
        }
        let taggedBefore = try Self.contents(tagged)
        let error = #expect(throws: SQLiteFileError.self) { try LocalListFile(path: tagged) }
        #expect(error?.code == .foreign)
        #expect(error?.message.contains("application id 42") == true)
        #expect(try Self.contents(tagged) == taggedBefore)
        let kept = try DatabaseQueue(path: path).read { db in
            try String.fetchOne(db, sql: "SELECT text FROM notes")
        }
        #expect(kept == "keep me")
    }

    @Test("a file of a newer layout is an error; starting afresh replaces it")
    func newerVersion() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "PRAGMA application_id = \(FileSchema.applicationID)")
            try db.execute(sql: "PRAGMA user_version = \(FileSchema.currentVersion + 1)")
            try db.execute(sql: "CREATE TABLE future (x)")
        }
        let before = try Self.contents(path)
        let error = #expect(throws: SQLiteFileError.self) { try GraphQLStoreFile(path: path) }
        #expect(error?.code == .newerVersion)
        #expect(error?.message.contains("layout \(FileSchema.currentVersion + 1)") == true)
        #expect(try Self.contents(path) == before, "byte for byte as it was")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "not switched to WAL mode")
        let version = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "PRAGMA user_version")
        }
        #expect(version == FileSchema.currentVersion + 1, "left as it was")

        let file = try GraphQLStoreFile(path: path, configuration: .init(unusableFile: .startAfresh))
        #expect(try file.recordCount() == 0)
    }

    @Test("a file another connection keeps locked is an error after the timeout, and opens once released")
    func locked() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        _ = try GraphQLStoreFile(path: path)
        // Another connection (as another process would) holds the write lock.
        let other = try DatabaseQueue(path: path)
        try other.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            let error = #expect(throws: SQLiteFileError.self) {
                try GraphQLStoreFile(path: path, configuration: .init(busyTimeout: .milliseconds(50)))
            }
            #expect(error?.code == .locked)
            #expect(error?.message.contains("another connection") == true)
            try db.execute(sql: "COMMIT")
        }
        _ = try GraphQLStoreFile(path: path, configuration: .init(busyTimeout: .milliseconds(50)))
    }

    @Test("a missing directory is a clear error")
    func cannotOpen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/missing/store.sqlite"
        let error = #expect(throws: SQLiteFileError.self) { try GraphQLStoreFile(path: path) }
        #expect(error?.code == .cannotOpen)
        #expect(error?.message.contains("directory") == true)
    }

    @Test("a file of layout 1 is migrated, keeping its records")
    func migratesVersion1() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        // Layout 1, as a first version of the library wrote it.
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: FileSchema.migrations[1]?.first ?? "")
            try db.execute(
                sql:
                    "INSERT INTO fields (record, field, value) VALUES ('Launch:1', 'name', ?), ('Launch:1', 'id', ?)",
                arguments: [Data(#""Launch 1""#.utf8), Data(#""1""#.utf8)])
            try db.execute(sql: "PRAGMA application_id = \(FileSchema.applicationID)")
            try db.execute(sql: "PRAGMA user_version = 1")
        }
        let store = GraphQLStore()
        let file = try GraphQLStoreFile(path: path)
        #expect(try file.attach(store) == 1)
        #expect(store.record(for: "Launch:1")?.fields == ["name": .scalar("Launch 1"), "id": .scalar("1")])
        #expect(try file.lastWrite() == nil, "no commit yet: layout 2's metadata is empty")
        store.modify(record: "Launch:1", fields: ["site": .scalar("KSC")])
        try await file.flush()
        #expect(try file.lastWrite() != nil)
        let version = try await DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "PRAGMA user_version")
        }
        #expect(version == FileSchema.currentVersion)
    }

    @Test("a row this library did not write is an error at attach, and the store is left as it was")
    func foreignRow() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        _ = try GraphQLStoreFile(path: path)
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: "INSERT INTO fields (record, field, value) VALUES ('Launch:1', 'name', ?)",
                arguments: [Data(#"{"unknown":1}"#.utf8)])
        }
        let store = GraphQLStore()
        store.modify(record: "Launch:2", fields: ["id": .scalar("2")])
        let error = #expect(throws: SQLiteFileError.self) {
            try GraphQLStoreFile(path: path).attach(store)
        }
        #expect(error?.code == .corrupt)
        #expect(store.recordKeys == ["Launch:2"])
    }

    @Test("a file of layout 2 is migrated: its records are kept, and it can hold lists")
    func migratesVersion2() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        try await DatabaseQueue(path: path).write { db in
            for step in 1...2 {
                for statement in FileSchema.migrations[step] ?? [] { try db.execute(sql: statement) }
            }
            try db.execute(
                sql: "INSERT INTO fields (record, field, value) VALUES ('Launch:1', 'name', ?)",
                arguments: [Data(#""Launch 1""#.utf8)])
            try db.execute(sql: "INSERT INTO metadata (name, value) VALUES ('lastWrite', 1000)")
            try db.execute(sql: "PRAGMA application_id = \(FileSchema.applicationID)")
            try db.execute(sql: "PRAGMA user_version = 2")
        }
        let store = GraphQLStore()
        let file = try GraphQLStoreFile(path: path)
        #expect(try file.attach(store) == 1)
        #expect(store.record(for: "Launch:1")?.fields == ["name": .scalar("Launch 1")])
        #expect(try file.lastWrite() == Date(timeIntervalSince1970: 1000), "layout 2's metadata kept")
        // Layout 3's tables: the same file keeps a list.
        let lists = try LocalListFile(path: path)
        _ = try await lists.replace(
            "launches", with: [.init(id: "1", item: Data("1".utf8))], nextKey: nil, at: Date())
        #expect(try lists.itemCount(list: "launches") == 1)
        let version = try await DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "PRAGMA user_version")
        }
        #expect(version == FileSchema.currentVersion)
    }

    @Test("a damaged page is found at open, and starting afresh sets the file aside")
    func damagedPage() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        do {
            let (store, file) = try attachedStore(in: directory)
            try writePages(30, to: store)
            try await file.flush()
        }
        // Everything in the main file, then pages in its middle overwritten.
        try await DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        var bytes = try Self.contents(path)
        #expect(bytes.count > 40 * 4096, "a file of many pages: \(bytes.count) bytes")
        let middle = bytes.count / 2 / 4096 * 4096
        bytes.replaceSubrange(middle..<middle + 3 * 4096, with: Data(repeating: 0xFF, count: 3 * 4096))
        try bytes.write(to: URL(fileURLWithPath: path))

        let error = #expect(throws: SQLiteFileError.self) { try GraphQLStoreFile(path: path) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("startAfresh") == true)
        let after = try Self.contents(path)
        #expect(after == bytes, "left as it was")

        let store = GraphQLStore()
        let file = try GraphQLStoreFile(path: path, configuration: .init(unusableFile: .startAfresh))
        #expect(try file.attach(store) == 0)
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("store.sqlite.unusable-") && !$0.contains("-wal") && !$0.contains("-shm") }
        #expect(try aside.first.map { try Self.contents(directory.path + "/" + $0) } == bytes)
    }

    @Test("a file of this layout that lacks its tables is damaged, not a missing directory")
    func missingTable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        _ = try GraphQLStoreFile(path: path)
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "DROP TABLE fields") }
        let error = #expect(throws: SQLiteFileError.self) { try GraphQLStoreFile(path: path) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("tables its layout version promises") == true)
    }
}
