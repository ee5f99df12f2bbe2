public import Foundation

/// Reads RFC 8288 `Link` header values, as REST lists give their next page
/// (`<https://api.example.com/items?page=2>; rel="next"`).
public enum LinkHeader {
    /// The target of the first link with a relation type, resolved against a
    /// base URL.
    /// - Parameters:
    ///   - relation: the relation type, such as `next` (compared without
    ///     case; a link may name several, separated by spaces).
    ///   - value: the header's value: `<url>; rel="next", <url>; rel="last"`.
    ///   - base: the URL the header came with, which relative targets resolve against.
    /// - Returns: the target, or `nil` when no link has the relation.
    /// - Complexity: O(*n*) in the length of the value.
    public static func target(of relation: String, in value: String?, base: URL) -> URL? {
        guard let value else { return nil }
        let wanted = relation.lowercased()
        for link in splitLinks(value) {
            guard let open = link.firstIndex(of: "<"), let close = link[open...].firstIndex(of: ">") else {
                continue
            }
            let target = String(link[link.index(after: open)..<close])
            for parameter in link[link.index(after: close)...].split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel"
                else { continue }
                let relations = pair[1].trimmingCharacters(in: .whitespaces)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    .split(separator: " ").map { $0.lowercased() }
                if relations.contains(wanted) { return URL(string: target, relativeTo: base)?.absoluteURL }
            }
        }
        return nil
    }

    /// Splits a header value at the commas between links (not those inside
    /// `<...>` or quotes).
    private static func splitLinks(_ value: String) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var inAngle = false
        var inQuote = false
        for index in value.indices {
            switch value[index] {
            case "<" where !inQuote: inAngle = true
            case ">" where !inQuote: inAngle = false
            case "\"" where !inAngle: inQuote.toggle()
            case "," where !inAngle && !inQuote:
                parts.append(value[start..<index])
                start = value.index(after: index)
            default: break
            }
        }
        parts.append(value[start...])
        return parts
    }
}
