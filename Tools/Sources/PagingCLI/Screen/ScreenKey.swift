/// A key the list screen understands.
enum ScreenKey: Sendable, Hashable {
    case up, down, pageUp, pageDown, home, end, enter, escape, backspace, interrupt
    /// A printable character, such as `q`, `j`, `R`.
    case character(Character)

    /// Splits bytes read from a terminal in raw mode into keys: arrows and paging keys in their
    /// VT100/xterm escape sequences, Enter, Ctrl-C, printable characters. Unknown sequences are
    /// dropped.
    /// - Parameter bytes: what one read returned.
    /// - Returns: the keys, in order.
    static func decode(_ bytes: [UInt8]) -> [ScreenKey] {
        var keys: [ScreenKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                let (key, length) = escapeSequence(bytes, at: index)
                if let key { keys.append(key) }
                index += length
                continue
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x03: keys.append(.interrupt)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x20...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            default: break
            }
            index += 1
        }
        return keys
    }

    /// The key of an escape sequence starting at `start`, and its length in bytes.
    private static func escapeSequence(_ bytes: [UInt8], at start: Int) -> (ScreenKey?, Int) {
        guard start + 1 < bytes.count else { return (.escape, 1) }
        let introducer = bytes[start + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { return (.escape, 1) }
        // CSI: parameters (digits and ;) then one final byte.
        var end = start + 2
        while end < bytes.count, (0x30...0x3F).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return (nil, bytes.count - start) }
        let parameters = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let length = end - start + 1
        switch bytes[end] {
        case UInt8(ascii: "A"): return (.up, length)
        case UInt8(ascii: "B"): return (.down, length)
        case UInt8(ascii: "H"): return (.home, length)
        case UInt8(ascii: "F"): return (.end, length)
        case UInt8(ascii: "~"):
            switch parameters {
            case "5": return (.pageUp, length)
            case "6": return (.pageDown, length)
            case "1", "7": return (.home, length)
            case "4", "8": return (.end, length)
            default: return (nil, length)
            }
        default: return (nil, length)
        }
    }
}
