import PagingGraphQL
import PagingLock

/// Iterates a store watch in a task of its own and queues what it yields,
/// so a test can await the next element with a time limit: a missing
/// element fails the test instead of hanging it.
final class WatchProbe: Sendable {
    private struct State {
        var values: [JSONValue] = []
        var finished = false
        var waiter: (id: Int, continuation: CheckedContinuation<JSONValue?, Never>)?
        var nextWaiterID = 0
    }

    private let state = Lock(State())
    private let consumer = Lock<Task<Void, Never>?>(nil)

    init(_ watch: GraphQLStoreWatch) {
        let task = Task { [self] in
            for await value in watch { deliver(value) }
            finish()
        }
        consumer.withLock { $0 = task }
    }

    private func deliver(_ value: JSONValue) {
        let waiter = state.withLock { state -> CheckedContinuation<JSONValue?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter.continuation
            }
            state.values.append(value)
            return nil
        }
        waiter?.resume(returning: value)
    }

    private func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter?.continuation
        }
        waiter?.resume(returning: nil)
    }

    /// The next element; `nil` when the watch ended or nothing came within
    /// the time limit.
    func next(within limit: Duration = .seconds(10)) async -> JSONValue? {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let timer = Task { [self] in
            try? await Task.sleep(for: limit)
            let waiter = state.withLock { state -> CheckedContinuation<JSONValue?, Never>? in
                guard let waiter = state.waiter, waiter.id == id else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(returning: nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let now = state.withLock { state -> JSONValue?? in
                if !state.values.isEmpty { return .some(state.values.removeFirst()) }
                if state.finished { return .some(nil) }
                state.waiter = (id, continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// The elements yielded and not yet taken with ``next(within:)``.
    var pending: [JSONValue] { state.withLock { $0.values } }

    /// Whether the watch's iteration has ended.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Cancels the iterating task and waits for the iteration to end.
    func cancel() async {
        let task = consumer.withLock { $0 }
        task?.cancel()
        await task?.value
    }
}
