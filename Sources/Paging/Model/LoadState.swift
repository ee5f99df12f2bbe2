/// The state of loading at one end of a list, or of a refresh.
public enum LoadState: Sendable, Equatable {
    /// Nothing is loading, and more may be loaded.
    case notLoading
    /// A load is in flight.
    case loading
    /// The last load failed; everything loaded before is kept, and
    /// ``Pager/retry()`` repeats the failed request.
    case failed(PagingError)
    /// That end of the list is reached: there is nothing more to load.
    /// A refresh is never in this state.
    case endReached

    /// Whether a load is in flight.
    public var isLoading: Bool { self == .loading }

    /// The error of a failed load; `nil` in any other state.
    public var error: PagingError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

/// The load states of a list: at its end, at its start, and of a refresh.
///
/// The first load of a list (and a load after ``Pager/reset()``) is reported
/// as a refresh, as it replaces whatever the list shows.
public struct LoadStates: Sendable, Equatable {
    /// The first load, or a refresh.
    public var refresh: LoadState
    /// Loading before the first item.
    public var previous: LoadState
    /// Loading after the last item.
    public var next: LoadState

    /// Creates load states.
    public init(
        refresh: LoadState = .notLoading, previous: LoadState = .notLoading, next: LoadState = .notLoading
    ) {
        self.refresh = refresh
        self.previous = previous
        self.next = next
    }

    /// Whether any load or refresh is in flight.
    public var isLoading: Bool { refresh.isLoading || previous.isLoading || next.isLoading }

    /// The first error among the refresh, previous and next states.
    public var error: PagingError? { refresh.error ?? previous.error ?? next.error }

    /// The state at one end.
    public subscript(direction: LoadDirection) -> LoadState {
        switch direction {
        case .next: next
        case .previous: previous
        }
    }
}

/// How a load call ended, when it did not fail.
public enum LoadOutcome: Sendable, Equatable {
    /// A page (or, for a refresh, every page it needed) arrived and is shown.
    case loaded
    /// That end of the list was already reached: nothing was loaded.
    case endReached
    /// The load was cancelled before it was applied: by ``Pager/cancel()``,
    /// ``Pager/reset()``, a refresh, by the window dropping the page it would
    /// have continued, or by cancelling the task that awaited it.
    case cancelled
    /// ``Pager/retry()`` found no failed load to repeat.
    case nothingToRetry
}
