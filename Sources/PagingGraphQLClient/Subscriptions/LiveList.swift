public import Paging

/// Keeps a paged list live over a GraphQL subscription, with no gap after a
/// reconnection: every item the server adds while the list is live shows once, in
/// the server's order, and nothing already shown moves.
///
/// ```swift
/// let pager = Pager(source: ConnectionSource(client: client, document: feed), configuration: configuration)
/// let live = LiveList(pager: pager, client: client, subscription: FeedItemAddedSubscription())
/// // In a task that lives as long as the screen:
/// try await live.run()
/// ```
///
/// ``run()`` subscribes, and each time the subscription is in place (the server has
/// read its `subscribe`: at the start, and after each reconnection), catches the list
/// up: `Pager/refreshHead(maximumPages:)` loads the list's first pages and splices
/// them in above what it holds, so the items added while no subscription ran (before
/// the first connection, or while the connection was down) come in, and the rows below
/// stay as they are. A list not loaded yet is loaded then. Meanwhile the
/// subscription's events go on arriving:
/// - with a store, through it: a subscription document with
///   `@prependEdge(connections:)` (or `@appendEdge`, `@deleteRecord`, ...) puts each
///   new item into every list following the store (a `ConnectionSource` list); give
///   no `edits`;
/// - without one, through `edits`: the edits an event makes to the list, such as
///   `[.insert(item, at: .first)]`.
///
/// Either way, an event's edit made while the head refresh is in flight outlives it
/// (`PagerEdit/survivingRefresh()`): a head page answered before the event does
/// not take the item back, and one answered after it holds the item once, by its
/// identity. So an item shows once whichever brings it first.
///
/// What is guaranteed rests on the server starting a subscription before it reads
/// the client's next message (the client sends a `ping` after each `subscribe` and
/// counts the subscription in place at the `pong`): events published before that
/// are in the head refresh, those after it on the subscription. A head refresh that
/// fails leaves `Pager/loadStates` with the refresh failed: `Pager/retry()`
/// repeats it; until then items added while disconnected may be missing.
///
/// When the app returns from the background, call ``catchUp()``: the socket may have
/// stayed open while the app could not read it.
///
/// The list's source must page from the newest item, as a feed does: the head is
/// the source's first page.
public final class LiveList<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    /// The list kept live.
    public let pager: Pager<Key, Item>
    /// The most pages a catch-up loads looking for the items held.
    public let maximumPages: Int
    /// Runs the subscription: calls `started` each time it is in place, and `apply` with the
    /// edits of each event; returns when the server completes it.
    private let consume:
        @Sendable (
            _ resubscribing: @escaping @Sendable (Int) -> Void,
            _ started: @escaping @Sendable (Int) -> Void,
            _ apply: @escaping @Sendable ([PagerEdit<Item>]) -> Void
        ) async throws -> Void

    /// Creates a live list; nothing happens until ``run()``.
    /// - Parameters:
    ///   - pager: the list.
    ///   - client: the client whose ``GraphQLClient/webSocket`` carries the subscription,
    ///     and whose store (if any) takes its events.
    ///   - subscription: the subscription whose events add to the list.
    ///   - maximumPages: the most pages a catch-up loads looking for the items held
    ///     (`Pager/refreshHead(maximumPages:)`): when more new items came than fit, the
    ///     list restarts with the pages loaded. 3 unless given.
    ///   - edits: the edits an event makes to the list, for a list that does not follow
    ///     the store; `nil` (the default) for one that does, the store making them.
    public init<Operation: GraphQLOperation>(
        pager: Pager<Key, Item>, client: GraphQLClient, subscription: Operation, maximumPages: Int = 3,
        edits: (@Sendable (GraphQLResponse<Operation.Data>) -> [PagerEdit<Item>])? = nil
    ) {
        self.pager = pager
        self.maximumPages = maximumPages
        consume = { resubscribing, started, apply in
            let responses = client.subscribe(subscription, onResubscribe: resubscribing, onStart: started)
            for try await response in responses {
                if let edits { apply(edits(response)) }
            }
        }
    }

    /// Keeps the list live until the task is cancelled or the subscription ends.
    ///
    /// Subscribes, and catches the list up each time the subscription is in place (see
    /// ``LiveList``); applies each event's edits, marked
    /// `PagerEdit/survivingRefresh()`, in the order the events came.
    /// - Throws: the subscription's ``GraphQLSubscriptionError`` when it fails for good
    ///   (the server refused it, the connection failed in a way not retried, the
    ///   reconnection attempts ran out). It returns when the server completes the
    ///   subscription, or the task is cancelled.
    /// - Complexity: each event costs its edits (`Pager.apply(_:)`); each catch-up a
    ///   head refresh.
    public func run() async throws {
        let (starts, started) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        // From each (re)subscription on, events may sit above items the list missed: the catch-up
        // must reach the rows held below them.
        pager.owesHeadRefresh()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in starts { self.catchUp() }
            }
            group.addTask { [pager, consume] in
                defer { started.finish() }
                try await consume(
                    { _ in pager.owesHeadRefresh() },
                    { started.yield($0) },
                    { edits in pager.apply(edits.map { $0.survivingRefresh() }) })
            }
            for try await _ in group {}
        }
    }

    /// Catches the list up now: a head refresh (`Pager/refreshHead(maximumPages:)`), as
    /// after a reconnection. Call it when the app returns from the background.
    /// - Returns: the head refresh.
    @discardableResult
    public func catchUp() -> PageLoad {
        pager.refreshHead(maximumPages: maximumPages)
    }
}
