import Benchmark
import BenchmarkSupport
import Foundation
import GraphQLBenchmarkSupport
import Paging
import PagingGraphQL
import PagingSQLite

// Issue 16: the 1,000-page launch list of GraphQLListBenchmarks loaded with its store kept in a
// SQLite file (`GraphQLStoreFile` attached before the first page, flushed after the last, so that
// the time counts every commit written) against the same load with the store in memory only.
// Each iteration runs both, in alternating order, and records their ratio: the target is at most
// 1.5. It also records the file's bytes on disk (the database and its WAL) per launch.

let pageCount = 1_000
let pageSize = 100

/// The page bodies, made once.
let pageBodies: [Data] = (0..<pageCount).map {
    launchPageBody(page: $0, pageSize: pageSize, pageCount: pageCount)
}

enum StoreFileMetric {
    /// One load with the store in memory, in milliseconds.
    static let inMemory = BenchmarkMetric.custom(
        "store in memory (ms)", polarity: .prefersSmaller, useScalingFactor: false)
    /// One load with the store kept in a file, in milliseconds.
    static let inFile = BenchmarkMetric.custom(
        "store in a file (ms)", polarity: .prefersSmaller, useScalingFactor: false)
    /// The two of one iteration divided, times 1,000.
    static let ratio = BenchmarkMetric.custom(
        "in a file / in memory (per mille)", polarity: .prefersSmaller, useScalingFactor: false)
    /// The file's bytes on disk after the load, per launch held.
    static let bytesPerLaunch = BenchmarkMetric.custom(
        "bytes on disk per launch", polarity: .prefersSmaller, useScalingFactor: false)
}

/// Loads the 1,000 pages; with `file`, over a store kept in a new file in `directory` (removed
/// after unless `keeping`). Returns the time and, with a file, its bytes on disk.
@MainActor
func loadAllPages(file: Bool, directory: String, keeping kept: String? = nil) async throws -> (
    elapsed: Duration, bytes: Int
) {
    let path = kept ?? directory + "/store-\(UUID().uuidString).sqlite"
    let removes = kept == nil
    defer {
        if removes {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }
    let start = ContinuousClock.now
    let store = GraphQLStore()
    let storeFile = file ? try GraphQLStoreFile(path: path) : nil
    try storeFile?.attach(store)
    let list = try makeLaunchList(
        transport: LaunchPageTransport(pageSize: pageSize, pageCount: pageCount) { pageBodies[$0] },
        configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0), store: store)
    for _ in 0..<pageCount { try await loadLaunchPage(list, pageSize: pageSize) }
    try await storeFile?.flush()
    let elapsed = ContinuousClock.now - start
    guard let storeFile else { return (elapsed, 0) }
    guard try storeFile.recordCount() >= pageCount * pageSize else {
        throw BenchmarkSetupError("the file holds \(try storeFile.recordCount()) records after the load")
    }
    let bytes = ["", "-wal"].reduce(0) { total, suffix in
        total + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0)
    }
    return (elapsed, bytes)
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

let benchmarks: @Sendable () -> Void = {
    let directory = FileManager.default.temporaryDirectory.path
    coldStartBenchmarks(directory)
    Benchmark(
        "GraphQL list, 1,000 pages: store in a file against in memory, interleaved",
        configuration: .init(
            metrics: [
                StoreFileMetric.inMemory, StoreFileMetric.inFile, StoreFileMetric.ratio,
                StoreFileMetric.bytesPerLaunch,
            ],
            warmupIterations: 0, maxDuration: .seconds(120), maxIterations: 6,
            setup: { _ = pageBodies.count })
    ) { benchmark in
        let inMemory: Duration
        let inFile: (elapsed: Duration, bytes: Int)
        if benchmark.currentIteration.isMultiple(of: 2) {
            inMemory = try await loadAllPages(file: false, directory: directory).elapsed
            inFile = try await loadAllPages(file: true, directory: directory)
        } else {
            inFile = try await loadAllPages(file: true, directory: directory)
            inMemory = try await loadAllPages(file: false, directory: directory).elapsed
        }
        benchmark.measurement(StoreFileMetric.inMemory, Int(milliseconds(inMemory).rounded()))
        benchmark.measurement(StoreFileMetric.inFile, Int(milliseconds(inFile.elapsed).rounded()))
        benchmark.measurement(
            StoreFileMetric.ratio,
            Int((1000 * milliseconds(inFile.elapsed) / milliseconds(inMemory)).rounded()))
        benchmark.measurement(StoreFileMetric.bytesPerLaunch, inFile.bytes / (pageCount * pageSize))
    }
}

