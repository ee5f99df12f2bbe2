/// The data of a selection in a ``GraphQLStore``, now and after every change
/// that alters it: an `AsyncSequence` made by ``GraphQLStore/watch(_:)``.
///
/// ```swift
/// for await data in store.watch(operation) {
///     render(data)
/// }
/// ```
///
/// Each iteration registers with the store when its iterator is made. The
/// first element is the current data, as soon as the read is complete; then
/// an element comes when, and only when, a write, a delete or a modify
/// changes a field the last read depended on and reading again gives data
/// other than the last element. Changes that come faster than the consumer
/// iterates are coalesced: the next element is the latest data. While the
/// read misses, nothing is yielded; the watch waits for the missing field.
///
/// Reading again costs what changed, not the selection: when a change only
/// set values of records the last read showed (no reference changed, no
/// record came or went), the watch reads those records again where its
/// last data shows them and puts them in place. A change that moved a
/// reference, or a list's members, reads the whole selection again.
///
/// Cancellation: cancelling the iterating task ends the iteration (`next()`
/// returns `nil`) and unregisters it, as does dropping the iterator, for
/// example by leaving a `for await` loop; the store then holds nothing of
/// it (see ``GraphQLStore/liveWatchCount``).
public struct GraphQLStoreWatch: AsyncSequence, Sendable {
    /// The data, shaped as the server returns it for the selection.
    public typealias Element = JSONValue
    /// A watch never fails.
    public typealias Failure = Never

    let store: GraphQLStore
    let query: StoreQuery

    /// Registers a new iteration with the store.
    /// - Returns: the iterator; dropping it unregisters the iteration.
    public func makeAsyncIterator() -> Iterator {
        Iterator(registration: WatchRegistration(store: store, id: store.registerWatch(query)))
    }

    /// Iterates the data of a ``GraphQLStoreWatch``.
    public struct Iterator: AsyncIteratorProtocol {
        let registration: WatchRegistration
        private var last: JSONValue?
        private var finished = false

        init(registration: WatchRegistration) {
            self.registration = registration
        }

        /// The current data first, then the data after each change that
        /// alters it.
        /// - Returns: the data, or `nil` once the task is cancelled.
        public mutating func next() async -> JSONValue? {
            await next(isolation: nil)
        }

        /// The current data first, then the data after each change that
        /// alters it, staying on the caller's actor between waits.
        /// - Parameter actor: the caller's actor, if any.
        /// - Returns: the data, or `nil` once the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> JSONValue? {
            while !finished {
                if Task.isCancelled { break }
                switch registration.store.readWatch(registration.id) {
                case .gone:
                    finished = true
                case .clean:
                    await registration.store.waitForChange(of: registration.id)
                case .read(let result):
                    if let data = result.data, data != last {
                        last = data
                        return data
                    }
                }
            }
            finished = true
            registration.store.unregisterWatch(registration.id)
            return nil
        }
    }
}

/// One iteration's registration with the store; unregisters when released.
final class WatchRegistration: Sendable {
    let store: GraphQLStore
    let id: Int

    init(store: GraphQLStore, id: Int) {
        self.store = store
        self.id = id
    }

    deinit {
        store.unregisterWatch(id)
    }
}
