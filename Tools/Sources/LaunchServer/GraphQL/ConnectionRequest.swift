import GraphQL

/// Validated connection arguments: one of `first`/`last`, and the decoded cursors.
struct ConnectionRequest: Sendable, Hashable {
    /// Which end of the cursor range the page is taken from.
    enum Count: Sendable, Hashable {
        /// `first: n`: the `n` edges after `after`.
        case first(Int)
        /// `last: n`: the `n` edges before `before`.
        case last(Int)
    }

    /// How many edges, from which end.
    let count: Count
    /// The `after` cursor's position: only launches that follow it in the list.
    let after: LaunchListPosition?
    /// The `before` cursor's position: only launches that precede it in the list.
    let before: LaunchListPosition?

    /// Validates arguments the way GitHub's GraphQL API does, and that the cursors belong to
    /// the list asked for.
    ///
    /// - Parameters:
    ///   - arguments: The field's arguments.
    ///   - field: The field's name, for the messages.
    ///   - order: The list's order.
    ///   - scope: The list's filters; a cursor must carry the fingerprint of its filter
    ///     arguments.
    /// - Throws: A `GraphQLError` naming the argument when `first` or `last` is outside
    ///   0...100, both or neither are given, a cursor does not decode, or a cursor belongs to a
    ///   list of another order or with other filters.
    init(
        _ arguments: ConnectionArguments, field: String, order: LaunchOrder = .newestFirst,
        scope: LaunchScope = .all
    ) throws(GraphQLError) {
        count = try Self.count(of: arguments, field: field)
        after = try Self.position(
            arguments.after, argument: "after", field: field, order: order, scope: scope)
        before = try Self.position(
            arguments.before, argument: "before", field: field, order: order, scope: scope)
    }

    /// Validates `first` and `last`: one of them, from 0 to ``ConnectionArguments/maximumCount``.
    ///
    /// - Parameters:
    ///   - arguments: The field's arguments.
    ///   - field: The field's name, for the messages.
    /// - Throws: A `GraphQLError` naming the argument, worded as GitHub's API words it.
    static func count(of arguments: ConnectionArguments, field: String) throws(GraphQLError) -> Count {
        let limit = ConnectionArguments.maximumCount
        for (name, value) in [("first", arguments.first), ("last", arguments.last)] {
            if let value, value < 0 {
                throw ArgumentError.invalid(
                    name, of: field,
                    "Argument `\(name)` on the `\(field)` connection must be between 0 and \(limit); it was \(value)."
                )
            }
            if let value, value > limit {
                throw ArgumentError.invalid(
                    name, of: field,
                    "Requesting \(value) records on the `\(field)` connection exceeds the `\(name)` limit of \(limit) records."
                )
            }
        }
        switch (arguments.first, arguments.last) {
        case (let first?, nil): return .first(first)
        case (nil, let last?): return .last(last)
        case (.some, .some):
            throw ArgumentError.invalid(
                "first", of: field,
                "Passing both `first` and `last` to paginate the `\(field)` connection is not supported.")
        case (nil, nil):
            throw ArgumentError.invalid(
                "first", of: field,
                "You must provide a `first` or `last` value to properly paginate the `\(field)` connection.")
        }
    }

    /// Decodes an optional cursor argument of the newest-first list without filter arguments
    /// (the tutorial's `launches`).
    static func position(_ cursor: String?, argument: String, field: String) throws(GraphQLError)
        -> KeysetPosition?
    {
        let position = try position(
            cursor, argument: argument, field: field, order: .newestFirst, scope: .all)
        guard case .newestFirst(let keyset) = position else { return nil }
        return keyset
    }

    /// Decodes an optional cursor argument, and checks that it belongs to the list of `order`
    /// and the filter arguments of `scope`.
    ///
    /// - Throws: A `GraphQLError` naming the argument when the cursor does not decode or belongs
    ///   to another list.
    static func position(
        _ cursor: String?, argument: String, field: String, order: LaunchOrder, scope: LaunchScope
    ) throws(GraphQLError) -> LaunchListPosition? {
        guard let cursor else { return nil }
        let content: LaunchCursor.Content
        do {
            content = try LaunchCursor.decodeContent(cursor)
        } catch {
            throw ArgumentError.cursor(argument, of: field, error)
        }
        guard content.position.order == order, content.filters == scope.filterFingerprint else {
            throw ArgumentError.foreignCursor(
                argument, of: field, cursorOrder: content.position.order, order: order)
        }
        return content.position
    }
}
