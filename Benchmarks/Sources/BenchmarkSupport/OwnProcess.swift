import Foundation

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
