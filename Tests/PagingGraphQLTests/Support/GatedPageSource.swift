import Paging
import PagingLock

/// A source that, while its gate is closed, holds each page its base loaded
/// until the test opens the gate: the base has loaded the page (a
/// store-backed base has learned it, for the pager it was prepared for),
/// but the pager has not taken it in. Unlike ``HeldPageSource``, it holds
/// any load, the first page of a refresh included.
///
/// ```swift
/// let gate = PageGate()
/// let pager = Pager(source: GatedPageSource(base: source, gate: gate))
/// gate.close()
/// let refresh = pager.refresh()
/// await gate.waitUntilHeld(1)        // learned, not taken in
/// gate.open()
/// try await refresh.value
/// ```
///
/// It forwards `prepared(for:)`, as a wrapper of the same items should, so
/// the pager follows whatever its base would have it follow.
struct GatedPageSource<Base: PageSource>: PageSource {
    let base: Base
    let gate: PageGate

    func load(_ request: PageRequest<Base.Key>) async throws -> Page<Base.Key, Base.Item> {
        let page = try await base.load(request)
        try await gate.pass()
        return page
    }

    func prepared<Element>(for pager: @escaping @Sendable () -> Pager<Base.Key, Element>?) -> Self {
        GatedPageSource(base: base.prepared(for: pager), gate: gate)
    }
}

/// The gate of a ``GatedPageSource``: open at first; closed, it holds every
/// page until ``open()``. A cancelled load throws `CancellationError`.
final class PageGate: Sendable {
    private struct State: Sendable {
        var closed = false
        var nextNumber = 0
        var heldCount = 0
        var held: [Int: CheckedContinuation<Void, any Error>] = [:]
        var heldWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Lock(State())

    init() {}

    /// Holds every page from now on.
    func close() {
        state.withLock { $0.closed = true }
    }

    /// Lets every held page go, and holds no more.
    func open() {
        let held = state.withLock { state in
            state.closed = false
            defer { state.held = [:] }
            return Array(state.held.values)
        }
        for continuation in held { continuation.resume() }
    }

    /// Returns once `count` pages in all have been held.
    func waitUntilHeld(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.heldCount >= count { return true }
                state.heldWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Waits while the gate is closed.
    func pass() async throws {
        let number = state.withLock { state in
            state.nextNumber += 1
            return state.nextNumber
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let (pass, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    guard state.closed, !Task.isCancelled else { return (true, []) }
                    state.held[number] = continuation
                    state.heldCount += 1
                    let ready = state.heldWaiters.filter { $0.count <= state.heldCount }.map(\.continuation)
                    state.heldWaiters.removeAll { $0.count <= state.heldCount }
                    return (false, ready)
                }
                if pass { continuation.resume() }
                for waiter in waiters { waiter.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { $0.held.removeValue(forKey: number) }
            continuation?.resume(throwing: CancellationError())
        }
    }
}
