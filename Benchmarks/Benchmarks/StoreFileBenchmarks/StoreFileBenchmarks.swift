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

/// Loads the 1,000 pages; with `file`, over a store kept in a new file in `directory`. Returns the
/// time and, with a file, its bytes on disk.
@MainActor
func loadAllPages(file: Bool, directory: String) async throws -> (elapsed: Duration, bytes: Int) {
    let path = directory + "/store-\(UUID().uuidString).sqlite"
    defer {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
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
