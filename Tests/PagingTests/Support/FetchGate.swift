import Synchronization

/// Holds the calls of a fake backend until the test lets each one through,
/// for strategies whose fetch is a closure (where a ``ScriptedSource`` cannot
/// sit). The fake calls ``pass(_:)`` first; the test waits for the call with
/// ``nextArrival()``, looks at the pager while the load is in flight, then
/// opens it (the fake answers) or fails it (the fetch throws).
///
/// ```swift
/// let source = HasMoreCursorSource<String, Launch> { pageSize, cursor in
///     try await gate.pass(cursor)
///     return backend.page(pageSize, after: cursor)
/// }
/// let load = pager.loadNext()
/// let arrival = await gate.nextArrival()   // the request is in flight
/// arrival.open()
/// try await load.value
/// ```
///
/// A cancelled call throws `CancellationError` at once.
final class FetchGate<Arguments: Sendable>: Sendable {
    /// One call waiting at the gate.
    struct Arrival: Sendable {
        let number: Int
        let arguments: Arguments
        fileprivate let gate: FetchGate

        /// Lets the call through: the fake goes on and answers.
        func open() {
            gate.resume(number, with: .success(()))
        }

        /// Makes the call throw, as a failed network request does.
        func fail(with error: any Error) {
            gate.resume(number, with: .failure(error))
        }
    }

    private struct State {
        var pending: [Int: CheckedContinuation<Void, any Error>] = [:]
        var unclaimed: [Arrival] = []
        var waiters: [CheckedContinuation<Arrival, Never>] = []
        var counter = 0
    }

    private let state = Mutex(State())

    init() {}

    /// Waits until the test opens (returns) or fails (throws) this call.
    func pass(_ arguments: Arguments) async throws {
        let number = state.withLock { state in
            state.counter += 1
            return state.counter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let (waiter, arrival, cancelled) = state.withLock {
                    state -> (CheckedContinuation<Arrival, Never>?, Arrival, Bool) in
                    let arrival = Arrival(number: number, arguments: arguments, gate: self)
                    if Task.isCancelled { return (nil, arrival, true) }
                    state.pending[number] = continuation
                    if state.waiters.isEmpty {
                        state.unclaimed.append(arrival)
                        return (nil, arrival, false)
                    }
                    return (state.waiters.removeFirst(), arrival, false)
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiter?.resume(returning: arrival)
                }
            }
        } onCancel: {
            let continuation = state.withLock { state in
                state.unclaimed.removeAll { $0.number == number }
                return state.pending.removeValue(forKey: number)
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Waits for the next call the test has not seen yet.
    func nextArrival() async -> Arrival {
        await withCheckedContinuation { continuation in
            let arrival = state.withLock { state -> Arrival? in
                if !state.unclaimed.isEmpty { return state.unclaimed.removeFirst() }
                state.waiters.append(continuation)
                return nil
            }
            if let arrival { continuation.resume(returning: arrival) }
        }
    }

    /// The number of calls waiting at the gate.
    var waitingCount: Int { state.withLock { $0.pending.count } }

    fileprivate func resume(_ number: Int, with result: Result<Void, any Error>) {
        let continuation = state.withLock { state in
            state.unclaimed.removeAll { $0.number == number }
            return state.pending.removeValue(forKey: number)
        }
        continuation?.resume(with: result)
    }
}
