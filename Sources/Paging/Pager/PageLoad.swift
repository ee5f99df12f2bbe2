/// A load a pager started or joined; await ``value`` for how it ended.
///
/// The load runs whether or not anyone awaits it, so a user interface can
/// start one and go on:
///
/// ```swift
/// pager.loadNext()                               // "Load more" tapped
/// let outcome = try await pager.loadNext().value // or wait for the page
/// ```
///
/// Every call that joins the same load (a second tap while the first page is
/// loading) gets a handle to the same load, and all of them end together.
public struct PageLoad: Sendable {
    private let futures: [LoadFuture]
    /// Run after the load ended, before ``value`` returns (the list model
    /// uses it to show the result first).
    private let afterwards: (@Sendable () async -> Void)?

    init(_ futures: [LoadFuture], afterwards: (@Sendable () async -> Void)? = nil) {
        self.futures = futures
        self.afterwards = afterwards
    }

    /// The same load, with work to do once it has ended and before ``value``
    /// returns.
    func then(_ work: @escaping @Sendable () async -> Void) -> PageLoad {
        PageLoad(futures) { [afterwards] in
            await afterwards?()
            await work()
        }
    }

    /// How the load ended, once it has.
    ///
    /// Cancelling the task that awaits this property ends the wait with
    /// ``LoadOutcome/cancelled``; it does not cancel the load, which other
    /// callers may share. Use ``Pager/cancel()`` to stop loads.
    ///
    /// - Throws: ``PagingError`` if the load failed (the pager keeps every
    ///   item it had, and ``Pager/retry()`` repeats the failed request).
    public var value: LoadOutcome {
        get async throws(PagingError) {
            var outcomes: [LoadOutcome] = []
            var firstError: PagingError?
            for future in futures {
                switch await future.result() {
                case .success(let outcome): outcomes.append(outcome)
                case .failure(let error): firstError = firstError ?? error
                }
            }
            await afterwards?()
            if let firstError { throw firstError }
            if outcomes.contains(.loaded) { return .loaded }
            return outcomes.first ?? .nothingToRetry
        }
    }
}
