import Benchmark
import BenchmarkSupport
import Foundation

// Issue 17: the generator on a schema of 1,000 types and 500 operations, each reaching a chain of
// four nested fragments (CodegenScale, a process of its own): the time of one generation and the
// process's peak resident memory. Apollo's generator hangs or grows to gigabytes on many nested
// fragments (apollo-ios issues 2560 and 3434). That the output compiles is checked by
// scripts/codegen-scale-check.sh (a type-check of the 5 MB it writes takes minutes).

let benchmarks: @Sendable () -> Void = {
    codegen(
        "codegen: 1,000 types, 500 operations, 2,000 nested fragments", executable: "CodegenScale",
        operations: 500, maxDuration: .seconds(120), maxIterations: 3)
    // Issue 37: a schema of GitHub's size and shape, read from its introspection JSON (over 380
    // types, over 1 MB), and 15 operations as a GitHub client writes them: one generation, from
    // reading the JSON to the last file written in memory (CodegenGitHubScale, a process of its own).
    codegen(
        "codegen: GitHub-sized schema from introspection JSON, 15 operations",
        executable: "CodegenGitHubScale",
        operations: 15, maxDuration: .seconds(60), maxIterations: 5)
}

/// A generation in a process of its own: its time and the process's peak resident memory.
func codegen(
    _ name: String, executable: String, operations: Int, maxDuration: Duration, maxIterations: Int
) {
    let seconds = BenchmarkMetric.custom(
        "Generation, own process (ms)", polarity: .prefersSmaller, useScalingFactor: false)
    let memory = BenchmarkMetric.custom(
        "Peak resident, own process (MB)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        name,
        configuration: .init(
            metrics: [seconds, memory], warmupIterations: 0, maxDuration: maxDuration,
            maxIterations: maxIterations)
    ) { benchmark in
        let fields = try runOwnProcess(executable)
        guard fields["operations"] == String(operations), let time = fields["seconds"].flatMap(Double.init),
            let peak = fields["peakResidentBytes"].flatMap(Int.init)
        else {
            throw BenchmarkSetupError("\(executable) did not generate: \(fields)")
        }
        benchmark.measurement(seconds, Int(time * 1000))
        benchmark.measurement(memory, peak / 1_000_000)
    }
}
