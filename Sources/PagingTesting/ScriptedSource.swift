public import Paging

/// A page source whose loads wait until the test completes them: with a
/// page, with an error, in any order. Every request is recorded; a cancelled
/// load throws `CancellationError` at once, as a well-behaved source does.
///
/// ```swift
/// let source = ScriptedSource<Int, Launch>()
/// let pager = Pager(source: source)
/// let load = pager.loadNext()
/// let call = await source.nextCall()   // the pager asked the source
/// #expect(pager.isLoadingNext)
/// call.succeed(with: Page(items: launches, next: 20))
/// try await load.value
/// ```
public final class ScriptedSource<Key: Hashable & Sendable, Item: Sendable>: PageSource, Sendable {
    /// One load waiting for the test.
    public struct Call: Sendable {
        /// The call's number, from 1, in the order the loads arrived.
        public var number: Int { call.number }
        /// What the pager asked for.
        public var request: PageRequest<Key> { call.arguments }
        fileprivate let call: CallGate<PageRequest<Key>, Page<Key, Item>>.Call

        /// Completes the load with a page.
        public func succeed(with page: Page<Key, Item>) {
            call.answer(page)
        }

        /// Completes the load with an error, which the source throws.
        public func fail(with error: any Error) {
            call.fail(with: error)
        }
    }

    private let gate: CallGate<PageRequest<Key>, Page<Key, Item>>

    /// Creates a source.
    /// - Parameter ignoresCancellation: whether a cancelled load keeps
    ///   waiting for the test (a source that does not stop when asked to);
    ///   by default it throws `CancellationError` at once.
    public init(ignoresCancellation: Bool = false) {
        gate = CallGate(ignoresCancellation: ignoresCancellation)
    }

    /// Waits for the test to complete the load.
    /// - Parameter request: what the pager asks for.
    public func load(_ request: PageRequest<Key>) async throws -> Page<Key, Item> {
        try await gate.wait(request)
    }

    /// Waits for the next load the test has not taken yet.
    public func nextCall() async -> Call {
        Call(call: await gate.nextCall())
    }

    /// Waits until `count` loads in all have reached the source, each either
    /// waiting for the test or already cancelled.
    public func waitUntilSettled(calls count: Int) async {
        await gate.waitUntilSettled(calls: count)
    }

    /// Takes every load that arrived and was not taken by the test yet.
    public func takeUnclaimed() -> [Call] {
        gate.takeUnclaimed().map(Call.init)
    }

    /// Every request received, in order.
    public var requests: [PageRequest<Key>] { gate.allArguments }

    /// The number of loads still waiting for the test.
    public var pendingCount: Int { gate.pendingCount }

    /// The numbers of the loads cancelled while waiting (or before they waited).
    public var cancelledCalls: [Int] { gate.cancelledCalls }
}
