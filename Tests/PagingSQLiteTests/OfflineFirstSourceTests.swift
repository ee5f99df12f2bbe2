import Foundation
import GRDB
import Paging
import PagingLock
import PagingTestSupport
import Testing

@testable import PagingSQLite

/// A launch as a remote list serves it.
struct StoredLaunch: Codable, Identifiable, Hashable, Sendable {
    let id: String
    let name: String
}

/// A remote list of launches by offset, that can go offline, recording what it was asked.
final class RemoteLaunches: PageSource, Sendable {
    typealias Key = Int
    typealias Item = StoredLaunch

    private let state: Lock<(launches: [StoredLaunch], offline: Bool, requests: [PageRequest<Int>])>

    init(count: Int, version: Int = 1) {
        state = Lock((Self.launches(count: count, version: version), false, []))
    }

    static func launches(count: Int, version: Int = 1) -> [StoredLaunch] {
        (0..<count).map { StoredLaunch(id: "\($0)", name: "Launch \($0) v\(version)") }
    }

    var offline: Bool {
        get { state.withLock { $0.offline } }
        set { state.withLock { $0.offline = newValue } }
    }

    var requests: [PageRequest<Int>] { state.withLock { $0.requests } }

    func replace(with launches: [StoredLaunch]) { state.withLock { $0.launches = launches } }

    func load(_ request: PageRequest<Int>) async throws -> Page<Int, StoredLaunch> {
        try state.withLock { state in
            state.requests.append(request)
            if state.offline { throw URLError(.notConnectedToInternet) }
            let start: Int
            switch request.position {
            case .initial(let key): start = key ?? 0
            case .next(let key): start = key
            case .previous: return Page(items: [])
            }
            let end = min(start + request.count, state.launches.count)
            return Page(
                items: Array(state.launches[start..<end]), nextKey: end < state.launches.count ? end : nil)
        }
    }
}

@Suite("OfflineFirstSource", .timeLimit(.minutes(HangLimit.minutes(1))))
struct OfflineFirstSourceTests {

    /// Pages of 10, no prefetch.
    static func configuration() throws -> PagingConfiguration {
        try PagingConfiguration(pageSize: 10, prefetchDistance: 0)
    }

    /// Loads every page a pager can reach.
    static func loadAll(_ pager: Pager<LocalPosition, StoredLaunch>) async throws -> [StoredLaunch] {
        _ = try await pager.loadAll()
        return Array(pager.items)
    }

