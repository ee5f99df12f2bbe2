import Testing

@testable import PagingGraphQLCore

/// GraphQLSwift's lexer stops the process on a `\u` escape cut off by the end of the text; the
/// guard pads exactly those texts. (The trap itself cannot be shown here: it would end the test
/// process. The documents' and codegen's tests show that such texts now give syntax errors.)
@Suite("LexableText")
struct LexableTextTests {
    @Test(
        "a text whose last five bytes hold a \\u escape gets four spaces after it",
        arguments: [
            #"query { a(b: "\u"#, #"query { a(b: "\u1"#, #"query { a(b: "\u12"#, #"query { a(b: "\u123"#,
            #"{ a(b: "x\\\uuu"#, #"\u"#,
        ])
    func padded(text: String) {
        #expect(LexableText.lexable(text) == text + "    ")
    }

    @Test(
        "any other text is left as it is",
        arguments: [
            #"query { a(b: "\u1234") }"#, #"query { a(b: "\u1234"#, "query { a }", "", "u", "\\",
            #"{ a(b: "\n"#, "# é\\", #""\u12é""#,
        ])
    func untouched(text: String) {
        #expect(LexableText.lexable(text) == text)
    }

    @Test("the bytes are what count, not the characters: a \\u before a two-byte character at the end")
    func bytes() {
        // "é" is two bytes: the u is three bytes from the end.
        let text = #"{ a(b: "\ué"#
        #expect(LexableText.lexable(text) == text + "    ")
    }
}
