import PagingLock

/// The result of one load operation, awaited by every caller that started or
/// joined it.
final class LoadFuture: Sendable {
    private struct State {
        var result: Result<LoadOutcome, PagingError>?
        var waiters: [Int: CheckedContinuation<Result<LoadOutcome, PagingError>, Never>] = [:]
        var nextWaiter = 0
    }

    private let state: Lock<State>

    /// A future that is still pending.
    init() {
        state = Lock(State())
    }

    /// A future that already has its result.
    init(result: Result<LoadOutcome, PagingError>) {
        state = Lock(State(result: result))
    }

    /// Sets the result and resumes every waiter. Later calls are ignored.
    func fulfill(_ result: Result<LoadOutcome, PagingError>) {
        let waiters = state.withLock {
            state -> [CheckedContinuation<Result<LoadOutcome, PagingError>, Never>] in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// Waits for the result. Cancelling the waiting task ends the wait with
    /// ``LoadOutcome/cancelled`` and leaves the load itself running.
    func result() async -> Result<LoadOutcome, PagingError> {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Result<LoadOutcome, PagingError>? in
                    if let result = state.result { return result }
                    if Task.isCancelled { return .success(.cancelled) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: .success(.cancelled))
        }
    }
}
