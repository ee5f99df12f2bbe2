import Paging
import Synchronization

/// A page source whose loads wait until the test completes them: with a page,
/// with an error, or in any order. Every load is recorded; a cancelled load
/// throws `CancellationError` at once, as a well-behaved source does.
///
/// ```swift
/// let load = pager.loadNext()
/// let call = await source.nextCall()   // the pager asked the source
/// call.succeed(with: page)
/// try await load.value
/// ```
final class ScriptedSource<Key: Hashable & Sendable, Item: Sendable>: PageSource, Sendable {
    /// One call of `load` that waits for the test.
    struct Call: Sendable {
        let number: Int
        let request: PageRequest<Key>
        fileprivate let source: ScriptedSource

        /// Completes the call with a page.
        func succeed(with page: Page<Key, Item>) {
            source.resume(number, with: .success(page))
        }

        /// Completes the call with an error.
        func fail(with error: any Error) {
            source.resume(number, with: .failure(error))
        }
    }

    private struct State {
        var pending: [Int: (PageRequest<Key>, CheckedContinuation<Page<Key, Item>, any Error>)] = [:]
        /// Calls that arrived and were not yet handed to the test.
        var unclaimed: [Call] = []
        var callWaiters: [CheckedContinuation<Call, Never>] = []
        var requests: [PageRequest<Key>] = []
        var cancelledCalls: [Int] = []
        var counter = 0
        /// Calls that reached the point where the test can see them.
        var settled = 0
        var settleWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        mutating func settle() -> [CheckedContinuation<Void, Never>] {
            settled += 1
            let ready = settleWaiters.filter { $0.count <= settled }.map(\.continuation)
            settleWaiters.removeAll { $0.count <= settled }
            return ready
        }
    }

    private let state = Mutex(State())
    private let ignoresCancellation: Bool

    init(ignoresCancellation: Bool = false) {
        self.ignoresCancellation = ignoresCancellation
    }

    func load(_ request: PageRequest<Key>) async throws -> Page<Key, Item> {
        let number = state.withLock { state in
            state.counter += 1
            state.requests.append(request)
            return state.counter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (waiter, call, cancelled, settled) = state.withLock { state in
                    let call = Call(number: number, request: request, source: self)
                    let settled = state.settle()
                    if Task.isCancelled && !ignoresCancellation {
                        state.cancelledCalls.append(number)
                        return (nil as CheckedContinuation<Call, Never>?, call, true, settled)
                    }
                    state.pending[number] = (request, continuation)
                    if state.callWaiters.isEmpty {
                        state.unclaimed.append(call)
                        return (nil, call, false, settled)
                    }
                    return (state.callWaiters.removeFirst(), call, false, settled)
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiter?.resume(returning: call)
                }
                for waiter in settled { waiter.resume() }
            }
        } onCancel: {
            guard !ignoresCancellation else {
                state.withLock { $0.cancelledCalls.append(number) }
                return
            }
            let continuation = state.withLock { state in
                state.unclaimed.removeAll { $0.number == number }
                guard let (_, continuation) = state.pending.removeValue(forKey: number) else {
                    return nil as CheckedContinuation<Page<Key, Item>, any Error>?
                }
                state.cancelledCalls.append(number)
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Waits for the next call the test has not seen yet.
    func nextCall() async -> Call {
        await withCheckedContinuation { continuation in
            let call = state.withLock { state -> Call? in
                if !state.unclaimed.isEmpty { return state.unclaimed.removeFirst() }
                state.callWaiters.append(continuation)
                return nil
            }
            if let call { continuation.resume(returning: call) }
        }
    }

    /// Waits until `count` calls in all have reached the source, each either
    /// waiting for the test or already cancelled.
    func waitUntilSettled(calls count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.settled >= count { return true }
                state.settleWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Takes every call that arrived and was not handed to the test yet.
    func takeUnclaimed() -> [Call] {
        state.withLock { state in
            defer { state.unclaimed = [] }
            return state.unclaimed
        }
    }

    /// Every request received, in order.
    var requests: [PageRequest<Key>] { state.withLock { $0.requests } }

    /// The number of calls still waiting for the test.
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// The calls that were cancelled while waiting (or before they waited).
    var cancelledCalls: [Int] { state.withLock { $0.cancelledCalls } }

    fileprivate func resume(_ number: Int, with result: Result<Page<Key, Item>, any Error>) {
        let continuation = state.withLock { state in
            state.unclaimed.removeAll { $0.number == number }
            return state.pending.removeValue(forKey: number)?.1
        }
        continuation?.resume(with: result)
    }
}

/// An error a test source throws.
struct SourceFailure: Error, Equatable, CustomStringConvertible {
    var message = "the backend is down"
    var description: String { message }
}
