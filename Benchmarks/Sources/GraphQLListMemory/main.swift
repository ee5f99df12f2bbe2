import Foundation
import GraphQLBenchmarkSupport
import Paging
import PagingGraphQLClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The workload of "GraphQL list, all 1,000 pages" in a process of its own, without the harness:
// the benchmark process carries the harness's malloc interposer (a 16-byte header on every
// allocation, to count them) and its own state, which are not the library's memory. Prints the
// process's peak resident bytes (`getrusage`), then exits; GraphQLListBenchmarks runs it and
// reports the figure.
//
// Each page's body is made when the list asks for it, as a server would send it, and dropped once
// read: the 1,000 bodies (11 MB) are the server's, not the list's. `--held-bodies` makes them all
// first and keeps them, as the timed benchmarks do (so that making them is not timed), for the
// figure with them.

let pageCount = 1_000
let pageSize = 100
let holdsBodies = CommandLine.arguments.dropFirst().contains("--held-bodies")
let bodies =
    holdsBodies
    ? (0..<pageCount).map { launchPageBody(page: $0, pageSize: pageSize, pageCount: pageCount) } : []

@MainActor
func run() async throws -> Int {
    let list = try makeLaunchList(
        transport: LaunchPageTransport(pageSize: pageSize, pageCount: pageCount) { page in
            holdsBodies ? bodies[page] : launchPageBody(page: page, pageSize: pageSize, pageCount: pageCount)
        },
        configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0))
    for _ in 0..<pageCount { try await loadLaunchPage(list, pageSize: pageSize) }
    return list.items.count
}

do {
    let count = try await run()
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peak = usage.ru_maxrss * 1024  // kilobytes on Linux
    #else
        getrusage(RUSAGE_SELF, &usage)
        let peak = usage.ru_maxrss  // bytes on macOS
    #endif
    print("items=\(count) peakResidentBytes=\(peak)")
} catch {
    FileHandle.standardError.write(Data("the list did not load: \(error)\n".utf8))
    exit(1)
}
