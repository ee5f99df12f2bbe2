import Benchmark
import BenchmarkSupport
import Foundation
import GraphQLBenchmarkSupport
import Paging
import PagingGraphQLClient

// Issue 8: the workload Apollo iOS's GraphQLQueryPager was measured on (apollo-ios 2.4.0 with
// apollo-ios-pagination 1.0.0): 1,000 pages of 100 items loaded one after another through the
// real client (JSON parsing, the normalized store, the list following it) over a transport that
// answers at once from precomputed page bodies (`edges { cursor node { __typename id name } }`
// and `pageInfo`), and the time from `loadNext()` until the `@Observable` list shows the page.
//
// Each "pages a-b" benchmark loads pages 1 … a-1 in its setup, outside the measurement, and then
// measures one page per sample, ten samples: their median is the median time of pages a … b.
// "all 1,000 pages" loads the whole list from an empty store per sample, for the total time and
// the peak memory.

let pageCount = 1_000
let pageSize = 100

/// The page bodies, made once.
let pageBodies: [Data] = (0..<pageCount).map {
    launchPageBody(page: $0, pageSize: pageSize, pageCount: pageCount)
}

/// Builds the page bodies (a lazy global) in a benchmark's setup, not in its first sample.
func makePageBodies() { _ = pageBodies.count }

/// A fresh list over a fresh store, answered from the precomputed bodies.
@MainActor
func makeList() throws -> PagedList<String, Launch> {
    try makeLaunchList(
        transport: LaunchPageTransport(pageSize: pageSize, pageCount: pageCount) { pageBodies[$0] },
        configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0))
}

/// Loads one page and checks that the list shows it.
@MainActor
func loadPage(_ list: PagedList<String, Launch>) async throws {
    try await loadLaunchPage(list, pageSize: pageSize)
}

/// The list of a benchmark, made in its setup.
@MainActor
final class ListHolder {
    var list: PagedList<String, Launch>?

    nonisolated init() {}

    /// Loads the list's next page.
    func step() async throws {
        guard let list else { throw BenchmarkSetupError("setup made no list") }
        try await loadPage(list)
    }
}

let benchmarks: @Sendable () -> Void = {
    let perPage = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 0, maxDuration: .seconds(60),
        maxIterations: 10)
    for first in [1, 91, 491, 991] {
        let holder = ListHolder()
        Benchmark(
            "GraphQL list, pages \(first)-\(first + 9)", configuration: perPage,
            closure: { _ in try await holder.step() },
            setup: {
                makePageBodies()
                try await MainActor.run { holder.list = try makeList() }
                for _ in 1..<first { try await holder.step() }
            },
            teardown: { await MainActor.run { holder.list = nil } })
    }

    Benchmark(
        "GraphQL list, all 1,000 pages",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], warmupIterations: 0,
            maxDuration: .seconds(60), maxIterations: 3, setup: { makePageBodies() })
    ) { _ in
        let list = try await makeList()
        for _ in 0..<pageCount { try await loadPage(list) }
    }

    // The peak memory, from one sample in a process of its own: a second sample in the same
    // process starts from what the allocator kept of the first (which it does not hand back to the
    // system), and its peak is the two together, not the list's.
    Benchmark(
        "GraphQL list, all 1,000 pages, one sample for memory",
        configuration: .init(
            metrics: [.peakMemoryResident], warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 1,
            setup: { makePageBodies() })
    ) { _ in
        let list = try await makeList()
        for _ in 0..<pageCount { try await loadPage(list) }
    }

    // The same load in a process of its own, without the harness (GraphQLListMemory): its peak
    // resident memory is the library's, not the harness's malloc interposer, which puts a 16-byte
    // header on every allocation to count them. Each page's body is made as the list asks for it,
    // as a server sends it; beside it, for information, the same with the 1,000 bodies made first
    // and held, as the timed samples above hold them.
    let ownProcess = BenchmarkMetric.custom(
        "Peak resident, own process (MB)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        "GraphQL list, all 1,000 pages, peak resident in a process of its own",
        configuration: .init(
            metrics: [ownProcess], warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 1)
    ) { benchmark in
        benchmark.measurement(ownProcess, try peakResidentOfOwnProcess() / 1_000_000)
    }
    Benchmark(
        "GraphQL list with its page bodies held, all 1,000 pages, peak resident in a process of its own",
        configuration: .init(
            metrics: [ownProcess], warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 1)
    ) { benchmark in
        benchmark.measurement(
            ownProcess, try peakResidentOfOwnProcess(arguments: ["--held-bodies"]) / 1_000_000)
    }
}

/// Runs GraphQLListMemory, built beside this benchmark, and returns the peak resident bytes it
/// reports.
/// - Parameter arguments: its arguments: `--held-bodies` to make and hold the bodies first.
func peakResidentOfOwnProcess(arguments: [String] = []) throws -> Int {
    let fields = try runOwnProcess("GraphQLListMemory", arguments: arguments)
    guard fields["items"] == "100000", let bytes = fields["peakResidentBytes"].flatMap(Int.init) else {
        throw BenchmarkSetupError("GraphQLListMemory did not load the list: \(fields)")
    }
    return bytes
}
