import Benchmark
import BenchmarkSupport
import Foundation
import LaunchServer
import Paging
import PagingGraphQL

// Issue 6, target 5: a reader that reads one item per millisecond from a server that takes
// 20 ms per page of 50. With the prefetch distance `PagingConfiguration` suggests for that rate
// and latency, the reader never waits after the first page (stalls: 0); with prefetch off (the
// reader asks for the next page when it runs out, as hand-written "load more" code does) it
// waits once per page. The server is the launch server on loopback with 20 ms of latency.

let pageSize = 50
let pages = 20
let readInterval = Duration.milliseconds(1)
let latency = Duration.milliseconds(20)

struct LaunchNode: Decodable, Identifiable, Sendable {
    let id: String
    let site: String?
}

/// Reads every item of the list at a steady rate; returns the number of times the reader found
/// the next item not loaded yet, after the first page.
func read(server: LaunchServer, prefetch: Bool) async throws -> Int {
    let document = try ConnectionDocument(
        """
        query Launches($first: Int, $after: String) {
          launchConnection(first: $first, after: $after) @connection {
            edges { cursor node { id site } }
            pageInfo { endCursor hasNextPage }
          }
        }
        """)
    let distance = PagingConfiguration.suggestedPrefetchDistance(
        itemsPerSecond: Duration.seconds(1) / readInterval, pageLatency: latency)
    let pager = ConnectionSource(
        client: GraphQLClient(endpoint: server.graphQLURL), document: document, as: LaunchNode.self
    ).makePager(
        configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: prefetch ? distance : 0))
    let clock = ContinuousClock()
    _ = try await pager.loadNext().value
    var stalls = 0
    var deadline = clock.now
    for position in 0..<(pageSize * pages) {
        try await clock.sleep(until: deadline)
        if pager.items.count <= position {
            stalls += 1
            while pager.items.count <= position {
                if try await pager.loadNext().value == .endReached {
                    throw BenchmarkSetupError("the list ended at \(position)")
                }
            }
            deadline = clock.now
        }
        if prefetch { pager.itemAppeared(at: position) }
        // A steady reader: one item a millisecond from when it read the last
        // one, never a burst to catch up after a late wake-up.
        deadline = max(deadline, clock.now) + readInterval
    }
    return stalls
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [
            .wallClock,
            .custom("stalls after the first page", polarity: .prefersSmaller, useScalingFactor: false),
        ],
        warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 3)
    let server = Shared<LaunchServer>()
    let setup: @Sendable () async throws -> Void = {
        var settings = LaunchServerConfiguration()
        settings.dataset = .synthetic(count: pageSize * pages)
        settings.latency = .fixed(latency)
        server.set(try await LaunchServer.start(settings))
    }
    let teardown: @Sendable () async throws -> Void = {
        if let running = try? server.get() { await running.stop() }
        server.set(nil)
    }
    for prefetch in [true, false] {
        Benchmark(
            prefetch
                ? "read 1 item/ms, 20 ms pages: suggested prefetch distance"
                : "read 1 item/ms, 20 ms pages: prefetch off",
            configuration: configuration,
            closure: { benchmark in
                let stalls = try await read(server: try server.get(), prefetch: prefetch)
                benchmark.measurement(
                    .custom(
                        "stalls after the first page", polarity: .prefersSmaller, useScalingFactor: false),
                    stalls)
            }, setup: setup, teardown: teardown)
    }
}
