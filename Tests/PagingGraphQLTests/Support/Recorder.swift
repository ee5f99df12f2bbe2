import Synchronization

/// Collects values handed to a `@Sendable` callback, for tests to read.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    /// Records a value.
    func record(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    /// The values recorded so far, in order.
    var recorded: [Value] { values.withLock { $0 } }
}
