import PagingLock

/// Collects values handed to it from any task, in order, for a test to read
/// back: what a fake backend was asked, what a callback received.
///
/// ```swift
/// let asked = Recorder<Int>()
/// let source = OffsetSource<Launch> { offset, limit in
///     asked.record(offset)
///     return try await api.launches(offset: offset, limit: limit)
/// }
/// // ... load two pages ...
/// #expect(asked.recorded == [0, 20])
/// ```
public final class Recorder<Value: Sendable>: Sendable {
    private let values = Lock<[Value]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Appends a value.
    /// - Complexity: O(1) amortized.
    public func record(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    /// Every value recorded so far, in order.
    /// - Complexity: O(1) (the array is shared until changed).
    public var recorded: [Value] { values.withLock { $0 } }

    /// The number of values recorded.
    /// - Complexity: O(1).
    public var count: Int { values.withLock { $0.count } }

    /// The last value recorded.
    /// - Complexity: O(1).
    public var last: Value? { values.withLock { $0.last } }
}

/// A count that closures running on any task can bump: how many times a
/// fetch ran, say.
public final class Counter: Sendable {
    private let value = Lock(0)

    /// Creates a counter at zero.
    public init() {}

    /// Adds `amount`.
    /// - Complexity: O(1).
    public func increment(by amount: Int = 1) {
        value.withLock { $0 += amount }
    }

    /// The count so far.
    /// - Complexity: O(1).
    public var count: Int { value.withLock { $0 } }
}

extension Recorder where Value == Duration {
    /// A stand-in for `Task.sleep(for:)` that records the duration asked for
    /// and returns at once, for code that takes its sleep as a closure (a
    /// retry's backoff, a server's latency): the test reads the waits back
    /// from ``recorded`` instead of waiting them.
    public var sleep: @Sendable (Duration) async throws -> Void {
        { duration in self.record(duration) }
    }
}
