package import GraphQL

/// Text that GraphQLSwift's lexer reads without stopping the process.
///
/// GraphQLSwift (4.3) reads the four hex digits of a `\u` escape without checking for the end
/// of the text: a document whose last five bytes hold a `\u` (`query { a(b: "\u`) stops the
/// process with "String index is out of bounds" instead of a syntax error. `FuzzDocuments`
/// found it (RELIABILITY.md). Every document and schema from outside is read with ``parse(_:name:)``
/// or ``buildSchema(_:name:)``, which give the parser the text through ``lexable(_:)``; no module
/// of the package calls GraphQLSwift's `parse` or `buildSchema` on such text itself.
package enum LexableText {
    /// The text, with four spaces after it when it ends within reach of a `\u` escape; the text
    /// as it is otherwise.
    ///
    /// The spaces give the lexer its four bytes and change nothing else: the escape is then
    /// invalid (a syntax error, as it should be), and spaces at the end of a document mean
    /// nothing in GraphQL.
    /// - Parameter text: a GraphQL document, or a schema in SDL.
    /// - Returns: the text to give the parser.
    /// - Complexity: O(1) for a text it leaves as it is; O(*n*) for one it pads (a copy).
    package static func lexable(_ text: String) -> String {
        let tail = Array(text.utf8.suffix(5))
        let cutOff = tail.indices.dropLast().contains { index in
            tail[index] == UInt8(ascii: "\\") && tail[index + 1] == UInt8(ascii: "u")
        }
        return cutOff ? text + "    " : text
    }

    /// Parses a document from outside (a file, a user's text, a request), through ``lexable(_:)``.
    ///
    /// - Parameters:
    ///   - text: the document.
    ///   - name: the name of its source, which GraphQLSwift's errors give; by default GraphQLSwift's
    ///     own default, "GraphQL".
    /// - Returns: the document.
    /// - Throws: GraphQLSwift's `GraphQLError` on a syntax error.
    /// - Complexity: O(*n*) in the text's length.
    package static func parse(_ text: String, name: String = "GraphQL") throws -> Document {
        try GraphQL.parse(source: Source(body: lexable(text), name: name))
    }

    /// Builds a schema from SDL from outside (a file, a user's text), through ``lexable(_:)``.
    ///
    /// - Parameters:
    ///   - sdl: the schema's SDL.
    ///   - name: the name of its source, which GraphQLSwift's errors give; by default GraphQLSwift's
    ///     own default, "GraphQL".
    /// - Returns: the schema.
    /// - Throws: GraphQLSwift's `GraphQLError` when the SDL does not parse or is not a valid schema.
    /// - Complexity: O(*n*) in the SDL's length, and in the size of the schema it declares.
    package static func buildSchema(_ sdl: String, name: String = "GraphQL") throws -> GraphQLSchema {
        try GraphQL.buildSchema(source: Source(body: lexable(sdl), name: name))
    }
}
