import Foundation
import ToolsLock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes, whether its streams are terminals, and how it waits and tells the
/// time: the process's by default, a test's own when a test sets ``current``.
///
/// Commands read ``current`` instead of touching the process's streams, the clock or the
/// signals, so that tests drive the real commands in-process and read what they printed.
struct CommandIO: Sendable {
    /// Writes text to standard output.
    var standardOutput: TextSink
    /// Writes text to standard error.
    var standardError: TextSink
    /// Whether standard output is a terminal (the demo and browse then draw a screen).
    var isOutputTerminal: Bool
    /// Whether standard error is a terminal (fetch then draws a progress bar).
    var isErrorTerminal: Bool
    /// How a command waits (the backoff between retries).
    var sleep: @Sendable (Duration) async throws -> Void
    /// The time since an arbitrary, fixed origin (progress rates and time left).
    var now: @Sendable () -> Duration
    /// Calls the handler on Ctrl-C (SIGINT) and SIGTERM until the returned closure is called.
    var onInterrupt: @Sendable (@escaping @Sendable () -> Void) -> (@Sendable () -> Void)
    /// The date and time (a rate limit's reset, given as a time).
    var date: @Sendable () -> Date = { Date() }

    /// The IO the commands use: the process's unless a test bound another.
    @TaskLocal static var current = CommandIO.process

    /// The process's streams, clock and signals.
    static var process: CommandIO {
        let origin = ContinuousClock.now
        return CommandIO(
            standardOutput: .fileDescriptor(STDOUT_FILENO),
            standardError: .fileDescriptor(STDERR_FILENO),
            isOutputTerminal: isatty(STDOUT_FILENO) == 1,
            isErrorTerminal: isatty(STDERR_FILENO) == 1,
            sleep: { try await Task.sleep(for: $0) },
            now: { ContinuousClock.now - origin },
            onInterrupt: { handler in SignalWatcher.watch([SIGINT, SIGTERM], handler: handler) }
        )
    }
}

/// A destination for text: a file descriptor, or a buffer in tests.
struct TextSink: Sendable {
    /// Writes the text as it is (no newline is added).
    let write: @Sendable (String) -> Void

    /// Writes the text followed by a newline.
    func line(_ text: String) { write(text + "\n") }

    /// A sink that writes every byte to a file descriptor, retrying short writes.
    static func fileDescriptor(_ descriptor: Int32) -> TextSink {
        TextSink { text in
            var bytes = Array(text.utf8)
            FileDescriptorWriter.writeAll(&bytes, to: descriptor)
        }
    }
}

/// Writes whole buffers to file descriptors.
enum FileDescriptorWriter {
    /// Writes every byte, retrying after a short write or an interrupted call; gives up on any
    /// other error (a closed pipe: nobody reads any more).
    static func writeAll(_ bytes: inout [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}

/// Collects what is written, for tests.
final class TextBuffer: Sendable {
    private let storage = Locked("")

    /// Creates an empty buffer.
    init() {}

    /// A sink that appends to this buffer.
    var sink: TextSink { TextSink { text in self.storage.withLock { $0 += text } } }

    /// Everything written so far.
    var text: String { storage.withLock { $0 } }
}
