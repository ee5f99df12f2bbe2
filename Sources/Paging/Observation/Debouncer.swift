/// Runs an action with a value once the value has stopped changing for an
/// interval: a search box's text, sent on every key, switches the list once
/// the user pauses.
///
/// ```swift
/// let typing = Debouncer(for: .milliseconds(300)) { text in search.switchTo(text) }
/// typing.send("f")      // nothing yet
/// typing.send("fa")     // the wait starts again
/// // 300 ms later: search.switchTo("fa"), once
/// ```
///
/// Ten values sent 20 ms apart with an interval of 300 ms run the action
/// once, with the last. The clock is a parameter, so that a test drives the
/// time (`PagingTesting`'s `ManualClock`).
@MainActor
public final class Debouncer<Value: Sendable, C: Clock> where C.Duration == Duration {
    private let interval: Duration
    private let clock: C
    private let action: @MainActor (Value) -> Void
    /// The wait under way, and the value it would run the action with.
    private var pending: (task: Task<Void, Never>, value: Value)?
    /// Counts the waits, so that a wait that ends after another started does nothing.
    private var generation = 0

    /// Creates a debouncer.
    /// - Parameters:
    ///   - interval: how long a value must stay before the action runs.
    ///   - clock: the clock the interval is measured on.
    ///   - action: what to do with a value that stayed.
    public init(for interval: Duration, clock: C, action: @escaping @MainActor (Value) -> Void) {
        self.interval = interval
        self.clock = clock
        self.action = action
    }

    /// Whether a value is waiting for the interval to pass.
    public var isWaiting: Bool { pending != nil }

    /// Sends a value: the action runs with it once the interval passes with
    /// no other value sent.
    /// - Complexity: O(1).
    public func send(_ value: Value) {
        pending?.task.cancel()
        generation += 1
        let current = generation
        let deadline = clock.now.advanced(by: interval)
        let task = Task { @MainActor [clock, weak self] in
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            self?.fire(current)
        }
        pending = (task, value)
    }

    /// Runs the action at once with the value waiting, if any.
    public func flush() {
        guard let pending else { return }
        pending.task.cancel()
        self.pending = nil
        action(pending.value)
    }

    /// Forgets the value waiting, if any.
    public func cancel() {
        pending?.task.cancel()
        pending = nil
    }

    private func fire(_ waited: Int) {
        guard waited == generation, let pending else { return }
        self.pending = nil
        action(pending.value)
    }
}

extension Debouncer where C == ContinuousClock {
    /// Creates a debouncer on the continuous clock.
    /// - Parameters:
    ///   - interval: how long a value must stay before the action runs.
    ///   - action: what to do with a value that stayed.
    public convenience init(for interval: Duration, action: @escaping @MainActor (Value) -> Void) {
        self.init(for: interval, clock: ContinuousClock(), action: action)
    }
}