    @Test("a second run opens the stored list with no request, offline too, and pages on from the stored key")
    func opensFromTheFile() async throws {
        let directory = try TemporaryDirectory()
        let remote = RemoteLaunches(count: 35)
        do {
            let source = OfflineFirstSource(
                remote: remote, file: try LocalListFile(path: directory.file()), list: "launches")
            let pager = Pager(source: source, configuration: try Self.configuration())
            _ = try await pager.loadNext().value
            _ = try await pager.loadNext().value
            #expect(pager.items.count == 20)
            #expect(remote.requests.count == 2)
        }
        // A new run, offline: the stored 20 show without a request.
        remote.offline = true
        let file = try LocalListFile(path: directory.file())
        let source = OfflineFirstSource(remote: remote, file: file, list: "launches")
        let pager = Pager(source: source, configuration: try Self.configuration())
        _ = try await pager.loadNext().value
        _ = try await pager.loadNext().value
        #expect(Array(pager.items) == Array(RemoteLaunches.launches(count: 20)))
        #expect(remote.requests.count == 2, "no request for what the file holds")
        // At the file's end, the next page needs the network: offline, it fails and the list stays.
        let failed = pager.loadNext()
        _ = try? await failed.value
        #expect(
            remote.requests.last == PageRequest(.next(after: 20), count: 10), "continued from the stored key")
        #expect(source.isOffline)
        #expect(pager.items.count == 20)
        // Back online, a retry continues from the stored key.
        remote.offline = false
        _ = try await pager.retry().value
        #expect(Array(pager.items) == Array(RemoteLaunches.launches(count: 30)))
        #expect(!source.isOffline)
        #expect(try file.itemCount(list: "launches") == 30)
        #expect(try await Self.loadAll(pager) == RemoteLaunches.launches(count: 35))
        #expect(!pager.hasNext)
    }

    @Test("a refresh replaces the stored list in one transaction, and leaves it as it was when it fails")
    func refreshReplaces() async throws {
        let directory = try TemporaryDirectory()
        let remote = RemoteLaunches(count: 30)
        let file = try LocalListFile(path: directory.file())
        let source = OfflineFirstSource(remote: remote, file: file, list: "launches")
        let pager = Pager(source: source, configuration: try Self.configuration())
        #expect(try await Self.loadAll(pager).count == 30)
        #expect(try file.itemCount(list: "launches") == 30)

        remote.offline = true
        _ = try? await pager.refresh().value
        #expect(try file.itemCount(list: "launches") == 30, "a failed refresh leaves the file")
        #expect(pager.items.count == 30, "and the list")

        remote.offline = false
        remote.replace(with: RemoteLaunches.launches(count: 12, version: 2))
        _ = try await pager.refresh().value
        #expect(Array(pager.items) == Array(RemoteLaunches.launches(count: 10, version: 2)))
        #expect(try file.itemCount(list: "launches") == 10, "the old 30 are gone")
        #expect(try await Self.loadAll(pager) == RemoteLaunches.launches(count: 12, version: 2))
        #expect(try file.itemCount(list: "launches") == 12)
    }

    @Test("a stored list older than the staleness limit is refreshed at open, and shown when that fails")
    func staleness() async throws {
        let directory = try TemporaryDirectory()
        let clock = Lock(Date(timeIntervalSince1970: 1_000_000))
        let remote = RemoteLaunches(count: 15)
        let file = try LocalListFile(path: directory.file())
        func open() throws -> (OfflineFirstSource<RemoteLaunches>, Pager<LocalPosition, StoredLaunch>) {
            let source = OfflineFirstSource(
                remote: remote, file: file, list: "launches", staleAfter: .seconds(60),
                now: { clock.withLock { $0 } })
            return (source, Pager(source: source, configuration: try Self.configuration()))
        }
        let (_, first) = try open()
        _ = try await first.loadNext().value
        #expect(remote.requests.count == 1)
        #expect(try file.lastRefreshed(list: "launches") == Date(timeIntervalSince1970: 1_000_000))

        // Fresh: no request.
        clock.withLock { $0 += 59 }
        let (_, fresh) = try open()
        _ = try await fresh.loadNext().value
        #expect(fresh.items.count == 10)
        #expect(remote.requests.count == 1)

        // Stale: refreshed at open.
        clock.withLock { $0 += 2 }
        remote.replace(with: RemoteLaunches.launches(count: 15, version: 2))
        let (_, refreshed) = try open()
        _ = try await refreshed.loadNext().value
        #expect(remote.requests.count == 2)
        #expect(refreshed.items.first?.name == "Launch 0 v2")
        #expect(try file.lastRefreshed(list: "launches") == Date(timeIntervalSince1970: 1_000_061))

        // Stale and offline: the stored list shows, and the source says it is offline.
        clock.withLock { $0 += 3600 }
        remote.offline = true
        let (source, offline) = try open()
        _ = try await offline.loadNext().value
        #expect(offline.items.first?.name == "Launch 0 v2")
        #expect(source.isOffline)
    }

    @Test("with nothing stored and no network, opening fails with the remote error")
    func nothingStoredOffline() async throws {
        let directory = try TemporaryDirectory()
        let remote = RemoteLaunches(count: 15)
        remote.offline = true
        let source = OfflineFirstSource(
            remote: remote, file: try LocalListFile(path: directory.file()), list: "launches")
        let pager = Pager(source: source, configuration: try Self.configuration())
        let error = await #expect(throws: PagingError.self) { try await pager.loadNext().value }
        #expect(error != nil)
        #expect(pager.items.isEmpty)
    }

    @Test("lists under different keys in one file are kept apart, and beside a store file's records")
    func listsApart() async throws {
        let directory = try TemporaryDirectory()
        let first = RemoteLaunches(count: 5)
        let second = RemoteLaunches(count: 7, version: 2)
        let file = try LocalListFile(path: directory.file())
        let a = Pager(
            source: OfflineFirstSource(remote: first, file: file, list: "a"),
            configuration: try Self.configuration())
        let b = Pager(
            source: OfflineFirstSource(remote: second, file: file, list: "b"),
            configuration: try Self.configuration())
        #expect(try await Self.loadAll(a).count == 5)
        #expect(try await Self.loadAll(b).count == 7)
        #expect(try file.itemCount(list: "a") == 5)
        #expect(try file.itemCount(list: "b") == 7)
        try await file.removeList("a")
        #expect(try file.itemCount(list: "a") == 0)
        #expect(try file.lastRefreshed(list: "a") == nil)
        #expect(try file.itemCount(list: "b") == 7)
        // The same file serves a store too.
        #expect(try GraphQLStoreFile(path: directory.file()).recordCount() == 0)
    }

    @Test("a stored row that does not decode is a clear error naming the list")
    func undecodableRow() async throws {
        let directory = try TemporaryDirectory()
        let remote = RemoteLaunches(count: 5)
        let file = try LocalListFile(path: directory.file())
        _ = try await Self.loadAll(
            Pager(
                source: OfflineFirstSource(remote: remote, file: file, list: "launches"),
                configuration: try Self.configuration()))
        try await file.pool.write { db in
            try db.execute(
                sql: "UPDATE list_items SET item = ? WHERE position = 0", arguments: [Data("{}".utf8)])
        }
        remote.offline = true
        let source = OfflineFirstSource(remote: remote, file: file, list: "launches")
        let error = await #expect(throws: SQLiteFileError.self) {
            try await source.load(PageRequest(.initial(nil), count: 10))
        }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("\"launches\"") == true)
    }
}

