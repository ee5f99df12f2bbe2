/// A JSON value: what a GraphQL server sends and accepts, for code that knows
/// no Swift types for it.
///
/// Use it as the variables and the data of an untyped operation, read it with
/// subscripts, and decode a part of it into a type of your own:
///
/// ```swift
/// let response = try await client.send(UntypedOperation(
///     document: "query { launches { cursor hasMore } }"
/// ))
/// let cursor = response.data?["launches"]?["cursor"]?.stringValue
/// let first = response.data?[path: ["launches", "launches", 0, "site"]]
/// ```
///
/// Numbers keep the form they had: a number without a fraction or exponent
/// that fits in `Int` is ``int(_:)``, any other is ``double(_:)``. The two are
/// different values (`.int(1) != .double(1)`); ``doubleValue`` reads both.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number that fits in `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. JSON objects are unordered; so is this dictionary.
    case object([String: JSONValue])
}
