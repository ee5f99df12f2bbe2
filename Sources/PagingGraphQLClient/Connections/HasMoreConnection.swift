/// A page in the shape of the Apollo tutorial's `LaunchConnection`: a
/// `cursor`, a `hasMore` flag and a list, whatever the list is called.
///
/// ```graphql
/// launches(pageSize: $pageSize, after: $after) { cursor hasMore launches { id site } }
/// ```
/// ```swift
/// struct Data: Decodable { var launches: HasMoreConnection<Launch> }
/// ```
///
/// Decoding finds the list by itself: it is the one member other than
/// `cursor`, `hasMore` and `__typename` whose value is an array (`launches`
/// above), remembered in ``listField``. When a selection has more than one
/// list, decode with ``init(json:listField:)`` instead. Null list elements
/// are skipped. The connection is a `RandomAccessCollection` of its items.
public struct HasMoreConnection<Node> {
    /// The cursor to ask for the page after this one with.
    public var cursor: String?
    /// Whether items follow this page.
    public var hasMore: Bool
    /// The items of the page, nulls skipped.
    public var items: [Node]
    /// The name of the list member, such as `launches`.
    public var listField: String

    /// Creates a page.
    /// - Parameters:
    ///   - cursor: the cursor of the page's end.
    ///   - hasMore: whether items follow.
    ///   - items: the items.
    ///   - listField: the name of the list member, used when encoding.
    public init(cursor: String?, hasMore: Bool, items: [Node], listField: String = "items") {
        self.cursor = cursor
        self.hasMore = hasMore
        self.items = items
        self.listField = listField
    }
}

extension HasMoreConnection: Sendable where Node: Sendable {}
extension HasMoreConnection: Equatable where Node: Equatable {}
extension HasMoreConnection: Hashable where Node: Hashable {}

extension HasMoreConnection: RandomAccessCollection {
    /// The position of the first item: always 0.
    public var startIndex: Int { 0 }
    /// The position after the last item.
    public var endIndex: Int { items.count }
    /// The item at a position.
    /// - Complexity: O(1).
    public subscript(position: Int) -> Node { items[position] }
}

/// The members of a has-more page other than its list.
private struct HasMoreHead: Decodable {
    var cursor: String?
    var hasMore: Bool
}

struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension HasMoreConnection: Decodable where Node: Decodable {
    /// Decodes `cursor`, `hasMore` and the one list member.
    /// - Throws: `DecodingError.dataCorrupted` when no member or more than
    ///   one member holds a list; `DecodingError` when a field has the
    ///   wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let known: Set = ["cursor", "hasMore", "__typename"]
        let lists = container.allKeys
            .filter { !known.contains($0.stringValue) }
            .filter { (try? container.decode([JSONValue].self, forKey: $0)) != nil }
            .map(\.stringValue)
            .sorted()
        guard lists.count == 1, let listField = lists.first else {
            let problem =
                lists.isEmpty
                ? "No member other than cursor and hasMore holds a list."
                : "Several members hold lists (\(lists.joined(separator: ", "))); decode with init(json:listField:) to choose one."
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: problem))
        }
        self.init(
            cursor: try container.decodeIfPresent(String.self, forKey: AnyCodingKey("cursor")),
            hasMore: try container.decode(Bool.self, forKey: AnyCodingKey("hasMore")),
            items: try container.decode([Node?].self, forKey: AnyCodingKey(listField)).compactMap { $0 },
            listField: listField
        )
    }

    /// Decodes a page from JSON whose list member is named.
    /// - Parameters:
    ///   - json: the connection object, such as `data["launches"]`.
    ///   - listField: the name of the list member.
    /// - Throws: `DecodingError` when the JSON does not have the shape.
    public init(json: JSONValue, listField: String) throws {
        let head = try json.decode(HasMoreHead.self)
        guard let list = json[listField] else {
            throw DecodingError.keyNotFound(
                AnyCodingKey(listField),
                .init(codingPath: [], debugDescription: "The connection has no member \"\(listField)\".")
            )
        }
        self.init(
            cursor: head.cursor,
            hasMore: head.hasMore,
            items: try list.decode([Node?].self).compactMap { $0 },
            listField: listField
        )
    }
}

extension HasMoreConnection: Encodable where Node: Encodable {
    /// Encodes `cursor`, `hasMore` and the items under ``listField``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(cursor, forKey: AnyCodingKey("cursor"))
        try container.encode(hasMore, forKey: AnyCodingKey("hasMore"))
        try container.encode(items, forKey: AnyCodingKey(listField))
    }
}
