import PagingLock

/// Keeps records of a ``GraphQLStore`` from collection, by
/// ``GraphQLStore/gc()`` or past the store's
/// ``GraphQLStore/Configuration/recordLimit``, until ``cancel()`` or until
/// the token is released.
///
/// ```swift
/// let token = store.retain(operation) // what the operation reads stays
/// store.gc()
/// token.cancel()                      // may go at the next collection
/// ```
public final class StoreRetainToken: Sendable {
    private let release: Lock<(@Sendable () -> Void)?>

    init(release: @escaping @Sendable () -> Void) {
        self.release = Lock(release)
    }

    /// Releases what the token retains; calling it again does nothing.
    public func cancel() {
        let release = self.release.withLock { release in
            defer { release = nil }
            return release
        }
        release?()
    }

    deinit {
        cancel()
    }
}
