import Graphiti

/// A page of launches as a Relay connection (GraphQL type `LaunchRelayConnection`), following
/// the GraphQL Cursor Connections Specification.
///
/// Edges are always in list order (the ``LaunchOrder`` asked for; newest first by default),
/// whichever direction was asked for. `hasPreviousPage` and `hasNextPage` follow the spec's
/// algorithms: with `last`, whether more edges precede the page within the cursors' range; with
/// `first`, whether more follow it. The spec lets a server also report, when it can do so
/// efficiently, that edges exist before `after` (or after `before`); a keyset query can (one
/// index seek), so this server does.
///
/// A cursor names a position, so when its launch has been deleted the page starts where that
/// launch stood. (The spec's `ApplyCursorsToEdges` removes nothing for a cursor whose edge is
/// missing; a position-based cursor is the robust reading that keyset servers share.) A cursor
/// also names its list's order and filters, and another list refuses it.
struct LaunchRelayConnection: Sendable {
    /// The page's edges, in list order.
    let edges: [LaunchEdge]
    /// Where the page stands in the list.
    let pageInfo: PageInfo
    /// Which launches the connection pages through, for `totalCount`.
    let scope: LaunchScope

    /// The page's launches, in list order (GitHub's `nodes` shortcut).
    var nodes: [Launch] { edges.map(\.node) }

    /// Resolves `totalCount`: how many launches the whole connection holds, with its filters.
    ///
    /// - Complexity: That of ``LaunchStore/count(scope:)``.
    func totalCount(context: LaunchContext, arguments: NoArguments) async throws -> Int {
        try await context.store.count(scope: scope)
    }

    /// Runs the spec's algorithms as keyset queries.
    ///
    /// - Parameters:
    ///   - scope: The filters: all launches, one rocket's, or those of `launchConnection`'s
    ///     filter arguments.
    ///   - order: The list's order.
    ///   - fieldName: The field's name, for error messages.
    ///   - arguments: `first`, `after`, `last`, `before`.
    ///   - store: The launches.
    /// - Returns: The page.
    /// - Throws: A `GraphQLError` naming the argument for bad arguments and for a cursor of
    ///   another order or other filters; database errors.
    /// - Complexity: O(log n + count): at most two keyset queries of ``LaunchStore/page(scope:order:after:before:fromStart:limit:)``
    ///   (`count + 1` launches and one), whose complexity (a search's rows passed over) applies.
    static func resolve(
        scope: LaunchScope,
        order: LaunchOrder = .newestFirst,
        fieldName: String,
        arguments: ConnectionArguments,
        store: LaunchStore
    ) async throws -> LaunchRelayConnection {
        let request = try ConnectionRequest(arguments, field: fieldName, order: order, scope: scope)
        let launches: [Launch]
        let hasPreviousPage: Bool
        let hasNextPage: Bool
        switch request.count {
        case .first(let first):
            let rows = try await store.page(
                scope: scope, order: order, after: request.after, before: request.before, fromStart: true,
                limit: first + 1)
            launches = Array(rows.prefix(first))
            hasNextPage = rows.count > first
            if let after = request.after {
                hasPreviousPage = try await store.exists(
                    scope: scope, order: order, beyond: after, following: false)
            } else {
                hasPreviousPage = false
            }
        case .last(let last):
            let rows = try await store.page(
                scope: scope, order: order, after: request.after, before: request.before, fromStart: false,
                limit: last + 1)
            launches = rows.prefix(last).reversed()
            hasPreviousPage = rows.count > last
            if let before = request.before {
                hasNextPage = try await store.exists(
                    scope: scope, order: order, beyond: before, following: true)
            } else {
                hasNextPage = false
            }
        }
        let filters = scope.filterFingerprint
        let edges = launches.map {
            LaunchEdge(cursor: LaunchCursor.encode($0.position(in: order), filters: filters), node: $0)
        }
        return LaunchRelayConnection(
            edges: edges,
            pageInfo: PageInfo(
                hasNextPage: hasNextPage,
                hasPreviousPage: hasPreviousPage,
                startCursor: edges.first?.cursor,
                endCursor: edges.last?.cursor
            ),
            scope: scope
        )
    }
}
