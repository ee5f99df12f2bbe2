import PagingLock

/// A clock whose time moves only when a test says so: code that waits on it
/// (`Paging`'s `Debouncer` interval, a retry's backoff) resumes exactly when the
/// test advances past its deadline, whatever the machine's load.
///
/// ```swift
/// let clock = ManualClock()
/// let typing = Debouncer(for: .milliseconds(300), clock: clock) { list.switchTo($0) }
/// typing.send("fa")
/// await clock.waitForSleepers(1)      // the debouncer is waiting
/// clock.advance(by: .milliseconds(300))
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point on the clock: the time advanced since it started.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock started.
        public var offset: Duration

        /// The instant a duration later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to another.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether this instant comes first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        /// Sleeps cancelled before they were registered.
        var cancelled: Set<Int> = []
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Lock(State())

    /// A clock at its start.
    public init() {}

    /// The time now.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step: none, the test sets the steps.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock is advanced to the deadline or past it;
    /// returns at once for a deadline already passed.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                enum Start { case sleep, now, cancelled }
                let (start, watchers) = state.withLock {
                    state -> (Start, [CheckedContinuation<Void, Never>]) in
                    if state.cancelled.remove(id) != nil { return (.cancelled, []) }
                    if deadline <= state.now { return (.now, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (.sleep, Self.takeWatchers(&state))
                }
                for watcher in watchers { watcher.resume() }
                switch start {
                case .sleep: break
                case .now: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    // Not registered yet: the registration sees it and throws.
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time on, and resumes every sleeper whose deadline is passed.
    /// - Parameter duration: how far.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.sorted { $0.value.deadline < $1.value.deadline }.map(\.value.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Waits until at least `count` tasks sleep on the clock: a gate, so
    /// that the test advances the time only once the code waits on it.
    public func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The watchers whose count of sleepers is reached, taken out.
    private static func takeWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
        state.watchers.removeAll { $0.count <= count }
        return ready
    }
}
