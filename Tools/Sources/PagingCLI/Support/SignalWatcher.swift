import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns signals into calls of a handler on a dispatch queue, instead of the default action
/// (which for SIGINT would end the process without restoring the terminal or printing the
/// cursor to resume from).
enum SignalWatcher {
    private static let queue = DispatchQueue(label: "paging.signals")

    /// Calls `handler` each time one of the signals arrives, until the returned closure is called;
    /// then the signals get their default action back.
    /// - Parameters:
    ///   - signals: the signals, such as `SIGINT`.
    ///   - handler: what to do; called on a private queue.
    /// - Returns: a closure that stops watching.
    static func watch(_ signals: [Int32], handler: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let sources = signals.map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
        let box = SourceBox(sources)
        return {
            for source in box.take() { source.cancel() }
            for number in signals { signal(number, SIG_DFL) }
        }
    }

    /// Holds the sources until they are cancelled, once.
    // @unchecked Sendable: dispatch sources are thread-safe objects; the array is only read or
    // cleared under `lock`, so `take` hands the sources out once.
    private final class SourceBox: @unchecked Sendable {
        private var sources: [any DispatchSourceSignal]
        private let lock = NSLock()
        init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }
        func take() -> [any DispatchSourceSignal] {
            lock.withLock {
                defer { sources = [] }
                return sources
            }
        }
    }
}
