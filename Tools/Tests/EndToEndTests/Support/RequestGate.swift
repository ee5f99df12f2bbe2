import ToolsLock

/// Holds the server's requests until a test lets them through, so that a test can look at a
/// list while its load is certainly in flight, without sleeping.
///
/// The gate starts open. While it is closed, every request that reaches the server waits in
/// ``pass()``; ``open()`` lets every waiting request through and all later ones.
final class RequestGate: Sendable {
    private struct State {
        var isOpen = true
        var held: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Waits while the gate is closed; called by the server before it handles a request.
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let passes = state.withLock { state in
                if state.isOpen { return true }
                state.held.append(continuation)
                return false
            }
            if passes { continuation.resume() }
        }
    }

    /// Makes later requests wait.
    func close() {
        state.withLock { $0.isOpen = false }
    }

    /// Lets every held request through, and all later ones.
    func open() {
        let held = state.withLock { state in
            state.isOpen = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }
}
