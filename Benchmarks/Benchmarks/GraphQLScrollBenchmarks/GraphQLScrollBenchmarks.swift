import Benchmark
import BenchmarkSupport
import Foundation
import GraphQLBenchmarkSupport
import Paging
import PagingGraphQLClient

// Issue 15, a long session: a list of launches scrolled forward page after page through a window
// of 3 pages of 100, over a client whose store keeps its default record limit, for 100 pages and
// for 10,000. The store collects what the window dropped, so the peak memory of the long scroll
// must stay within 1.2× that of the short one. The pages are made as they are asked for (10,000
// bodies held would be the benchmark's memory, not the library's).

let pageSize = 100

/// Scrolls a fresh windowed list through `pages` pages.
@MainActor
func scroll(pages: Int) async throws {
    let list = try makeLaunchList(
        transport: LaunchPageTransport(pageSize: pageSize, pageCount: pages) {
            launchPageBody(page: $0, pageSize: pageSize, pageCount: pages)
        },
        configuration: try PagingConfiguration(
            pageSize: pageSize, prefetchDistance: 0, maximumHeld: .pages(3)))
    for _ in 0..<pages { try await loadLaunchPage(list, pageSize: pageSize) }
    guard list.items.count <= 3 * pageSize, list.items.last?.id == String(pages * pageSize - 1) else {
        throw BenchmarkSetupError(
            "the window ended at \(list.items.last?.id ?? "nothing") with \(list.items.count)")
    }
}

let benchmarks: @Sendable () -> Void = {
    // One sample each: a second sample in the same process starts from what the allocator kept of
    // the first, and its peak is the two together.
    let memory = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident, .peakMemoryResidentDelta], warmupIterations: 0,
        maxDuration: .seconds(60), maxIterations: 1)
    Benchmark("GraphQL scroll, 100 pages through 3 held", configuration: memory) { _ in
        try await scroll(pages: 100)
    }
    Benchmark("GraphQL scroll, 10,000 pages through 3 held", configuration: memory) { _ in
        try await scroll(pages: 10_000)
    }
}
