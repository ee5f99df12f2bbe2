import Benchmark
import BenchmarkSupport
import Foundation

// Issue 17: the generator on a schema of 1,000 types and 500 operations, each reaching a chain of
// four nested fragments (CodegenScale, a process of its own): the time of one generation and the
// process's peak resident memory. Apollo's generator hangs or grows to gigabytes on many nested
// fragments (apollo-ios issues 2560 and 3434). That the output compiles is checked by
// scripts/codegen-scale-check.sh (a type-check of the 5 MB it writes takes minutes).

let benchmarks: @Sendable () -> Void = {
    let seconds = BenchmarkMetric.custom(
        "Generation, own process (ms)", polarity: .prefersSmaller, useScalingFactor: false)
    let memory = BenchmarkMetric.custom(
        "Peak resident, own process (MB)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        "codegen: 1,000 types, 500 operations, 2,000 nested fragments",
        configuration: .init(
            metrics: [seconds, memory], warmupIterations: 0, maxDuration: .seconds(120), maxIterations: 3)
    ) { benchmark in
        let fields = try runOwnProcess("CodegenScale")
        guard fields["operations"] == "500", let time = fields["seconds"].flatMap(Double.init),
            let peak = fields["peakResidentBytes"].flatMap(Int.init)
        else {
            throw BenchmarkSetupError("CodegenScale did not generate: \(fields)")
        }
        benchmark.measurement(seconds, Int(time * 1000))
        benchmark.measurement(memory, peak / 1_000_000)
    }
    // Issue 37: a schema of GitHub's size and shape, read from its introspection JSON (over 380
    // types, over 1 MB), and 15 operations as a GitHub client writes them: one generation, from
    // reading the JSON to the last file written in memory (CodegenGitHubScale, a process of its own).
    Benchmark(
        "codegen: GitHub-sized schema from introspection JSON, 15 operations",
        configuration: .init(
            metrics: [seconds, memory], warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 5)
    ) { benchmark in
        let fields = try runOwnProcess("CodegenGitHubScale")
        guard fields["operations"] == "15", let time = fields["seconds"].flatMap(Double.init),
            let peak = fields["peakResidentBytes"].flatMap(Int.init)
        else {
            throw BenchmarkSetupError("CodegenGitHubScale did not generate: \(fields)")
        }
        benchmark.measurement(seconds, Int(time * 1000))
        benchmark.measurement(memory, peak / 1_000_000)
    }
}
