import Paging

/// Loads pages the way a user who taps "Retry" on every error would.
enum Drive {
    /// Loads pages at one end until that end is reached: on a failure, ``Pager/retry()``
    /// repeats the failed request.
    ///
    /// - Parameters:
    ///   - pager: the pager.
    ///   - direction: the end to load at.
    ///   - maximumRetries: a bound, so that a server that always fails fails the test instead
    ///     of hanging it.
    ///   - onFailure: called with the error of every failed load before it is retried.
    ///   - afterEachPage: called after every page that loaded, to check the list.
    /// - Returns: how many times a load failed and was retried.
    /// - Throws: the last load error once `maximumRetries` is passed; any error that is not a
    ///   failed load (a repeated key, an invalid page); what `afterEachPage` throws; and
    ///   ``UnexpectedResponse`` when a load is cancelled.
    @discardableResult
    static func toEnd<Key, Item>(
        _ pager: Pager<Key, Item>,
        _ direction: LoadDirection = .next,
        maximumRetries: Int = 500,
        onFailure: (PagingError) -> Void = { _ in },
        afterEachPage: (Pager<Key, Item>) throws -> Void = { _ in }
    ) async throws -> Int {
        var retries = 0
        func load() -> PageLoad {
            direction == .next ? pager.loadNext() : pager.loadPrevious()
        }
        var current = load()
        while true {
            do {
                switch try await current.value {
                case .loaded:
                    try afterEachPage(pager)
                case .endReached:
                    return retries
                case .cancelled, .nothingToRetry:
                    throw UnexpectedResponse("a \(direction) load ended without loading: \(pager.loadStates)")
                }
            } catch let error as PagingError where error.code == .loadFailed {
                retries += 1
                onFailure(error)
                guard retries <= maximumRetries else { throw error }
                current = pager.retry()
                continue
            }
            let more = direction == .next ? pager.hasNext : pager.hasPrevious
            guard more else { return retries }
            current = load()
        }
    }
}

extension PagedItems where Item: Identifiable {
    /// The ids of the items, in list order.
    var ids: [Item.ID] { map(\.id) }
}
