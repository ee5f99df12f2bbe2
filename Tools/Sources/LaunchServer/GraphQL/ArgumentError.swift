import GraphQL

/// GraphQL errors for bad arguments, shaped like GitHub's: a message naming the argument and
/// the field, and `extensions` a client can match on (`code`, `argument`).
enum ArgumentError {
    /// The error code of every bad-argument error.
    static let code = "BAD_USER_INPUT"

    /// An error about one argument of one field.
    ///
    /// - Parameters:
    ///   - argument: The argument's name, such as "first".
    ///   - field: The field's name, such as "launchConnection".
    ///   - message: The full message.
    static func invalid(_ argument: String, of field: String, _ message: String) -> GraphQLError {
        GraphQLError(
            message: message,
            extensions: ["code": .string(code), "argument": .string(argument), "field": .string(field)]
        )
    }

    /// An error about a cursor argument that does not decode.
    static func cursor(_ argument: String, of field: String, _ error: CursorError) -> GraphQLError {
        invalid(
            argument,
            of: field,
            "Argument `\(argument)` of `\(field)` is not a valid cursor: \(error.reason). Pass a cursor that this server returned."
        )
    }

    /// An error about a valid cursor of another list: of another order, or with other filter
    /// arguments, than the request's.
    ///
    /// - Parameters:
    ///   - argument: "after" or "before".
    ///   - field: The field's name.
    ///   - cursorOrder: The order the cursor was written for.
    ///   - order: The order the request asks for.
    static func foreignCursor(
        _ argument: String, of field: String, cursorOrder: LaunchOrder, order: LaunchOrder
    ) -> GraphQLError {
        let reason =
            cursorOrder != order
            ? "it is a cursor of the `\(cursorOrder.rawValue)` order, and this request asks for `\(order.rawValue)`"
            : "it is a cursor of a list with other filters (`search`, `booked`, `site`) than this request's"
        return invalid(
            argument,
            of: field,
            "Argument `\(argument)` of `\(field)` cannot be used here: \(reason). A cursor only pages the list that returned it: pass a cursor from a page of the same order and filters, or none to start again."
        )
    }
}
