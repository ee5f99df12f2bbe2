/// Why a GraphQL pager could not make the request for a page, or could not
/// be made.
///
/// Failures of the request itself are ``GraphQLClientError``s; this type
/// covers the pager's own rules:
///
/// - ``Code/noQuery``: a ``GraphQLQuerySource``'s `pageResolver` returned
///   `nil` for a page the pager had been told exists (the resolver must give
///   the same answer each time it is asked).
/// - ``Code/initialKey``: a ``GraphQLQuerySource`` was asked to open at a key;
///   it always opens with its initial query.
/// - ``Code/nodeID``: a ``PaginationFragment`` on a `Node` type was made
///   without the node's id, or one on `Query` or `Viewer` with one.
///
/// A pager's load reports it as the underlying error of a `PagingError`.
public struct GraphQLPagerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The code of a ``GraphQLPagerError``: what kind of problem it is; compare with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The page resolver gave no query for a page the pager expected.
        public static var noQuery: Self { Self("noQuery") }
        /// The pager was asked to open at a key.
        public static var initialKey: Self { Self("initialKey") }
        /// A pagination fragment's node id is missing or not wanted.
        public static var nodeID: Self { Self("nodeID") }

        /// The code's name, such as `noQuery`.
        public var description: String { name }
    }

    /// What kind of problem this is, for code to branch on.
    public let code: Code
    /// What went wrong and what to do, in a sentence or two.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
