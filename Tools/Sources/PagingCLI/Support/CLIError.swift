/// A failure of a command: what went wrong, what to do about it, and the exit code.
///
/// Exit codes: 1 when the work failed (a server that cannot be reached, an answer that cannot be
/// used), 2 when the command line is wrong (an option, a file, a document that cannot be paged).
struct CLIError: Error, Sendable, CustomStringConvertible {
    /// The process exit code for this failure.
    let exitCode: Int32
    /// The message printed on standard error: what went wrong and what to do.
    let message: String

    /// A failure of the work itself (exit code 1).
    static func failed(_ message: String) -> CLIError { CLIError(exitCode: 1, message: message) }

    /// A command line that cannot be used (exit code 2).
    static func usage(_ message: String) -> CLIError { CLIError(exitCode: 2, message: message) }

    var description: String { message }
}

/// The exit codes of `paging`.
enum ExitStatus {
    /// The work is done.
    static let success: Int32 = 0
    /// The work failed.
    static let failure: Int32 = 1
    /// The command line is wrong.
    static let usage: Int32 = 2
    /// Interrupted with Ctrl-C (128 + SIGINT, as shells report it).
    static let interrupted: Int32 = 130
}
