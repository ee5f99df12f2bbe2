/// Why a GraphQL document cannot be paged, found when the document is
/// analysed, before anything is sent.
///
/// The ``description`` names the problem and, where the document shows it,
/// the line and column:
///
/// ```swift
/// do {
///     let document = try ConnectionDocument(text)
/// } catch {
///     print(error)
///     // The connection field "launches" (line 2, column 3) gives its
///     // pagination argument "after" as the literal "c1"; pass a variable
///     // instead, such as after: $after, so the pager can set it.
/// }
/// ```
public struct GraphQLDocumentError: Error, Hashable, Sendable {
    /// The code of a ``GraphQLDocumentError``: what kind of problem it is; compare with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The document does not parse.
        public static var syntax: Self { Self("syntax") }
        /// No operation, several without a name chosen, or the named one is missing.
        public static var operation: Self { Self("operation") }
        /// A fragment spread names a fragment the document does not define.
        public static var unknownFragment: Self { Self("unknownFragment") }
        /// No field carries `@connection` (with the key asked for).
        public static var noConnection: Self { Self("noConnection") }
        /// More than one field carries `@connection`, and no key chose one;
        /// or the chosen one is reached by more than one path.
        public static var ambiguousConnection: Self { Self("ambiguousConnection") }
        /// The connection field selects neither `edges { node }` nor `nodes`.
        public static var noEdgesOrNodes: Self { Self("noEdgesOrNodes") }
        /// A pagination argument is a literal, or none is given, or its
        /// variable is not declared.
        public static var paginationArguments: Self { Self("paginationArguments") }
        /// A fragment to refetch lacks `@refetchable(queryName:)` or
        /// `@argumentDefinitions`, or they are malformed.
        public static var refetchable: Self { Self("refetchable") }

        /// The name of the code, such as `noConnection`.
        public var description: String { name }
    }

    /// What kind of problem this is, for code to branch on.
    public let code: Code
    /// The problem, as a sentence a person can act on.
    public let message: String
    /// The line of the document where the problem lies, from 1, when known.
    public let line: Int?
    /// The column of the document where the problem lies, from 1, when known.
    public let column: Int?

    package init(_ code: Code, _ message: String, line: Int? = nil, column: Int? = nil) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
    }
}

extension GraphQLDocumentError: CustomStringConvertible {
    /// The message; for a syntax error, prefixed with its line and column.
    public var description: String { message }
}
