import Foundation

/// Writes a ``JSONValue`` as compact JSON text in one pass, without
/// `Encodable`'s dynamic containers.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether object members are written in key order (for stable text).
    let sortsKeys: Bool

    /// The JSON text of a value.
    /// - Complexity: O(*n*) for a value of *n* bytes of text
    ///   (O(*n* log *n*) with sorted keys).
    static func write(_ value: JSONValue, sortingKeys: Bool = false) -> [UInt8] {
        var writer = JSONWriter(sortsKeys: sortingKeys)
        writer.bytes.reserveCapacity(256)
        writer.append(value)
        return writer.bytes
    }

    private mutating func append(_ value: JSONValue) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): bytes.append(contentsOf: String(number).utf8)
        case .double(let number):
            // JSON has no NaN or infinity; a JSONValue made by hand might.
            bytes.append(contentsOf: (number.isFinite ? "\(number)" : "null").utf8)
        case .string(let text): append(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            func member(_ key: String, _ value: JSONValue) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                append(key)
                bytes.append(UInt8(ascii: ":"))
                append(value)
            }
            if sortsKeys {
                for key in members.keys.sorted() {
                    if let value = members[key] { member(key, value) }
                }
            } else {
                for (key, value) in members { member(key, value) }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func append(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case ..<0x20:
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                ])
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
