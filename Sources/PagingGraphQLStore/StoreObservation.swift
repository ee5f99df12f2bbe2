import PagingLock

/// The registration of an observer of a ``GraphQLStore``: the observer is
/// called until ``cancel()`` or until the token is released.
///
/// ```swift
/// let observation = store.observe { change in
///     if change.records.contains("Launch:109") {
///         print("launch 109 changed:", change.fieldsByRecord["Launch:109"] ?? [])
///     }
/// }
/// // later
/// observation.cancel()
/// ```
public final class StoreObservation: Sendable {
    private let cancellation: Lock<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) {
        cancellation = Lock(cancel)
    }

    /// Stops the observer; calling it again does nothing.
    public func cancel() {
        let cancel = cancellation.withLock { cancel in
            defer { cancel = nil }
            return cancel
        }
        cancel?()
    }

    deinit {
        cancel()
    }
}
