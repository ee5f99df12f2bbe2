import Foundation
import GRDB
import PagingGraphQL
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingSQLite

/// A directory of its own for each test, removed at the end.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "paging-sqlite-\(UUID().uuidString)"
            ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A file path in the directory.
    func file(_ name: String = "store.sqlite") -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Answers every request with one body, counting requests.
final class CountingTransport: GraphQLTransport {
    let body: Data
    let requests = Counter()

    init(body: String) { self.body = Data(body.utf8) }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        requests.increment()
        return GraphQLHTTPResponse(statusCode: 200, body: body)
    }
}

let launchesDocument = """
    query Launches($first: Int, $after: String) {
      launches(first: $first, after: $after) {
        edges { cursor node { id name site { name } } }
        pageInfo { endCursor hasNextPage }
      }
    }
    """

/// A page of launches as a server answers it.
func launchesBody(_ ids: Range<Int>, hasNextPage: Bool = true) -> String {
    let edges = ids.map {
        #"{"__typename":"LaunchEdge","cursor":"c\#($0)","node":{"__typename":"Launch","id":"\#($0)","name":"Launch \#($0)","site":{"__typename":"Site","name":"SLC \#($0 % 3)"}}}"#
    }
    return
        #"{"data":{"launches":{"__typename":"LaunchConnection","edges":[\#(edges.joined(separator: ","))],"pageInfo":{"__typename":"PageInfo","endCursor":"c\#(ids.upperBound - 1)","hasNextPage":\#(hasNextPage)}}}}"#
}