@Suite("OfflineFirstSource, local edits and windows", .timeLimit(.minutes(HangLimit.minutes(1))))
struct OfflineFirstSourceEditTests {
    static func launch(_ id: String, _ name: String) -> StoredLaunch { StoredLaunch(id: id, name: name) }

    /// Every item a new source over `file` shows, read from the file alone.
    static func storedList(_ file: LocalListFile, remote: RemoteLaunches) async throws -> [StoredLaunch] {
        let before = remote.requests.count
        let source = OfflineFirstSource(remote: remote, file: file, list: "launches")
        let pager = Pager(source: source, configuration: try OfflineFirstSourceTests.configuration())
        var items: [StoredLaunch] = []
        var key: LocalPosition?
        repeat {
            let page = try await source.load(
                PageRequest(key.map { .next(after: $0) } ?? .initial(nil), count: 10))
            items += page.items
            key = page.nextKey
            let stored = try file.itemCount(list: "launches")
            if items.count >= stored { break }
        } while key != nil
        _ = pager
        #expect(remote.requests.count == before, "read from the file, with no request")
        return items
    }

    @Test("updates, inserts and removals are written through: the next run shows them, and paging goes on")
    func editsWrittenThrough() async throws {
        let directory = try TemporaryDirectory()
        let remote = RemoteLaunches(count: 35)
        let file = try LocalListFile(path: directory.file())
        let source = OfflineFirstSource(remote: remote, file: file, list: "launches")
        let pager = Pager(source: source, configuration: try OfflineFirstSourceTests.configuration())
        _ = try await pager.loadNext().value
        _ = try await pager.loadNext().value

        // Each edit on the list at once, and through to the file.
        let renamed = Self.launch("3", "Renamed")
        #expect(pager.update(renamed))
        #expect(try await source.update(renamed))
        #expect(pager.remove(id: "5") != nil)
        #expect(try await source.remove(id: "5"))
        let inserted = Self.launch("x", "Inserted after 7")
        #expect(pager.insert(inserted, at: .after("7")))
        #expect(try await source.insert(inserted, at: .after("7")))
        let first = Self.launch("y", "Inserted first")
        #expect(pager.insert(first, at: .first))
        #expect(try await source.insert(first, at: .first))
        // The last loaded item removed: paging goes on from the file's end.
        #expect(pager.remove(id: "19") != nil)
        #expect(try await source.remove(id: "19"))
        // Edits of what the file does not hold say so.
        #expect(try await source.update(Self.launch("nope", "")) == false)
        #expect(try await source.remove(id: "nope") == false)
        #expect(try await source.insert(Self.launch("z", ""), at: .before("nope")) == false)
        #expect(try await source.insert(renamed, at: .last) == false, "an id the file holds")

        _ = try await pager.loadAll()
        var expected = RemoteLaunches.launches(count: 35)
        expected[3] = renamed
        expected.removeAll { $0.id == "5" || $0.id == "19" }
        expected.insert(inserted, at: expected.firstIndex { $0.id == "7" }! + 1)
        expected.insert(first, at: 0)
        #expect(Array(pager.items) == expected, "paging went on around the edits, no launch twice or missing")
        #expect(try file.itemCount(list: "launches") == expected.count)
        // A new run shows what the last one showed, from the file.
        #expect(try await Self.storedList(file, remote: remote) == expected)
    }

    @Test("inserts at one place past its room spread the list again, keeping its order")
    func manyInsertsAtOnePlace() async throws {
        let directory = try TemporaryDirectory()
        let remote = RemoteLaunches(count: 3, version: 1)
        let file = try LocalListFile(path: directory.file())
        let source = OfflineFirstSource(remote: remote, file: file, list: "launches")
        _ = try await Pager(source: source, configuration: try OfflineFirstSourceTests.configuration())
            .loadAll()
        var expected = RemoteLaunches.launches(count: 3)
        for index in 0..<40 {
            let item = Self.launch("n\(index)", "Inserted \(index)")
            #expect(try await source.insert(item, at: .after("0")))
            expected.insert(item, at: 1)
        }
        #expect(try await Self.storedList(file, remote: remote) == expected)
    }

