package import Foundation

/// Reads JSON text into a ``JSONValue`` in one pass over its UTF-8 bytes.
///
/// Foundation's `JSONDecoder` reaches a ``JSONValue`` through `Decodable`, a
/// dynamic container per value; on a page of a hundred nodes that is most of
/// the client's time. This reader builds the values directly (RFC 8259: no
/// comments, no trailing commas, no `NaN`; numbers keep their form as
/// ``JSONValue`` describes; a repeated object key keeps its last value) and
/// stops at 512 levels of nesting, so hostile input cannot exhaust the stack.
package struct JSONReader {
    /// JSON text that cannot be read.
    package struct Failure: Error, CustomStringConvertible {
        /// What is wrong.
        package let message: String
        /// The byte offset where reading stopped.
        package let offset: Int
        package var description: String { "invalid JSON at byte \(offset): \(message)" }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0
    private static let maximumDepth = 512

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads one JSON value, with nothing after it but whitespace.
    /// - Complexity: O(*n*) for *n* bytes.
    package static func read(_ data: Data) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure> = data.withUnsafeBytes { raw in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self))
            return Result { () throws(Failure) -> JSONValue in
                reader.skipWhitespace()
                let value = try reader.value()
                reader.skipWhitespace()
                guard reader.position == reader.bytes.count else {
                    throw reader.failure("unexpected text after the value")
                }
                return value
            }
        }
        return try result.get()
    }

    private func failure(_ message: String) -> Failure {
        Failure(message: message, offset: position)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard let byte = current else { throw failure("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character '\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let length = word.utf8CodeUnitCount
        guard position + length <= bytes.count else { throw failure("expected \(word)") }
        for offset in 0..<length where bytes[position + offset] != word.utf8Start[offset] {
            throw failure("expected \(word)")
        }
        position += length
        return value
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw failure("nested deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name in quotes") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
            position += 1
            skipWhitespace()
            members[key] = try value()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(members)
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func string() throws(Failure) -> String {
        position += 1
        let start = position
        // Fast path: no escape.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = try validated(start..<position)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("a control character in a string must be escaped") }
            position += 1
        }
        var scalars = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = scalars.withUnsafeBufferPointer(Self.text(ifValidUTF8:)) else {
                    throw failure("a string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &scalars)
            case ..<0x20:
                throw failure("a control character in a string must be escaped")
            default:
                scalars.append(byte)
                position += 1
            }
        }
        throw failure("a string is not closed")
    }

    private func validated(_ range: Range<Int>) throws(Failure) -> String {
        guard let text = Self.text(ifValidUTF8: UnsafeBufferPointer(rebasing: bytes[range])) else {
            throw failure("a string is not valid UTF-8")
        }
        return text
    }

    /// The text of `utf8` when it is valid UTF-8, else `nil`, in O(n). `String(validating:as:)`
    /// does this from iOS 18 and macOS 15, later than the package's floors (iOS 17, macOS 14).
    /// Decoding replaces each invalid sequence with U+FFFD, which changes the bytes, so the
    /// decoded text is the input's own exactly when its UTF-8 is the input.
    private static func text(ifValidUTF8 utf8: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: utf8, as: UTF8.self)
        return text.utf8.elementsEqual(utf8) ? text : nil
    }

    private mutating func escape(into scalars: inout [UInt8]) throws(Failure) {
        guard let byte = current else { throw failure("a string ends inside an escape") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(byte)
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800...0xDBFF).contains(code) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw failure("a high surrogate is not followed by a low one") }
                position += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw failure("a high surrogate is not followed by a low one")
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw failure("a low surrogate without a high one")
            }
            guard let scalar = Unicode.Scalar(code) else { throw failure("an invalid \\u escape") }
            UTF8.encode(scalar) { scalars.append($0) }
        default:
            throw failure("an invalid escape '\\\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("a \\u escape needs four hex digits") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits")
            }
            code = code << 4 | UInt32(digit)
            position += 1
        }
        return code
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw failure("a number needs a digit")
        }
        if first == UInt8(ascii: "0") {
            position += 1
        } else {
            skipDigits()
        }
        var integral = true
        if current == UInt8(ascii: ".") {
            integral = false
            position += 1
            guard skipDigits() > 0 else { throw failure("a number needs digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            integral = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw failure("a number needs digits in its exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else {
            throw failure("the number \(text) is out of range")
        }
        return .double(value)
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            position += 1
        }
        return position - start
    }
}

extension JSONDecoder {
    /// Decodes bytes from outside (a server's body, a file's row) only once ``JSONReader`` has
    /// accepted them as JSON.
    ///
    /// Foundation's decoder traps, ending the process, on some text that is not JSON (513
    /// unclosed brackets, found by the `FuzzResponse` fuzz target); JSON that the reader
    /// accepts, nested at most 512 levels deep, is decoded or refused with an error.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: the bytes.
    /// - Returns: the decoded value.
    /// - Throws: `DecodingError.dataCorrupted` naming the byte where the text stops being JSON;
    ///   the decoder's own errors otherwise.
    /// - Complexity: O(*n*) for *n* bytes, read twice.
    package func decodeChecked<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        // JSONValue(json:) is the reader, its failure a DecodingError naming the byte.
        _ = try JSONValue(json: data)
        return try decode(type, from: data)
    }
}
