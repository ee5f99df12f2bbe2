/// Text that GraphQLSwift's lexer reads without stopping the process: the launch server's and the
/// `paging` command line's guard on every document from outside, before GraphQLSwift parses it.
///
/// GraphQLSwift (4.3) reads the four hex digits of a `\u` escape without checking for the end
/// of the text: a document whose last five bytes hold a `\u` (`{ launch(id: "\u`) stops the
/// process with "String index is out of bounds" instead of a syntax error. One request with such
/// a `query` would stop `paging serve`. `FuzzDocuments` found it (RELIABILITY.md). The root
/// package has the same guard for its own parsing (`PagingGraphQLCore`); `LaunchServer` imports
/// no module of the root package, so it keeps its own.
public enum LexableText {
    /// The text, with four spaces after it when it ends within reach of a `\u` escape; the text
    /// as it is otherwise.
    ///
    /// The spaces give the lexer its four bytes and change nothing else: the escape is then
    /// invalid (a syntax error, as it should be), and spaces at the end of a document mean
    /// nothing in GraphQL.
    /// - Parameter text: a GraphQL document.
    /// - Returns: the text to give the parser.
    /// - Complexity: O(1) for a text it leaves as it is; O(*n*) for one it pads (a copy).
    public static func lexable(_ text: String) -> String {
        let tail = Array(text.utf8.suffix(5))
        let cutOff = tail.indices.dropLast().contains { index in
            tail[index] == UInt8(ascii: "\\") && tail[index + 1] == UInt8(ascii: "u")
        }
        return cutOff ? text + "    " : text
    }
}
