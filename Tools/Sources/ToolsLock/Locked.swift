import Foundation

/// A value the tools share between threads (URLSession's, NIO's, a signal handler's task, a
/// test server's), read and changed only under a lock.
///
/// It has the shape of `Synchronization.Mutex`, but the lock is an `NSLock`, a pthread mutex
/// that ThreadSanitizer sees. On Linux a `Mutex` waits on a futex the sanitizer does not see,
/// so under `make race` it reports the very accesses the lock orders (RELIABILITY.md shows it
/// in some thirty lines). Nearly every lock of the tools package, sources and tests, is this
/// one; the few others are `NSLock`s too, and none is a `Mutex`.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only ever touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// Creates the shared value.
    /// - Parameter value: its first value; from now on reached only through the lock.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    /// - Parameter body: reads or changes the value; it must not call `withLock` on the same
    ///   value again (the lock is not reentrant).
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    /// - Complexity: O(1) besides `body`.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
