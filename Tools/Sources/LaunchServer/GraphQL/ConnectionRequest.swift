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
    /// The `after` cursor's position: only launches older than it.
    let after: KeysetPosition?
    /// The `before` cursor's position: only launches newer than it.
    let before: KeysetPosition?

    /// Validates arguments the way GitHub's GraphQL API does.
    ///
    /// - Parameters:
    ///   - arguments: The field's arguments.
    ///   - field: The field's name, for the messages.
    /// - Throws: A `GraphQLError` naming the argument when `first` or `last` is outside
    ///   0...100, both or neither are given, or a cursor does not decode.
    init(_ arguments: ConnectionArguments, field: String) throws(GraphQLError) {
        count = try Self.count(of: arguments, field: field)
        after = try Self.position(arguments.after, argument: "after", field: field)
        before = try Self.position(arguments.before, argument: "before", field: field)
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

    /// Decodes an optional cursor argument.
    static func position(_ cursor: String?, argument: String, field: String) throws(GraphQLError)
        -> KeysetPosition?
    {
        guard let cursor else { return nil }
        do {
            return try LaunchCursor.decode(cursor)
        } catch {
            throw ArgumentError.cursor(argument, of: field, error)
        }
    }
}