/// Writes pages of 100 launches to a store, as responses to the list's query.
func writePages(_ count: Int, to store: GraphQLStore) throws {
    for page in 0..<count {
        let operation = try StoreOperation(
            document: launchesDocument, variables: ["first": 100, "after": .string("c\(page * 100 - 1)")])
        let body = try JSONValue(json: Data(launchesBody(page * 100..<page * 100 + 100).utf8))
        try store.write(data: try #require(body["data"]), for: operation)
    }
}

/// A store without a record limit, attached to a new file in `directory`.
func attachedStore(in directory: TemporaryDirectory) throws -> (GraphQLStore, GraphQLStoreFile) {
    let store = GraphQLStore(configuration: GraphQLStore.Configuration(recordLimit: nil))
    let file = try GraphQLStoreFile(path: directory.file())
    try file.attach(store)
    return (store, file)
}

/// Every record of a store, by key.
func snapshot(of store: GraphQLStore) -> [CacheKey: StoreRecord] {
    Dictionary(
        uniqueKeysWithValues: store.recordKeys.compactMap { key in store.record(for: key).map { (key, $0) } })
}

@Suite("GraphQLStoreFile", .timeLimit(.minutes(HangLimit.minutes(1))))
struct GraphQLStoreFileTests {
    /// The bytes of a database file and its WAL.
    static func bytesOnDisk(_ path: String) throws -> Int {
        try [path, path + "-wal"].reduce(0) { total, file in
            guard FileManager.default.fileExists(atPath: file) else { return total }
            return total + (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0)
        }
    }

    @Test("a store attached to a file holds, after a reopen, every record and field it held")
    func roundTrip() async throws {
        let directory = try TemporaryDirectory()
        let store = GraphQLStore()
        let file = try GraphQLStoreFile(path: directory.file())
        #expect(try file.attach(store) == 0)
        let operation = try StoreOperation(document: launchesDocument, variables: ["first": 3])
        try store.write(
            data: try #require(try JSONValue(json: Data(launchesBody(0..<3).utf8))["data"]), for: operation)
        store.modify(
            record: "Launch:1",
            fields: [
                "tags": .list([.scalar("a"), .scalar(nil), .reference("Launch:2")]),
                "extra": .scalar(["nested": [1, 2.5, true]]),
                "rocket": .object(StoreObject(["name": .scalar("Falcon"), "stages": .scalar(2)])),
            ])
        try await file.flush()
        let before = snapshot(of: store)
        #expect(before.count == 4, "QUERY_ROOT and three launches")

        let reopened = GraphQLStore()
        let again = try GraphQLStoreFile(path: directory.file())
        #expect(try again.attach(reopened) == 4)
        #expect(snapshot(of: reopened) == before)
        #expect(try again.recordCount() == 4)
        #expect(try again.lastWrite() != nil)
    }

    @Test("every kind of value reads back as it was written")
    func valueEncoding() {
        let values: [StoreValue] = [
            .scalar(nil), .scalar(true), .scalar(7), .scalar(-2.5), .scalar("text"), .scalar(""),
            .scalar(["custom": ["scalar"]]), .scalar([1, "two"]), .scalar([]), .scalar([:]),
            .reference("Launch:109"), .list([]), .list([.list([.scalar(1)]), .reference("A:1")]),
            .object(StoreObject([:])),
            .object(
                StoreObject(["edge": .object(StoreObject(["node": .reference("Launch:1")])), "n": .scalar(1)])
            ),
        ]
        for value in values {
            #expect(StoreFileValue.value(of: StoreFileValue.data(of: value)) == value, "\(value)")
        }
        // What this library never writes is not read as a value.
        for foreign in [#"{"x":1}"#, #"{"r":1}"#, #"{"s":"plain"}"#, #"{"o":[]}"#, "not json"] {
            #expect(StoreFileValue.value(of: Data(foreign.utf8)) == nil, "\(foreign)")
        }
    }

    @Test("deletes, removed fields and collected records leave the file too")
    func removals() async throws {
        let directory = try TemporaryDirectory()
        let (store, file) = try attachedStore(in: directory)
        let operation = try StoreOperation(document: launchesDocument, variables: ["first": 3])
        try store.write(
            data: try #require(try JSONValue(json: Data(launchesBody(0..<3).utf8))["data"]), for: operation)
        store.delete(record: "Launch:0")
        store.modify(record: "Launch:1", fields: ["name": nil])
        try await file.flush()

        let reopened = GraphQLStore()
        try GraphQLStoreFile(path: directory.file()).attach(reopened)
        #expect(reopened.record(for: "Launch:0") == nil)
        #expect(reopened.record(for: "Launch:1")?["name"] == nil)
        #expect(reopened.record(for: "Launch:1")?["id"] == .scalar("1"))
        #expect(snapshot(of: reopened) == snapshot(of: store))

        // A collection removes what nothing reaches: the file follows.
        _ = store.gc()
        try await file.flush()
        #expect(store.recordCount == 0)
        #expect(try file.recordCount() == 0)
    }

    @Test("cache-first on a cold start answers from the file with no request")
    func coldStartCacheFirst() async throws {
        let directory = try TemporaryDirectory()
        let operation = UntypedOperation(
            document: launchesDocument, operationName: "Launches", variables: ["first": 3])
        do {
            let store = GraphQLStore()
            let file = try GraphQLStoreFile(path: directory.file())
            try file.attach(store)
            let transport = CountingTransport(body: launchesBody(0..<3))
            let client = GraphQLClient(
                endpoint: URL(fileURLWithPath: "/graphql"), transport: transport, store: store)
            let first = try await client.send(operation, policy: .cacheFirst)
            #expect(first.source == .network)
            try await file.flush()
        }
        // A new process, in effect: a new store and client over the same file.
        let store = GraphQLStore()
        try GraphQLStoreFile(path: directory.file()).attach(store)
        let transport = CountingTransport(body: #"{"errors":[{"message":"offline"}]}"#)
        let client = GraphQLClient(
            endpoint: URL(fileURLWithPath: "/graphql"), transport: transport, store: store)
        let cold = try await client.send(operation, policy: .cacheFirst)
        #expect(cold.source == .cache)
        #expect(transport.requests.count == 0, "no request")
        #expect(cold.data?["launches"]?["edges"]?.arrayValue?.count == 3)
        #expect(cold.data?["launches"]?["pageInfo"]?["endCursor"] == "c2")
    }

    @Test("a write that fails (a full disk) is kept, tried again, and the store goes on working")
    func failedWriteIsRetried() async throws {
        let directory = try TemporaryDirectory()
        let (store, file) = try attachedStore(in: directory)
        try await file.capAtCurrentSize(true)
        try writePages(20, to: store)
        let error = await #expect(throws: SQLiteFileError.self) { try await file.flush() }
        #expect(error?.code == .write)
        #expect(error?.message.contains("Free disk space") == true)
        #expect(file.lastError?.code == .write)
        #expect(store.recordCount == 2_001, "the store in memory holds every page")

        try await file.capAtCurrentSize(false)
        try await file.flush()
        #expect(file.lastError == nil)
        let reopened = GraphQLStore()
        try GraphQLStoreFile(path: directory.file()).attach(reopened)
        #expect(snapshot(of: reopened) == snapshot(of: store))
    }

    @Test("a read-only file: a clear error, the store goes on, and what waits stays bounded")
    func readOnlyFile() async throws {
        let directory = try TemporaryDirectory()
        let (store, file) = try attachedStore(in: directory)
        try writePages(2, to: store)
        try await file.flush()
        try await file.makeReadOnly(true)
        // Many commits to the same records while no write can succeed.
        for round in 0..<300 {
            store.modify(
                record: CacheKey("Launch:\(round % 10)"), fields: ["name": .scalar(.string("Round \(round)"))]
            )
            if round % 50 == 49 {
                let error = await #expect(throws: SQLiteFileError.self) { try await file.flush() }
                #expect(error?.code == .write)
                #expect(error?.message.contains("read-only") == true)
            }
        }
        // Folded by field: ten fields wait, not 300 commits.
        let _ = await #expect(throws: SQLiteFileError.self) { try await file.flush() }
        #expect(file.unwritten.commits == 0)
        #expect(file.unwritten.fields == 10)
        #expect(store.record(for: "Launch:9")?.fields["name"] == .scalar("Round 299"))

        // A record removed while writes fail is removed from the file too.
        store.modify(record: "Launch:0", fields: ["extra": .scalar("x")])
        store.delete(record: "Launch:0")
        try await file.makeReadOnly(false)
        try await file.flush()
        #expect(file.lastError == nil)
        let reopened = GraphQLStore()
        try GraphQLStoreFile(path: directory.file()).attach(reopened)
        #expect(snapshot(of: reopened) == snapshot(of: store))
        #expect(reopened.record(for: "Launch:0") == nil)
    }

    @Test("a write another connection keeps locked out is a lock error, and is written once it lets go")
    func lockedWrite() async throws {
        let directory = try TemporaryDirectory()
        let store = GraphQLStore()
        let file = try GraphQLStoreFile(
            path: directory.file(), configuration: .init(busyTimeout: .milliseconds(20)))
        try file.attach(store)
        // Another connection, as another process would, holds the write lock across accesses.
        var options = Configuration()
        options.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: directory.file(), configuration: options)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        store.modify(record: "Launch:1", fields: ["id": .scalar("1")])
        let error = await #expect(throws: SQLiteFileError.self) { try await file.flush() }
        #expect(error?.code == .locked)
        #expect(error?.message.contains("another connection") == true)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        try await file.flush()
        #expect(try file.recordCount() == 1)
    }

    @Test("the file keeps to the store's record limit, within a tenth, and stops growing on disk")
    func heldToTheLimit() async throws {
        let directory = try TemporaryDirectory()
        let store = GraphQLStore(configuration: GraphQLStore.Configuration(recordLimit: 500))
        store.collectInOneCommit()
        let file = try GraphQLStoreFile(path: directory.file())
        try file.attach(store)
        // The last page is what a list shows, and is held.
        var token: StoreRetainToken?
        var most = 0
        var bytesAfter: [Int: Int] = [:]
        for page in 0..<60 {
            let operation = try StoreOperation(
                document: launchesDocument, variables: ["first": 100, "after": .string("c\(page * 100 - 1)")])
            let body = try JSONValue(json: Data(launchesBody(page * 100..<page * 100 + 100).utf8))
            try store.write(data: try #require(body["data"]), for: operation)
            token?.cancel()
            token = store.retain((page * 100..<page * 100 + 100).map { CacheKey("Launch:\($0)") })
            try await file.flush()
            most = max(most, try file.recordCount())
            if page == 19 || page == 59 {
                try await file.checkpoint()
                bytesAfter[page] = file.fileSize
            }
        }
        #expect(most <= 550, "the file held up to \(most) records, for a limit of 500")
        #expect(try file.recordCount() == store.recordCount)
        for id in 5_900..<6_000 { #expect(store.record(for: CacheKey("Launch:\(id)")) != nil, "held \(id)") }
        // What collections free is reused: forty more pages leave the database file about its size
        // (the WAL, which SQLite checkpoints at about 4 MB and then reuses, is emptied before each
        // measure).
        let (twenty, sixty) = (try #require(bytesAfter[19]), try #require(bytesAfter[59]))
        #expect(Double(sixty) <= 1.25 * Double(twenty), "after 20 pages: \(twenty) B, after 60: \(sixty) B")
        token?.cancel()
    }

    @Test("clearing the file gives its space back")
    func clearShrinks() async throws {
        let directory = try TemporaryDirectory()
        let (store, file) = try attachedStore(in: directory)
        try writePages(20, to: store)
        try await file.flush()
        file.detach()
        let full = try Self.bytesOnDisk(directory.file())
        try await file.clear()
        let cleared = try Self.bytesOnDisk(directory.file())
        #expect(try file.recordCount() == 0)
        // The pages are given back, not only marked free: what is left is
        // the header and one root page per table and index.
        #expect(cleared <= 6 * 4096, "cleared: \(cleared) bytes")
        #expect(full > 10 * cleared, "before: \(full) bytes")
    }
}

@Suite("GraphQLStoreFile, attaching", .timeLimit(.minutes(HangLimit.minutes(1))))
struct StoreFileAttachingTests {
    @Test("a file holding more records than the store's limit opens whole, and is not collected before use")
    func coldStartPastTheLimit() async throws {
        let directory = try TemporaryDirectory()
        do {
            let (store, file) = try attachedStore(in: directory)
            try writePages(3, to: store)
            try await file.flush()
        }
        // A store whose limit is below what the file holds.
        let store = GraphQLStore(configuration: GraphQLStore.Configuration(recordLimit: 100))
        let file = try GraphQLStoreFile(path: directory.file())
        #expect(try file.attach(store) == 301)
        // A write that touches one launch does not collect the rest.
        store.modify(record: "Launch:0", fields: ["name": .scalar("Renamed")])
        try await file.flush()
        #expect(store.recordCount == 301)
        #expect(try file.recordCount() == 301)
        #expect(store.record(for: .queryRoot) != nil)
    }

    @Test("a store that holds records, or a file attached already, cannot be attached, and nothing changes")
    func notAttachable() throws {
        let directory = try TemporaryDirectory()
        let busy = GraphQLStore()
        busy.modify(record: "Launch:1", fields: ["id": .scalar("1")])
        let file = try GraphQLStoreFile(path: directory.file())
        let error = #expect(throws: SQLiteFileError.self) { try file.attach(busy) }
        #expect(error?.code == .notAttachable)
        #expect(error?.message.contains("empty store") == true)
        #expect(busy.recordKeys == ["Launch:1"])

        try file.attach(GraphQLStore())
        let again = #expect(throws: SQLiteFileError.self) { try file.attach(GraphQLStore()) }
        #expect(again?.code == .notAttachable)
        file.detach()
        try file.attach(GraphQLStore())
    }

    @Test("flush waits for every commit taken before it, however many threads commit")
    func flushAfterConcurrentCommits() async throws {
        let directory = try TemporaryDirectory()
        let (store, file) = try attachedStore(in: directory)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for index in 0..<250 {
                        store.modify(
                            record: CacheKey("Item:\(writer)-\(index)"), fields: ["n": .scalar(.int(index))])
                    }
                }
            }
        }
        try await file.flush()
        #expect(try file.recordCount() == 1_000)
        let reopened = GraphQLStore()
        try GraphQLStoreFile(path: directory.file()).attach(reopened)
        #expect(snapshot(of: reopened) == snapshot(of: store))
    }
}
