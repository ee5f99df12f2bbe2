import Foundation
import Paging
import PagingGraphQLClient
import ToolsLock

/// What `demo --live` and `browse --live` share: a ``LiveList`` run beside the screen (the title
/// line following the connection) or beside the printing of its first page and of each item that
/// comes to the top.
enum LiveRunner {
    /// Runs the live list until the screen quits, or, without a terminal, until `count` items
    /// have come after the first page.
    /// - Parameters:
    ///   - pager: the list, over the client's store.
    ///   - client: the client whose WebSocket carries the subscription.
    ///   - webSocket: that WebSocket, whose state the title line shows.
    ///   - subscription: the subscription whose events the store puts into the list.
    ///   - count: without a terminal, how many arrivals to print before returning.
    ///   - noun: what the items are, for the printed heading ("launches").
    ///   - row: an item as a line of plain text.
    ///   - session: the screen's session, given the title line's note.
    static func run<Item: Identifiable & Sendable>(
        pager: Pager<String, Item>, client: GraphQLClient, webSocket: GraphQLWebSocketClient,
        subscription: some GraphQLOperation, count: Int, io: CommandIO, terminal: RawTerminal,
        interactive: Bool,
        noun: String, row: @escaping @Sendable (Item) -> String,
        session: (_ note: @escaping @Sendable () -> String?) -> ListSession<String, Item>
    ) async throws where Item.ID: Sendable {
        let live = LiveList(pager: pager, client: client, subscription: subscription)
        guard interactive else {
            try await printLive(live, pager: pager, count: count, io: io, noun: noun, row: row)
            return
        }
        let ended = Locked<(any Error)?>(nil)
        let running = Task {
            do { try await live.run() } catch { ended.withLock { $0 = error } }
        }
        defer { running.cancel() }
        let session = session { note(webSocket.status, pager: pager, ended: ended.withLock { $0 }) }
        // The title line follows the connection: each change of its state redraws it.
        let watching = Task {
            for await _ in webSocket.statusUpdates { await session.noteChanged() }
        }
        defer { watching.cancel() }
        try await TerminalRunner.run(session, terminal: terminal)
    }

    /// What the title line says of a live list: `live`, `live, catching up` (a head refresh after
    /// a reconnection), `connecting`, `reconnecting (attempt 2)`, or why it is not live.
    static func note<Item>(
        _ status: GraphQLSubscriptionStatus, pager: Pager<String, Item>, ended: (any Error)?
    )
        -> String
    {
        if let ended { return "not live: \(ErrorText.short(ended))" }
        switch status {
        case .connected:
            return pager.loadStates.refresh.isLoading ? "live, catching up" : "live"
        case .connecting(let attempt) where attempt == 0:
            return "connecting"
        case .connecting(let attempt), .reconnecting(let attempt, _, _):
            return "reconnecting (attempt \(attempt))"
        case .failed(let error):
            return "not live: \(error.code)"
        case .idle:
            return "not live"
        }
    }

    /// Runs `live` beside the printing of its list (``printArrivals(pager:count:io:noun:row:)``)
    /// until `count` items have come; when the live list ends first (the subscription failed for
    /// good, or the server completed it), fails saying why rather than waiting for items that
    /// cannot come.
    static func printLive<Item: Identifiable & Sendable>(
        _ live: LiveList<String, Item>, pager: Pager<String, Item>, count: Int, io: CommandIO,
        noun: String, row: @escaping @Sendable (Item) -> String
    ) async throws where Item.ID: Sendable {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await printArrivals(pager: pager, count: count, io: io, noun: noun, row: row)
                return true
            }
            group.addTask {
                try await live.run()
                return false
            }
            defer { group.cancelAll() }
            do {
                // The first to end decides: the printing done, or the live list over.
                if try await group.next() == true { return }
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError.failed(
                    "the live list ended before \(count) \(noun) came: \(ErrorText.short(error))")
            }
            throw CLIError.failed("the server ended the subscription before \(count) \(noun) came")
        }
    }

    /// Prints the list's first page once it is loaded, then each item not printed yet as it
    /// comes (at the top, or below one printed before), oldest first, until `count` have come.
    static func printArrivals<Item: Identifiable & Sendable>(
        pager: Pager<String, Item>, count: Int, io: CommandIO, noun: String, row: (Item) -> String
    ) async throws where Item.ID: Sendable {
        var shown: Set<Item.ID> = []
        var arrived = 0
        for await snapshot in pager.snapshots where snapshot.loadStates.refresh == .notLoading {
            guard !snapshot.items.isEmpty else { continue }
            if shown.isEmpty {
                io.standardOutput.line("Live: \(noun) 1–\(snapshot.items.count), newest first")
                for item in snapshot.items {
                    io.standardOutput.line("  " + row(item))
                    shown.insert(item.id)
                }
                if count == 0 { return }
                continue
            }
            // What came since, oldest first: at the top, or below an event that came before a
            // catch-up brought what was added while the connection was down.
            let new = snapshot.items.filter { !shown.contains($0.id) }
            for item in new.reversed() {
                io.standardOutput.line("New: " + row(item))
                shown.insert(item.id)
                arrived += 1
                if arrived >= count { return }
            }
        }
    }
}
