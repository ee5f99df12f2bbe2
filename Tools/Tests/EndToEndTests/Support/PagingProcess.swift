import Foundation
import PagingTesting

@testable import PagingCLI

/// What `paging` printed and returned, run in this process.
struct PagingRun: Sendable {
    /// The exit status: 0 done, 1 failed, 2 bad arguments, 130 interrupted.
    var status: Int32
    /// What it wrote to standard output.
    var standardOutput: String
    /// What it wrote to standard error.
    var standardError: String

    /// The cursor `fetch` printed to continue from (after `--resume `), unquoted; `nil` when it
    /// printed none.
    var resumeCursor: String? {
        guard let range = standardError.range(of: "--resume ") else { return nil }
        var cursor = String(standardError[range.upperBound...].prefix { $0 != "\n" })
        if cursor.count >= 2, cursor.hasPrefix("'"), cursor.hasSuffix("'") {
            cursor = String(cursor.dropFirst().dropLast()).replacingOccurrences(of: "'\\''", with: "'")
        }
        return cursor
    }
}

/// Runs the `paging` command line in this process, as the `paging` executable would, with its
/// output captured and its waits recorded instead of made.
enum PagingProcess {
    /// Runs `paging` with arguments.
    /// - Parameters:
    ///   - arguments: the arguments, without the program name.
    ///   - sleeps: records every wait the command asks for (the backoff before a retry); no
    ///     wait is made.
    ///   - output: where its standard output goes, for a test that acts on what it printed
    ///     while it runs.
    /// - Returns: the status and the output.
    static func run(
        _ arguments: [String], sleeps: Recorder<Duration> = Recorder(), output: TextBuffer = TextBuffer()
    ) async -> PagingRun {
        let error = TextBuffer()
        let io = CommandIO(
            standardOutput: output.sink, standardError: error.sink, isOutputTerminal: false,
            isErrorTerminal: false, sleep: { sleeps.record($0) }, now: { .zero },
            onInterrupt: { _ in {} })
        let status = await CommandIO.$current.withValue(io) { await PagingCommand.execute(arguments) }
        return PagingRun(status: status, standardOutput: output.text, standardError: error.text)
    }
}