    @Test("a window that dropped stored pages reads them again from the file, before and after")
    func windowRereadsStoredPages() async throws {
        let directory = try TemporaryDirectory()
        let remote = RemoteLaunches(count: 60)
        let file = try LocalListFile(path: directory.file())
        do {
            let source = OfflineFirstSource(remote: remote, file: file, list: "launches")
            _ = try await Pager(source: source, configuration: try OfflineFirstSourceTests.configuration())
                .loadAll()
        }
        #expect(try file.itemCount(list: "launches") == 60)
        // A new run, offline, holding at most 3 pages: forward to the end, then back to the start.
        remote.offline = true
        let source = OfflineFirstSource(remote: remote, file: file, list: "launches")
        let pager = Pager(
            source: source,
            configuration: try PagingConfiguration(pageSize: 10, prefetchDistance: 0, maximumHeld: .pages(3)))
        for _ in 0..<6 { _ = try await pager.loadNext().value }
        #expect(pager.items.first?.id == "30")
        #expect(pager.items.last?.id == "59")
        #expect(pager.hasPrevious)
        while pager.hasPrevious, !Task.isCancelled { _ = try await pager.loadPrevious().value }
        #expect(Array(pager.items) == Array(RemoteLaunches.launches(count: 30)))
        #expect(remote.requests.count == 6, "the first run's requests only")
    }

    @Test("a list of layout 3 (no ids, positions 0, 1, 2, …) is migrated, and its rows can be edited")
    func editsOfLayout3Rows() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        try await DatabaseQueue(path: path).write { db in
            for step in 1...3 {
                for statement in FileSchema.migrations[step] ?? [] { try db.execute(sql: statement) }
            }
            try db.execute(
                sql:
                    "INSERT INTO lists (list, item_count, next_key, refreshed_at) VALUES ('launches', 5, NULL, 1)"
            )
            for launch in RemoteLaunches.launches(count: 5) {
                try db.execute(
                    sql: "INSERT INTO list_items (list, position, item) VALUES ('launches', ?, ?)",
                    arguments: [Int(launch.id), try JSONEncoder().encode(launch)])
            }
            try db.execute(sql: "PRAGMA application_id = \(FileSchema.applicationID)")
            try db.execute(sql: "PRAGMA user_version = 3")
        }
        let remote = RemoteLaunches(count: 0)
        let file = try LocalListFile(path: path)
        let source = OfflineFirstSource(remote: remote, file: file, list: "launches")
        #expect(try await source.update(Self.launch("2", "Renamed")))
        #expect(try await source.insert(Self.launch("x", "Between 2 and 3"), at: .after("2")))
        #expect(try await source.remove(id: "4"))
        var expected = RemoteLaunches.launches(count: 4)
        expected[2] = Self.launch("2", "Renamed")
        expected.insert(Self.launch("x", "Between 2 and 3"), at: 3)
        #expect(try await Self.storedList(file, remote: remote) == expected)
    }
}

@Suite("OfflineFirstSource on a full disk", .timeLimit(.minutes(HangLimit.minutes(1))))
struct OfflineFirstSourceFullDiskTests {
    @Test(
        "pages the file cannot take are shown all the same; the list pages on in memory, and a refresh writes it again"
    )
    func fullDisk() async throws {
        let directory = try TemporaryDirectory()
        let remote = RemoteLaunches(count: 95)
        let file = try LocalListFile(path: directory.file())
        let source = OfflineFirstSource(remote: remote, file: file, list: "launches")
        let pager = Pager(source: source, configuration: try OfflineFirstSourceTests.configuration())
        _ = try await pager.loadNext().value
        _ = try await pager.loadNext().value
        #expect(try file.itemCount(list: "launches") == 20)

        try await file.capAtCurrentSize(true)
        // Pages of 10 launches of this size fill the file's free pages within a few; page on until
        // a write fails, and past it to the end.
        #expect(try await OfflineFirstSourceTests.loadAll(pager) == RemoteLaunches.launches(count: 95))
        let error = try #require(source.lastWriteError)
        #expect(error.code == .write)
        #expect(error.message.contains("Free disk space"))
        let kept = try file.itemCount(list: "launches")
        #expect(kept >= 20 && kept < 95, "the file keeps what it took (\(kept))")
        #expect(Set(pager.items.map(\.id)).count == 95, "no launch twice")

        // Room again: a refresh writes the list anew, and paging goes through the file.
        try await file.capAtCurrentSize(false)
        _ = try await pager.refresh().value
        #expect(source.lastWriteError == nil)
        #expect(try file.itemCount(list: "launches") == 10)
        #expect(try await OfflineFirstSourceTests.loadAll(pager) == RemoteLaunches.launches(count: 95))
        #expect(try file.itemCount(list: "launches") == 95)
    }
}