// Cold start: a list of 100,000 launches kept by an `OfflineFirstSource` in a `LocalListFile`;
// each sample opens the file anew (a new connection pool, the layout checked), makes a pager over
// a new source and loads the first page of 100 from the file, no request. Beside it, the first page
// from the remote source itself, answering from memory at once. Target: at most 10 ms.

/// A remote list of launches by offset, answering from memory at once.
struct MemoryLaunches: PageSource {
    let launches: [Launch]

    func load(_ request: PageRequest<Int>) async throws -> Page<Int, Launch> {
        let start = request.key ?? 0
        let end = min(start + request.count, launches.count)
        return Page(items: Array(launches[start..<end]), nextKey: end < launches.count ? end : nil)
    }
}

/// The 100,000 launches of the cold start.
let coldLaunches = MemoryLaunches(launches: (0..<100_000).map { Launch(id: "\($0)", name: "Launch \($0)") })

/// A file holding the 100,000 launches as one stored list, written once (through the source itself,
/// 1,000 pages of 100) for the cold-start benchmarks.
@MainActor
func makeColdFile(directory: String) async throws -> String {
    let path = directory + "/cold-\(UUID().uuidString).sqlite"
    let source = OfflineFirstSource(
        remote: coldLaunches, file: try LocalListFile(path: path), list: "launches")
    let pager = Pager(
        source: source, configuration: try PagingConfiguration(pageSize: 100, prefetchDistance: 0))
    _ = try await pager.loadAll()
    guard pager.items.count == coldLaunches.launches.count else {
        throw BenchmarkSetupError("the cold file holds \(pager.items.count) launches")
    }
    return path
}

/// Opens the file anew and shows its list's first page of 100 from it.
func firstPageFromFile(_ path: String) async throws {
    let source = OfflineFirstSource(
        remote: coldLaunches, file: try LocalListFile(path: path), list: "launches")
    let pager = Pager(
        source: source, configuration: try PagingConfiguration(pageSize: 100, prefetchDistance: 0))
    _ = try await pager.loadNext().value
    guard pager.items.count == 100, pager.items.first?.id == "0" else {
        throw BenchmarkSetupError("the first page shows \(pager.items.count) launches")
    }
}

/// The first page of 100 from the remote source in memory.
func firstPageInMemory() async throws {
    let pager = Pager(
        source: coldLaunches, configuration: try PagingConfiguration(pageSize: 100, prefetchDistance: 0))
    _ = try await pager.loadNext().value
    guard pager.items.count == 100 else {
        throw BenchmarkSetupError("the first page shows \(pager.items.count)")
    }
}

let coldStartBenchmarks: @Sendable (String) -> Void = { directory in
    // For information: attaching a store file of the 100,000 launches the list's load left, which
    // loads every record into the store (records are not yet loaded as they are missed).
    let storeFile = Shared<String>()
    Benchmark(
        "attach a store file of 100,000 launches (loads them all)",
        configuration: .init(
            metrics: [.wallClock], warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 5),
        closure: { _ in
            let store = GraphQLStore()
            let loaded = try GraphQLStoreFile(path: try storeFile.get()).attach(store)
            guard loaded > 100_000 else { throw BenchmarkSetupError("attached \(loaded) records") }
        },
        setup: {
            let path = directory + "/attach-\(UUID().uuidString).sqlite"
            _ = try await loadAllPages(file: true, directory: directory, keeping: path)
            storeFile.set(path)
        },
        teardown: {
            if let path = try? storeFile.get() {
                for suffix in ["", "-wal", "-shm"] {
                    try? FileManager.default.removeItem(atPath: path + suffix)
                }
            }
            storeFile.set(nil)
        })

    let file = Shared<String>()
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock], warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 50)
    Benchmark(
        "cold start: first page of 100 from a file of 100,000 launches",
        configuration: configuration,
        closure: { _ in try await firstPageFromFile(try file.get()) },
        setup: { file.set(try await makeColdFile(directory: directory)) },
        teardown: {
            if let path = try? file.get() {
                for suffix in ["", "-wal", "-shm"] {
                    try? FileManager.default.removeItem(atPath: path + suffix)
                }
            }
            file.set(nil)
        })
    Benchmark(
        "cold start, beside it: first page of 100 from memory", configuration: configuration
    ) { _ in try await firstPageInMemory() }
}
