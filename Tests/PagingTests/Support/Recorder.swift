import Synchronization

/// A log that fakes and transforms append to from any task, so a test can
/// read back what a backend was asked, in order.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    init() {}

    /// Appends a value.
    func record(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    /// Every value recorded, in order.
    var all: [Value] { values.withLock { $0 } }

    /// The number of values recorded.
    var count: Int { values.withLock { $0.count } }

    /// The last value recorded.
    var last: Value? { values.withLock { $0.last } }
}

/// A counter that closures running on any task can bump.
final class Counter: Sendable {
    private let value = Mutex(0)

    init() {}

    /// Adds `amount`.
    func increment(by amount: Int = 1) {
        value.withLock { $0 += amount }
    }

    /// The count so far.
    var count: Int { value.withLock { $0 } }
}
