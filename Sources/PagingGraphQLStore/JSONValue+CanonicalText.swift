extension JSONValue {
    /// The value as compact JSON with object keys sorted: the form arguments
    /// take in a field's storage key. Fast and deterministic, unlike
    /// ``jsonString``, which goes through `JSONEncoder`.
    /// - Complexity: O(*n* log *n*) for an object of *n* members, O(*n*) else.
    var canonicalText: String {
        var text = ""
        appendCanonicalText(to: &text)
        return text
    }

    func appendCanonicalText(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .int(let value): text += String(value)
        case .double(let value): text += String(describing: value)
        case .string(let value): value.appendQuotedLiteral(to: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.appendCanonicalText(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                key.appendQuotedLiteral(to: &text)
                text += ":"
                members[key]?.appendCanonicalText(to: &text)
            }
            text += "}"
        }
    }
}
