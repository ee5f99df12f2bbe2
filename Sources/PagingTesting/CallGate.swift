import PagingLock

/// Holds calls until the test answers each one: the core of the doubles that
/// let a test look at a pager while a load is certainly in flight, and
/// complete loads in any order, without sleeping.
///
/// A fake calls ``wait(_:)`` with what it was asked; the test takes the
/// call with ``nextCall()`` and answers it (``Call/answer(_:)``) or fails it
/// (``Call/fail(with:)``), and the fake's `wait` returns the answer or
/// throws. A cancelled call throws `CancellationError` at once, as a
/// well-behaved network request does, unless the gate was made to ignore
/// cancellation.
///
/// ``FetchGate`` is a gate whose answer is only "go on", for fetch closures;
/// ``ScriptedSource`` is a page source built on a gate.
public final class CallGate<Arguments: Sendable, Answer: Sendable>: Sendable {
    /// One call waiting for the test.
    public struct Call: Sendable {
        /// The call's number, from 1, in the order the calls arrived.
        public let number: Int
        /// What the fake was asked.
        public let arguments: Arguments
        fileprivate let gate: CallGate

        /// Completes the call with an answer.
        public func answer(_ answer: Answer) {
            gate.resume(number, with: .success(answer))
        }

        /// Completes the call with an error, which the waiting fake throws.
        public func fail(with error: any Error) {
            gate.resume(number, with: .failure(error))
        }
    }

    private struct State {
        var pending: [Int: CheckedContinuation<Answer, any Error>] = [:]
        /// Calls that arrived and were not yet handed to the test.
        var unclaimed: [Call] = []
        var callWaiters: [CheckedContinuation<Call, Never>] = []
        var arguments: [Arguments] = []
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

    private let state = Lock(State())
    private let ignoresCancellation: Bool

    /// Creates a gate.
    /// - Parameter ignoresCancellation: whether a cancelled call keeps
    ///   waiting for its answer (a fake of a backend that does not stop when
    ///   asked to); by default it throws `CancellationError` at once.
    public init(ignoresCancellation: Bool = false) {
        self.ignoresCancellation = ignoresCancellation
    }

    /// Waits until the test answers this call, and returns the answer; or
    /// throws the error the test failed it with, or `CancellationError`.
    /// - Parameter arguments: what the fake was asked.
    public func wait(_ arguments: Arguments) async throws -> Answer {
        let number = state.withLock { state in
            state.counter += 1
            state.arguments.append(arguments)
            return state.counter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Answer, any Error>) in
                let (waiter, call, cancelled, settled) = state.withLock { state in
                    let call = Call(number: number, arguments: arguments, gate: self)
                    let settled = state.settle()
                    if Task.isCancelled && !ignoresCancellation {
                        state.cancelledCalls.append(number)
                        return (nil as CheckedContinuation<Call, Never>?, call, true, settled)
                    }
                    state.pending[number] = continuation
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
                guard let continuation = state.pending.removeValue(forKey: number) else {
                    return nil as CheckedContinuation<Answer, any Error>?
                }
                state.cancelledCalls.append(number)
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Waits for the next call the test has not taken yet.
    public func nextCall() async -> Call {
        await withCheckedContinuation { continuation in
            let call = state.withLock { state -> Call? in
                if !state.unclaimed.isEmpty { return state.unclaimed.removeFirst() }
                state.callWaiters.append(continuation)
                return nil
            }
            if let call { continuation.resume(returning: call) }
        }
    }

    /// Waits until `count` calls in all have reached the gate, each either
    /// waiting for the test or already cancelled.
    public func waitUntilSettled(calls count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.settled >= count { return true }
                state.settleWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Takes every call that arrived and was not taken by the test yet.
    /// - Complexity: O(*n*) for *n* such calls.
    public func takeUnclaimed() -> [Call] {
        state.withLock { state in
            defer { state.unclaimed = [] }
            return state.unclaimed
        }
    }

    /// What every call was asked, in order of arrival.
    public var allArguments: [Arguments] { state.withLock { $0.arguments } }

    /// The number of calls still waiting for the test.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    /// The numbers of the calls cancelled while waiting (or before they waited).
    public var cancelledCalls: [Int] { state.withLock { $0.cancelledCalls } }

    fileprivate func resume(_ number: Int, with result: Result<Answer, any Error>) {
        let continuation = state.withLock { state in
            state.unclaimed.removeAll { $0.number == number }
            return state.pending.removeValue(forKey: number)
        }
        continuation?.resume(with: result)
    }
}

/// A gate for fetch closures, whose only answer is "go on": a fake calls
/// ``CallGate/pass(_:)`` before it answers, the test opens the call when it
/// has looked at the pager with the load in flight.
///
/// ```swift
/// let gate = FetchGate<String?>()
/// let source = HasMoreCursorSource<String, Launch> { pageSize, cursor in
///     try await gate.pass(cursor)
///     return backend.page(pageSize, after: cursor)
/// }
/// let load = pager.loadNext()
/// let arrival = await gate.nextArrival()   // the request is in flight
/// #expect(pager.isLoadingNext)
/// arrival.open()
/// try await load.value
/// ```
public typealias FetchGate<Arguments: Sendable> = CallGate<Arguments, Void>

extension CallGate where Answer == Void {
    /// Waits until the test opens (returns) or fails (throws) this call.
    /// - Parameter arguments: what the fetch was asked.
    public func pass(_ arguments: Arguments) async throws {
        try await wait(arguments)
    }

    /// Waits for the next call the test has not taken yet.
    public func nextArrival() async -> Call {
        await nextCall()
    }

    /// The number of calls waiting at the gate.
    public var waitingCount: Int { pendingCount }
}

extension CallGate.Call where Answer == Void {
    /// Lets the call through: the fake goes on and answers.
    public func open() {
        answer(())
    }
}
