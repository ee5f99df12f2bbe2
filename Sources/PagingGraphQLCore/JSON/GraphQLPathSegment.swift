/// One step of a path into a GraphQL response: a field's response key or an
/// index into a list.
///
/// GraphQL errors carry such paths (`["launches", "launches", 3, "site"]`),
/// and `ConnectionDocument/connectionPath` tells where a connection sits.
/// String and integer literals make segments:
///
/// ```swift
/// let path: [GraphQLPathSegment] = ["viewer", "launches", 0]
/// print(GraphQLPathSegment.describe(path)) // viewer.launches[0]
/// ```
public enum GraphQLPathSegment: Hashable, Sendable {
    /// The response key of a field (its alias, or its name).
    case key(String)
    /// An index into a list.
    case index(Int)

    /// A path as text: keys joined by dots, indices in brackets, for example
    /// `launches.edges[0].node`; `(root)` for the empty path.
    /// - Parameter path: the segments.
    /// - Returns: the text.
    public static func describe(_ path: [GraphQLPathSegment]) -> String {
        guard !path.isEmpty else { return "(root)" }
        var text = ""
        for segment in path {
            switch segment {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

extension GraphQLPathSegment: CustomStringConvertible {
    /// The key, or the index in brackets.
    public var description: String {
        switch self {
        case .key(let key): key
        case .index(let index): "[\(index)]"
        }
    }
}

extension GraphQLPathSegment: ExpressibleByStringLiteral {
    /// A string literal is a ``key(_:)``.
    public init(stringLiteral value: String) { self = .key(value) }
}

extension GraphQLPathSegment: ExpressibleByIntegerLiteral {
    /// An integer literal is an ``index(_:)``.
    public init(integerLiteral value: Int) { self = .index(value) }
}

extension GraphQLPathSegment: Codable {
    /// Decodes a string as a key and an integer as an index.
    /// - Throws: `DecodingError.typeMismatch` for any other value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let index = try? container.decode(Int.self) {
            self = .index(index)
        } else if let key = try? container.decode(String.self) {
            self = .key(key)
        } else {
            throw DecodingError.typeMismatch(
                GraphQLPathSegment.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "A path segment must be a string or an integer.")
            )
        }
    }

    /// Encodes a key as a string and an index as an integer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .key(let key): try container.encode(key)
        case .index(let index): try container.encode(index)
        }
    }
}
