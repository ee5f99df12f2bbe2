import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs an executable built beside the benchmark (a workload in a process of its own, without
/// the harness's malloc interposer) and reads the `name=value` fields it prints.
/// - Parameters:
///   - name: the executable's product name; `scripts/benchmarks.sh` builds it.
///   - arguments: its arguments.
/// - Returns: the fields of its output.
/// - Throws: ``BenchmarkSetupError`` when it is not built or fails.
public func runOwnProcess(_ name: String, arguments: [String] = []) throws -> [String: String] {
    guard
        let executable = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent(name),
        FileManager.default.isExecutableFile(atPath: executable.path)
    else {
        throw BenchmarkSetupError(
            "\(name) is not built beside the benchmark: run scripts/benchmarks.sh, which builds it, "
                + "or `swift build -c release --product \(name)` in Benchmarks/")
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0 else {
        throw BenchmarkSetupError("\(name) failed (status \(process.terminationStatus)): \(text)")
    }
    var fields: [String: String] = [:]
    for field in text.split(whereSeparator: \.isWhitespace) {
        guard let equals = field.firstIndex(of: "=") else { continue }
        fields[String(field[..<equals])] = String(field[field.index(after: equals)...])
    }
    return fields
}

/// The peak resident memory of this process so far, in bytes (`getrusage`'s `ru_maxrss`): what
/// a workload in a process of its own prints for its benchmark.
public func peakResidentBytes() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024  // kilobytes on Linux
    #else
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss  // bytes on Darwin
    #endif
}

/// Writes files into the directory named after `--write` on the command line, if it is there:
/// the generated Swift a compile check reads.
/// - Parameter files: each file's name and text.
/// - Throws: the error of creating the directory or writing a file.
public func writeIfAsked(_ files: [(name: String, contents: String)]) throws {
    let arguments = CommandLine.arguments
    guard let flag = arguments.firstIndex(of: "--write"), flag + 1 < arguments.count else { return }
    let directory = URL(fileURLWithPath: arguments[flag + 1])
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for file in files {
        try file.contents.write(
            to: directory.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
    }
}

/// A duration in seconds, as the workloads print it.
public func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
