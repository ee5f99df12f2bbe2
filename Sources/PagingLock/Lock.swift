// Imported publicly so that `withLock` can be inlined into the modules that
// use it (as `Mutex.withLock` is); only this package imports this module.
#if canImport(os)
    public import os
#else
    public import Synchronization
    public import PagingLockHooks
#endif

/// A lock guarding a value, for the modules of this package: the shape of
/// `Synchronization.Mutex` (whose `withLock` it mirrors), on the platforms
/// Observation supports (`Mutex` needs iOS 18 and macOS 15).
///
/// The value and the platform's lock live in one heap object, allocated
/// once, so the lock's memory never moves; copies of a `Lock` share it. On
/// Apple platforms the lock is an `os_unfair_lock`, what `Mutex` uses there;
/// elsewhere (Linux, where `Mutex` has no OS floor) it is a `Mutex`, which
/// tells ThreadSanitizer when it is taken and let go (`PagingLockHooks`):
/// the sanitizer does not see the futex beneath it.
///
/// Not reentrant: calling `withLock` from inside its own closure deadlocks,
/// as with `Mutex`.
package struct Lock<State> {
    @usableFromInline let storage: LockStorage<State>

    /// Creates a lock guarding a value.
    /// - Parameter initial: the value; from now on reached only through the lock.
    /// - Complexity: O(1): one allocation.
    package init(_ initial: State) {
        storage = LockStorage.make(initial)
    }

    /// Runs `body` with exclusive access to the value.
    /// - Complexity: O(1) besides `body`.
    @inlinable @inline(__always)
    package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try storage.withLock(body)
    }
}

// The value is reached only under the lock, so sharing the lock between
// tasks is safe when the value may cross tasks.
extension Lock: @unchecked Sendable where State: Sendable {}

#if canImport(os)
    /// The heap object of a ``Lock`` on Apple platforms: the value in the
    /// header, an `os_unfair_lock` (what `Mutex` uses there) as the one element.
    @usableFromInline
    final class LockStorage<State>: ManagedBuffer<State, os_unfair_lock> {
        static func make(_ initial: State) -> LockStorage {
            let buffer = create(minimumCapacity: 1) { _ in initial }
            let storage = unsafeDowncast(buffer, to: LockStorage.self)
            storage.withUnsafeMutablePointerToElements { lock in lock.initialize(to: os_unfair_lock()) }
            return storage
        }

        @inlinable @inline(__always)
        func withLock<Result, Failure: Error>(
            _ body: (inout State) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            try withUnsafeMutablePointers { (state, lock) throws(Failure) -> Result in
                os_unfair_lock_lock(lock)
                defer { os_unfair_lock_unlock(lock) }
                return try body(&state.pointee)
            }
        }

        deinit {
            // The header (the value) is destroyed by ManagedBuffer itself.
            _ = withUnsafeMutablePointerToElements { lock in lock.deinitialize(count: 1) }
        }
    }
#else
    /// The heap object of a ``Lock`` elsewhere: `Synchronization.Mutex`
    /// itself (a futex on Linux), which needs no newer OS there.
    @usableFromInline
    final class LockStorage<State> {
        @usableFromInline let mutex: Mutex<State>

        private init(_ initial: State) {
            // `Mutex` takes its value as `sending`; a `Lock` is `Sendable`
            // only when its value is, which is the check that stands here.
            let value = Unchecked(initial)
            mutex = Mutex(value.value)
        }

        static func make(_ initial: State) -> LockStorage {
            LockStorage(initial)
        }

        @inlinable @inline(__always)
        func withLock<Result, Failure: Error>(
            _ body: (inout State) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            // ThreadSanitizer does not see the futex: it is told that the
            // lock (named by this object's address) is held, and let go.
            let address = Unmanaged.passUnretained(self).toOpaque()
            return try mutex.withLock { (state: inout State) throws(Failure) -> Unchecked<Result> in
                paging_lock_acquired(address)
                defer { paging_lock_releasing(address) }
                return Unchecked(try body(&state))
            }.value
        }
    }

    /// Carries a value through `Mutex`'s `sending` parameters and results.
    // Unchecked: it only hands a value across the lock's own boundary, within
    // one call on one task (the initial state into the mutex, a result out of
    // `withLock`); no second task can see it in between. `Lock` itself is
    // `Sendable` only when its state is, which is the check that matters.
    @usableFromInline
    struct Unchecked<Value>: @unchecked Sendable {
        @usableFromInline var value: Value

        @inlinable init(_ value: Value) {
            self.value = value
        }
    }
#endif
