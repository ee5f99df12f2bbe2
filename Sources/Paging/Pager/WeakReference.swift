import PagingLock

/// A weak reference that can be set after it is handed out, from any thread:
/// how ``Pager`` lets its loads reach it (`PagerRows`) before the pager
/// exists.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
    private struct Storage {
        weak var object: Object?
    }

    private let storage = Lock(Storage())

    /// The object, while it lives and once it is set.
    var object: Object? {
        get { storage.withLock { $0.object } }
        set { storage.withLock { $0.object = newValue } }
    }
}
