// Issue 19: `paging fetch` streams. This executable starts the launch server with N synthetic
// launches, runs `paging fetch` over it in a child process of its own (itself, with `--child`),
// counts the JSON Lines the child writes to a pipe as they come, and reports the child's peak
// resident memory (which the child reads at its end): the export's alone, without the server's
// data or the benchmark harness.
//
//   ExportMemory [--launches N] [--page-size P]
//   → items=1000000 peakResidentBytes=… anonymousResidentBytesAtEnd=… seconds=…
//
// Most of the peak is code: the pages of the Swift runtime, Foundation and the binary
// that were touched. The anonymous figure is the export's own memory (heap and stacks) as it ends.
import ArgumentParser
import Foundation
import LaunchServer
import PagingCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The query of the export: what the export benchmarks select, one line per launch.
let exportQuery = """
    query Export($first: Int, $after: String) {
      launchConnection(first: $first, after: $after) {
        edges { cursor node { id site mission { name } } }
        pageInfo { endCursor hasNextPage }
      }
    }
    """

/// A failure that ends the run with a message and status 1.
struct RunError: Error, CustomStringConvertible {
    let description: String
}

/// The value after `name` in the arguments, if any.
func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// Runs `paging fetch` in this process, JSON Lines to standard output.
func runChild(endpoint: String, queryFile: String, pageSize: String) async throws {
    let parsed = try PagingCommand.parseAsRoot([
        "fetch", "--endpoint", endpoint, "--query", queryFile, "--page-size", pageSize, "--quiet",
    ])
    guard var command = parsed as? any AsyncParsableCommand else {
        throw RunError(description: "fetch is not an async command")
    }
    try await command.run()
    let anonymous = (try? statusField("RssAnon:")).map { " anonymous=\($0)" } ?? ""
    FileHandle.standardError.write(Data("peak=\(try peakResident())\(anonymous)\n".utf8))
}

/// A field of `/proc/self/status` in bytes (Linux only).
func statusField(_ name: String) throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    for line in status.split(separator: "\n") where line.hasPrefix(name) {
        let fields = line.split(whereSeparator: \.isWhitespace)
        if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
    }
    throw RunError(description: "no \(name) in /proc/self/status")
}

/// This process's peak resident bytes since it started its program.
///
/// On Linux, the kernel's `VmHWM`: `getrusage`'s figure carries over the high-water mark of the
/// process before `exec`, and a child of a process holding a million launches starts as a copy
/// of it (the parent's resident pages, shared, counted until `exec`).
func peakResident() throws -> Int {
    #if canImport(Glibc)
        return try statusField("VmHWM:")
    #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on Darwin
    #endif
}

/// Starts the server, runs the child over it, and prints what it measured.
func runParent(launches: Int, pageSize: String) async throws {
    var settings = LaunchServerConfiguration()
    settings.dataset = .synthetic(count: launches)
    let server = try await LaunchServer.start(settings)
    let queryFile = FileManager.default.temporaryDirectory.appending(
        path: "paging-export-memory-\(UUID()).graphql")
    try Data(exportQuery.utf8).write(to: queryFile)
    defer { try? FileManager.default.removeItem(at: queryFile) }

    guard let executable = Bundle.main.executableURL else {
        throw RunError(description: "no executable path")
    }
    let child = Process()
    child.executableURL = executable
    child.arguments = [
        "--child", "--endpoint", server.graphQLURL.absoluteString, "--query", queryFile.path, "--page-size",
        pageSize,
    ]
    let output = Pipe()
    child.standardOutput = output
    let errors = Pipe()
    child.standardError = errors
    let started = ContinuousClock.now
    try child.run()
    // Count the lines as they come, holding one read at a time.
    var lines = 0
    let reader = output.fileHandleForReading
    while let chunk = try reader.read(upToCount: 1 << 16), !chunk.isEmpty {
        lines += chunk.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    }
    child.waitUntilExit()
    let elapsed = ContinuousClock.now - started
    await server.stop()
    guard child.terminationStatus == 0 else {
        throw RunError(description: "paging fetch exited with status \(child.terminationStatus)")
    }
    let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard let field = report.split(whereSeparator: \.isWhitespace).first(where: { $0.hasPrefix("peak=") }),
        let peak = Int(field.dropFirst("peak=".count))
    else { throw RunError(description: "the child did not report its peak: \(report)") }
    let anonymous =
        report.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("anonymous=") }
        .map { " anonymousResidentBytesAtEnd=\($0.dropFirst("anonymous=".count))" } ?? ""
    print(
        "items=\(lines) peakResidentBytes=\(peak)\(anonymous) seconds=\(String(format: "%.1f", elapsed / .seconds(1)))"
    )
}

do {
    if CommandLine.arguments.contains("--serve") {
        // For a look by hand: the same server, until killed.
        var settings = LaunchServerConfiguration()
        settings.dataset = .synthetic(count: option("--launches").flatMap(Int.init) ?? 1_000_000)
        let server = try await LaunchServer.start(settings)
        FileHandle.standardOutput.write(Data("\(server.graphQLURL.absoluteString)\n".utf8))
        while true { try await Task.sleep(for: .seconds(3600)) }
    } else if CommandLine.arguments.contains("--child") {
        guard let endpoint = option("--endpoint"), let query = option("--query") else {
            throw RunError(description: "--child needs --endpoint and --query")
        }
        try await runChild(endpoint: endpoint, queryFile: query, pageSize: option("--page-size") ?? "100")
    } else {
        let launches = option("--launches").flatMap(Int.init) ?? 1_000_000
        try await runParent(launches: launches, pageSize: option("--page-size") ?? "100")
    }
} catch {
    FileHandle.standardError.write(Data("ExportMemory: \(error)\n".utf8))
    exit(1)
}
