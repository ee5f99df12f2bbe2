import Paging
import PagingLock

/// An in-memory Relay connection over an array, answering `first`/`after`
/// and `last`/`before` with the algorithm of the GraphQL Cursor Connections
/// Specification (ApplyCursorsToEdges, EdgesToReturn, HasPreviousPage,
/// HasNextPage). It records every set of arguments it receives.
///
/// The specification lets a server answer `hasPreviousPage: false` to a
/// forward query (`after`) and `hasNextPage: false` to a backward one
/// (`before`) even when items exist there; `reportsOppositeEnd` chooses
/// whether this fake does (`false`, the strict minimum) or tells the truth.
final class RelayConnectionBackend<Node: Sendable>: Sendable {
    /// Arguments the specification rejects.
    struct ArgumentError: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    private struct State {
        var nodes: [Node]
        var received: [RelayArguments] = []
    }

    private let state: Lock<State>
    private let cursorOf: @Sendable (Node) -> String
    private let reportsOppositeEnd: Bool

    /// Creates a connection over nodes, in connection order.
    /// - Parameters:
    ///   - nodes: the nodes.
    ///   - reportsOppositeEnd: whether `hasPreviousPage` answers a forward
    ///     query (and `hasNextPage` a backward one) truthfully.
    ///   - cursor: the opaque cursor of a node.
    init(_ nodes: [Node], reportsOppositeEnd: Bool = false, cursor: @escaping @Sendable (Node) -> String) {
        self.state = Lock(State(nodes: nodes))
        self.cursorOf = cursor
        self.reportsOppositeEnd = reportsOppositeEnd
    }

    /// Every set of arguments received, in order.
    var received: [RelayArguments] { state.withLock { $0.received } }

    /// Replaces the node whose cursor is the same (a change on the server).
    func replace(_ node: Node) {
        let cursor = cursorOf(node)
        state.withLock { state in
            if let index = state.nodes.firstIndex(where: { cursorOf($0) == cursor }) {
                state.nodes[index] = node
            }
        }
    }

    /// Changes the nodes on the server: inserts, deletes, moves.
    func edit(_ change: (inout [Node]) -> Void) {
        state.withLock { change(&$0.nodes) }
    }

    /// The nodes, in connection order.
    var nodes: [Node] { state.withLock { $0.nodes } }

    /// Answers a connection query.
    func connection(_ arguments: RelayArguments) throws(ArgumentError) -> RelayPage<Node> {
        let nodes = state.withLock { state in
            state.received.append(arguments)
            return state.nodes
        }
        if let first = arguments.first, first < 0 { throw ArgumentError(description: "first is negative") }
        if let last = arguments.last, last < 0 { throw ArgumentError(description: "last is negative") }

        // ApplyCursorsToEdges: a cursor that matches no edge is ignored.
        var lower = 0
        var upper = nodes.count
        var afterFound = false
        var beforeFound = false
        if let after = arguments.after, let index = nodes.firstIndex(where: { cursorOf($0) == after }) {
            lower = index + 1
            afterFound = true
        }
        if let before = arguments.before, let index = nodes.firstIndex(where: { cursorOf($0) == before }) {
            upper = min(max(lower, index), upper)
            beforeFound = true
        }
        let afterCursors = lower..<upper

        // EdgesToReturn.
        var window = afterCursors
        if let first = arguments.first, window.count > first {
            window = window.lowerBound..<(window.lowerBound + first)
        }
        if let last = arguments.last, window.count > last {
            window = (window.upperBound - last)..<window.upperBound
        }

        // HasPreviousPage / HasNextPage.
        var hasPreviousPage = false
        if let last = arguments.last {
            hasPreviousPage = afterCursors.count > last
        } else if afterFound, reportsOppositeEnd {
            hasPreviousPage = lower > 0
        }
        var hasNextPage = false
        if let first = arguments.first {
            hasNextPage = afterCursors.count > first
        } else if beforeFound, reportsOppositeEnd {
            hasNextPage = upper < nodes.count
        }

        let page = Array(nodes[window])
        return RelayPage(
            items: page,
            pageInfo: PageInfo(
                hasNextPage: hasNextPage, hasPreviousPage: hasPreviousPage,
                startCursor: page.first.map(cursorOf), endCursor: page.last.map(cursorOf)))
    }
}
