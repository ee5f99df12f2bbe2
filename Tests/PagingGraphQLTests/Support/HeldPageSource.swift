import Paging
import PagingLock

/// A source that holds each page its base loaded in a held direction until
/// the test lets it go: the base has loaded the page (a store-backed base
/// has learned it, for the pager of the load), but the pager has not
/// taken it in. This is the window in which two loads in flight race; the
/// hold makes it last as long as a test needs, without sleeping.
///
/// ```swift
/// let hold = PageHold(holding: [.next])
/// let pager = Pager(source: HeldPageSource(base: source, hold: hold))
/// let load = pager.loadNext()
/// await hold.waitForPage(.next)      // loaded, not taken in
/// hold.release(.next)
/// try await load.value
/// ```
///
/// It passes each request on as it is, so the pager follows whatever its
/// base would have it follow.
struct HeldPageSource<Base: PageSource>: PageSource {
    let base: Base
    let hold: PageHold

    func load(_ request: PageRequest<Base.Key>) async throws -> Page<Base.Key, Base.Item> {
        let page = try await base.load(request)
        await hold.pass(request.direction)
        return page
    }
}

/// The gate of a ``HeldPageSource``: it holds the pages of some directions
/// until ``release(_:)``, and tells the test when one arrived. Initial loads
/// (no direction) pass. A cancelled load releases its direction.
final class PageHold: Sendable {
    private struct State {
        var holding: Set<LoadDirection>
        var arrived: Set<LoadDirection> = []
        var held: [LoadDirection: [CheckedContinuation<Void, Never>]] = [:]
        var arrivalWaiters: [LoadDirection: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let state: Lock<State>

    /// Creates a hold of the pages loaded in some directions.
    init(holding: Set<LoadDirection>) {
        state = Lock(State(holding: holding))
    }

    /// Returns once a page loaded in a direction is held.
    func waitForPage(_ direction: LoadDirection) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.arrived.contains(direction) { return true }
                state.arrivalWaiters[direction, default: []].append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Lets the pages held in a direction go, and every later one.
    func release(_ direction: LoadDirection) {
        let held = state.withLock { state in
            state.holding.remove(direction)
            return state.held.removeValue(forKey: direction) ?? []
        }
        for continuation in held { continuation.resume() }
    }

    /// Waits while pages in the direction are held.
    func pass(_ direction: LoadDirection?) async {
        guard let direction else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (pass, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    guard state.holding.contains(direction), !Task.isCancelled else { return (true, []) }
                    state.arrived.insert(direction)
                    state.held[direction, default: []].append(continuation)
                    return (false, state.arrivalWaiters.removeValue(forKey: direction) ?? [])
                }
                if pass { continuation.resume() }
                for waiter in waiters { waiter.resume() }
            }
        } onCancel: {
            release(direction)
        }
    }
}
