/// Where a page of a Relay connection lies: whether there is more on each
/// side, and the cursors of its ends (the `pageInfo` of the GraphQL Cursor
/// Connections Specification).
///
/// One type for every layer: ``RelayCursorSource`` pages read it, and the
/// GraphQL connections decode into it.
///
/// Decoding tolerates a selection of only some of the four fields: a missing
/// `hasNextPage` or `hasPreviousPage` reads as `false`, a missing cursor as
/// `nil`. The documents the library rewrites select all four.
public struct PageInfo: Hashable, Sendable {
    /// Whether items follow the page.
    public var hasNextPage: Bool
    /// Whether items precede the page.
    public var hasPreviousPage: Bool
    /// The cursor of the page's first item.
    public var startCursor: String?
    /// The cursor of the page's last item.
    public var endCursor: String?

    /// Creates a page info; by default, that of a page with nothing around it.
    /// - Parameters:
    ///   - hasNextPage: whether items follow.
    ///   - hasPreviousPage: whether items precede.
    ///   - startCursor: the cursor of the first item.
    ///   - endCursor: the cursor of the last item.
    public init(
        hasNextPage: Bool = false, hasPreviousPage: Bool = false, startCursor: String? = nil,
        endCursor: String? = nil
    ) {
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.startCursor = startCursor
        self.endCursor = endCursor
    }
}

extension PageInfo: Codable {
    private enum CodingKeys: String, CodingKey {
        case hasNextPage, hasPreviousPage, startCursor, endCursor
    }

    /// Decodes a Relay `PageInfo` object; missing fields read as `false` or `nil`.
    /// - Throws: `DecodingError` when a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        hasNextPage = try container.decodeIfPresent(Bool.self, forKey: .hasNextPage) ?? false
        hasPreviousPage = try container.decodeIfPresent(Bool.self, forKey: .hasPreviousPage) ?? false
        startCursor = try container.decodeIfPresent(String.self, forKey: .startCursor)
        endCursor = try container.decodeIfPresent(String.self, forKey: .endCursor)
    }

    /// Encodes all four fields, cursors as `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hasNextPage, forKey: .hasNextPage)
        try container.encode(hasPreviousPage, forKey: .hasPreviousPage)
        try container.encode(startCursor, forKey: .startCursor)
        try container.encode(endCursor, forKey: .endCursor)
    }
}
