/// An error the GraphQL server reported in a response's `errors` list.
///
/// (It was called `GraphQLError`, a name GraphQLSwift also uses.)
///
/// Such errors come with data (a field failed, the rest succeeded: see
/// `GraphQLResponse`) or without (the operation failed as a whole: see
/// `GraphQLClientError`).
public struct GraphQLResponseError: Error, Hashable, Sendable {
    /// A place in the GraphQL document, counted from 1.
    public struct Location: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The line, from 1.
        public var line: Int
        /// The column, from 1.
        public var column: Int

        /// Creates a location.
        /// - Parameters:
        ///   - line: the line, from 1.
        ///   - column: the column, from 1.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// `line 3, column 5`.
        public var description: String { "line \(line), column \(column)" }
    }

    /// What went wrong, as the server put it.
    public var message: String
    /// Where in the document the error lies; empty when the server gave none.
    public var locations: [Location]
    /// The response path of the field that failed, such as
    /// `["launches", "launches", 3, "site"]`; `nil` when the error is not
    /// about one field.
    public var path: [GraphQLPathSegment]?
    /// Whatever else the server attached, such as an error `code`.
    public var extensions: [String: JSONValue]?

    /// The server's code for the error, its `extensions.code` (a convention
    /// of Apollo Server and others, such as `UNAUTHENTICATED`), or `nil`
    /// when it gave none. Like every error of the libraries it has a code and
    /// a ``message``; here the code is the server's own string.
    public var code: String? { extensions?["code"]?.stringValue }

    /// Creates an error.
    /// - Parameters:
    ///   - message: what went wrong.
    ///   - locations: where in the document.
    ///   - path: the response path of the failed field.
    ///   - extensions: further information.
    public init(
        message: String, locations: [Location] = [], path: [GraphQLPathSegment]? = nil,
        extensions: [String: JSONValue]? = nil
    ) {
        self.message = message
        self.locations = locations
        self.path = path
        self.extensions = extensions
    }
}

extension GraphQLResponseError: Codable {
    private enum CodingKeys: String, CodingKey {
        case message, locations, path, extensions
    }

    /// Decodes an error of the GraphQL response format; `locations` may be
    /// missing or `null`.
    /// - Throws: `DecodingError` when `message` is missing or not a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message = try container.decode(String.self, forKey: .message)
        locations = try container.decodeIfPresent([Location].self, forKey: .locations) ?? []
        path = try container.decodeIfPresent([GraphQLPathSegment].self, forKey: .path)
        extensions = try container.decodeIfPresent([String: JSONValue].self, forKey: .extensions)
    }

    /// Encodes the error in the GraphQL response format.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(message, forKey: .message)
        if !locations.isEmpty { try container.encode(locations, forKey: .locations) }
        try container.encodeIfPresent(path, forKey: .path)
        try container.encodeIfPresent(extensions, forKey: .extensions)
    }
}

extension GraphQLResponseError: CustomStringConvertible {
    /// The message, then the path and locations when known, for example
    /// `Cannot return null for site (at launches.launches[3], line 4, column 7)`.
    public var description: String {
        var places: [String] = []
        if let path, !path.isEmpty { places.append("at \(GraphQLPathSegment.describe(path))") }
        places += locations.map(\.description)
        return places.isEmpty ? message : "\(message) (\(places.joined(separator: ", ")))"
    }
}
