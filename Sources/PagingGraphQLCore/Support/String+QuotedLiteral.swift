extension String {
    /// Appends the string as a JSON string literal, which GraphQL reads as
    /// the same string: `"`, `\` and control characters escaped
    /// (`\n`, `\r`, `\t`, `\u001f`), everything else as it is.
    ///
    /// The store's canonical text of arguments and the generator's SDL both
    /// write strings this way; the store's keys depend on the exact bytes,
    /// so the escapes do not change.
    /// - Parameter text: the text to append to.
    /// - Complexity: O(*n*) for a string of *n* scalars.
    package func appendQuotedLiteral(to text: inout String) {
        text += "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
