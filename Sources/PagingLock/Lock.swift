// Imported publicly so that `withLock` can be inlined into the modules that
// use it (as `Mutex.withLock` is); only this package imports this module.
#if canImport(os)
    public import os
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#elseif canImport(Bionic)
    public import Bionic
#endif

/// A lock guarding a value, for the modules of this package: the shape of
/// `Synchronization.Mutex` (whose `withLock` it mirrors), on the platforms
/// Observation supports (`Mutex` needs iOS 18 and macOS 15).
///
/// The value and the platform's lock (`os_unfair_lock` on Apple platforms, a
/// `pthread_mutex_t` elsewhere) live in one heap object, allocated once, so
/// the lock's memory never moves. Copies of a `Lock` share that object.
///
/// Not reentrant: calling `withLock` from inside its own closure deadlocks,
/// as with `Mutex`.
package struct Lock<State> {
    private let storage: LockStorage<State>

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

/// The heap object of a ``Lock``: the value in the header, the platform lock
/// as the one element.
@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, LockStorage.Primitive> {
    #if canImport(os)
        @usableFromInline typealias Primitive = os_unfair_lock
    #else
        @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    static func make(_ initial: State) -> LockStorage {
        let buffer = create(minimumCapacity: 1) { _ in initial }
        let storage = unsafeDowncast(buffer, to: LockStorage.self)
        storage.withUnsafeMutablePointerToElements { lock in
            #if canImport(os)
                lock.initialize(to: os_unfair_lock())
            #else
                lock.initialize(to: pthread_mutex_t())
                pthread_mutex_init(lock, nil)
            #endif
        }
        return storage
    }

    @inlinable @inline(__always)
    func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withUnsafeMutablePointers { (state, lock) throws(Failure) -> Result in
            #if canImport(os)
                os_unfair_lock_lock(lock)
                defer { os_unfair_lock_unlock(lock) }
            #else
                pthread_mutex_lock(lock)
                defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&state.pointee)
        }
    }

    deinit {
        withUnsafeMutablePointers { state, lock in
            #if !canImport(os)
                pthread_mutex_destroy(lock)
            #endif
            lock.deinitialize(count: 1)
            _ = state  // the header (the value) is destroyed by ManagedBuffer itself
        }
    }
}
