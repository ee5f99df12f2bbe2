import Foundation
import Testing

@testable import PagingGraphQLCore

@Suite("reading and writing JSON in one pass")
struct JSONReaderTests {
    private func read(_ text: String) throws -> JSONValue {
        try JSONReader.read(Data(text.utf8))
    }

    @Test("values of every kind, numbers keeping their form")
    func values() throws {
        let value = try read(
            #" { "a": [1, -2, 0, 1.5, -0.25, 1e3, 2E-2, 9223372036854775807, 9223372036854775808], "b": true, "c": false, "d": null, "e": {}, "f": [] } "#
        )
        let expected: JSONValue = .object([
            "a": .array([
                .int(1), .int(-2), .int(0), .double(1.5), .double(-0.25), .double(1000), .double(0.02),
                .int(Int.max), .double(9_223_372_036_854_775_808),
            ]),
            "b": .bool(true), "c": .bool(false), "d": .null, "e": .object([:]), "f": .array([]),
        ])
        #expect(value == expected)
    }

    @Test("strings with escapes, surrogate pairs and UTF-8")
    func strings() throws {
        #expect(try read(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try read(#""\u00e9\u4e2d\ud83d\ude80""#) == .string("é中🚀"))
        #expect(try read("\"é中🚀\"") == .string("é中🚀"))
        #expect(try read(#"{"k\u0041y": 1, "kAy": 2}"#) == .object(["kAy": .int(2)]))
    }

    @Test(
        "malformed text is refused with the byte where reading stopped",
        arguments: [
            ("", 0), ("[1,]", 3), ("{\"a\" 1}", 5), ("[1 2]", 3), ("\"abc", 4), ("tru", 0), ("01", 1),
            ("1.", 2), ("1e", 2), ("\"\\x\"", 3), ("\"\\ud83d\"", 7), ("\"\u{1}\"", 1), ("{} x", 3),
            ("NaN", 0),
        ])
    func malformed(text: String, offset: Int) {
        #expect {
            try read(text)
        } throws: { error in
            (error as? JSONReader.Failure)?.offset == offset
        }
    }

    @Test(
        "a string that is not UTF-8 is refused, with escapes before it or not; U+FFFD itself is text",
        arguments: [
            [0x22, 0xFF, 0x22],  // a byte no UTF-8 has
            [0x22, 0x61, 0xC3, 0x22],  // a sequence cut short
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // a surrogate, encoded
            [0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22],  // after an escape: the other path
        ] as [[UInt8]])
    func notUTF8(bytes: [UInt8]) {
        #expect {
            try JSONReader.read(Data(bytes))
        } throws: { error in
            (error as? JSONReader.Failure)?.message == "a string is not valid UTF-8"
        }
    }

    @Test("U+FFFD in the text is read as it is, not taken for a repair")
    func replacementCharacter() throws {
        #expect(try JSONReader.read(Data([0x22, 0xEF, 0xBF, 0xBD, 0x22])) == .string("\u{FFFD}"))
        #expect(
            try JSONReader.read(Data([0x22, 0x5C, 0x6E, 0xEF, 0xBF, 0xBD, 0x22])) == .string("\n\u{FFFD}"))
    }

    @Test("nesting deeper than 512 levels is refused, not a stack overflow")
    func deepNesting() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONReader.Failure.self) { try read(deep) }
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try read(allowed) }
    }

    @Test("decodeChecked refuses what the reader refuses before JSONDecoder sees it, and decodes the rest")
    func decodeChecked() throws {
        // 513 unclosed brackets: JSONDecoder alone traps on them.
        let brackets = Data(String(repeating: "[", count: 513).utf8)
        #expect {
            _ = try JSONDecoder().decodeChecked([String].self, from: brackets)
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
            return context.debugDescription.contains("invalid JSON at byte")
        }
        #expect(try JSONDecoder().decodeChecked([Int].self, from: Data("[1, 2]".utf8)) == [1, 2])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decodeChecked([Int].self, from: Data("[\"a\"]".utf8))
        }
    }

    @Test("the writer escapes what JSON requires and reads back equal")
    func writer() throws {
        let value: JSONValue = .object([
            "text": .string("quote \" backslash \\ newline \n tab \t bell \u{7} é 🚀 /"),
            "numbers": .array([.int(-3), .double(2.5), .double(1e-5)]),
            "nested": .object(["null": .null, "flag": .bool(false)]),
        ])
        let text = value.jsonString
        #expect(text.hasPrefix(#"{"nested":{"flag":false,"null":null},"numbers":[-3,2.5,"#))
        #expect(text.contains(#"\u0007"#))
        #expect(try read(text) == value)
        #expect(try JSONValue(json: value.jsonData(sortingKeys: false)) == value)
    }
}
