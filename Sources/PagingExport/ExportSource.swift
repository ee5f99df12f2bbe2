public import PagingGraphQLClient

/// A page of items to export, in export order, and where the next page starts.
public struct ExportPage: Sendable {
    /// The items, in the order they are written.
    public var items: [JSONValue]
    /// The cursor that resumes right after each item, when the source knows
    /// it; parallel to ``items`` (shorter when the source does not know).
    public var resumeCursors: [String?]
    /// The cursor of the next page; `nil` when this page is the last.
    public var next: String?
    /// The number of items in the whole list, when the source tells.
    public var totalCount: Int?
    /// The GraphQL errors that came next to the page's data; empty when none did.
    public var errors: [GraphQLResponseError]
    /// The positions in ``items`` of the items an error put a `null` in.
    public var itemsWithErrors: Set<Int>
    /// The number of the page's items an error made `null` as a whole,
    /// which ``items`` leaves out.
    public var missingItems: Int

    /// Creates a page.
    /// - Parameters:
    ///   - items: the items, in export order.
    ///   - resumeCursors: the cursor that resumes right after each item, when known.
    ///   - next: the cursor of the next page; `nil` for the last page.
    ///   - totalCount: the number of items in the whole list, when known.
    ///   - errors: the GraphQL errors that came with the page's data.
    ///   - itemsWithErrors: the positions of the items an error put a `null` in.
    ///   - missingItems: the number of items an error made `null` as a whole.
    public init(
        items: [JSONValue], resumeCursors: [String?] = [], next: String?, totalCount: Int? = nil,
        errors: [GraphQLResponseError] = [], itemsWithErrors: Set<Int> = [], missingItems: Int = 0
    ) {
        self.items = items
        self.resumeCursors = resumeCursors
        self.next = next
        self.totalCount = totalCount
        self.errors = errors
        self.itemsWithErrors = itemsWithErrors
        self.missingItems = missingItems
    }
}

/// Where an ``Exporter`` reads pages from: a position (a cursor, or `nil`
/// for the start) in, a page and the next position out.
///
/// A cursor a source returns, given back to it, resumes the export with
/// nothing lost and nothing repeated: that is what makes an export that
/// stopped (a failure, an interruption, a limit) continue where it stopped.
/// ``RESTListSource`` reads a REST list; a GraphQL connection is exported
/// from its query (``GraphQLExportQuery``,
/// ``Exporter/init(client:query:variables:backward:layout:concurrency:settings:partialData:)``).
public protocol ExportSource: Sendable {
    /// Loads the page at a position.
    /// - Parameters:
    ///   - cursor: where the page starts; `nil` for the start of the export.
    ///   - count: how many items to ask for (a source whose pages have a
    ///     fixed size may ignore it).
    /// - Throws: ``ExportError`` for an answer that cannot be used, the
    ///   transport's or client's error otherwise.
    func page(at cursor: String?, count: Int) async throws -> ExportPage
}
