import Synchronization

/// The registration of an observer of a ``GraphQLStore``: the observer is
/// called until ``cancel()`` or until the token is released.
///
/// ```swift
/// let observation = store.observe { change in
///     pager.refreshRows(showing: change.records)
/// }
/// // later
/// observation.cancel()
/// ```
public final class StoreObservation: Sendable {
    private let cancellation: Mutex<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) {
        cancellation = Mutex(cancel)
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
