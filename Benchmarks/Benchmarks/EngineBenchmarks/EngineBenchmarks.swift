import Benchmark
import BenchmarkSupport
import Paging

// Issue 6, targets 1 and 2.
//
// 1. Appending (prepending) a page of 100 to a pager that holds 1,000 items, and to one that
//    holds 1,000,000 (no window): the cost must not depend on what is held (target: at most
//    1.5 times). Each sample is one `loadNext()` (`loadPrevious()`) awaited until the page is
//    applied and the snapshot published; pagers that grew past 110% of their size are rebuilt
//    between samples, outside the measurement.
// 2. Scrolling forward through 1,000,000 items with at most 10 pages held, reporting every item
//    as it appears, against the same scroll through 10,000 items: peak memory must stay within
//    1.2 times.

/// A pager over a very long numbered list, opened in its middle so that it can grow both ways,
/// and filled to a size.
final class HeldPager: Sendable {
    let pager: Pager<Int, NumberedRow>
    let size: Int

    init(size: Int) throws {
        self.size = size
        pager = NumberedSource(pageSize: 100, pageCount: 100_000_000).makePager(
            initialKey: 50_000_000, configuration: try PagingConfiguration(pageSize: 100, prefetchDistance: 0)
        )
    }

    /// Empties the pager and loads it again to its size.
    func fill() async throws {
        pager.reset()
        while pager.items.count < size {
            _ = try await pager.loadNext().value
        }
    }

    /// Refills when it holds more than 110% of its size.
    func trim() async throws {
        if pager.items.count > size + size / 10 { try await fill() }
    }
}

/// Scrolls forward through `count` items of a windowed pager, reporting each as it appears.
func scroll(through count: Int) async throws {
    let pager = NumberedSource(pageSize: 100, pageCount: count / 100).makePager(
        configuration: try PagingConfiguration(pageSize: 100, prefetchDistance: 100, maximumHeld: .pages(10)))
    var next = 0
    while next < count {
        if let index = pager.index(of: next) {
            pager.itemAppeared(at: index)
            next += 1
        } else if try await pager.loadNext().value == .endReached {
            throw BenchmarkSetupError("the list ended at \(next) of \(count)")
        }
    }
    if pager.items.count > 1_000 { throw BenchmarkSetupError("the window held \(pager.items.count) items") }
}

let benchmarks: @Sendable () -> Void = {
    let timing = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal], warmupIterations: 20,
        maxDuration: .seconds(10), maxIterations: 1_000)

    for size in [1_000, 1_000_000] {
        let held = Shared<HeldPager>()
        let label = size == 1_000 ? "1,000" : "1,000,000"
        Benchmark(
            "append a page, \(label) held", configuration: timing,
            closure: { benchmark in
                let holder = try held.get()
                benchmark.startMeasurement()
                _ = try await holder.pager.loadNext().value
                benchmark.stopMeasurement()
                try await holder.trim()
            },
            setup: {
                let holder = try HeldPager(size: size)
                try await holder.fill()
                held.set(holder)
            },
            teardown: { held.set(nil) })

        let prepended = Shared<HeldPager>()
        Benchmark(
            "prepend a page, \(label) held", configuration: timing,
            closure: { benchmark in
                let holder = try prepended.get()
                benchmark.startMeasurement()
                _ = try await holder.pager.loadPrevious().value
                benchmark.stopMeasurement()
                try await holder.trim()
            },
            setup: {
                let holder = try HeldPager(size: size)
                try await holder.fill()
                prepended.set(holder)
            },
            teardown: { prepended.set(nil) })
    }

    let memory = Benchmark.Configuration(
        metrics: [
            .wallClock, .peakMemoryResident, .peakMemoryResidentDelta, .mallocBytesCount, .memoryLeakedBytes,
        ],
        warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 3)
    Benchmark("scroll 10,000 items, 10 pages held", configuration: memory) { _ in
        try await scroll(through: 10_000)
    }
    Benchmark("scroll 1,000,000 items, 10 pages held", configuration: memory) { _ in
        try await scroll(through: 1_000_000)
    }
}
