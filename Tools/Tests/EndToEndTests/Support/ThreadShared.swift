import Foundation

/// A value that threads share, read and changed only under a lock.
///
/// The lock is an `NSLock`, a pthread mutex, which ThreadSanitizer sees. On Linux a `Mutex`
/// waits on a futex that the sanitizer does not see, so it reports the very accesses the
/// `Mutex` orders (RELIABILITY.md shows it); ``HostileServer``'s threads would fail `make race`.
final class ThreadShared<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only ever touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// Creates the shared value.
    /// - Parameter value: its first value.
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock.
    /// - Parameter body: reads or changes the value; it must not take the lock again.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
