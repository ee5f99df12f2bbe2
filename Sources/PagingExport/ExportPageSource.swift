import Paging
import PagingGraphQLClient

/// One item of an export, as the engine's pager holds it.
struct ExportItem: Identifiable, Sendable {
    /// Which item it is: the cursor its page was requested with, and its
    /// place in that page. Unique while no cursor comes back, which the
    /// pager reports (`PagingError.Code.repeatedKey`) instead of following it.
    struct ID: Hashable, Sendable {
        /// The cursor the page was requested with (`nil` for the start of the list).
        var page: String?
        /// The item's place in its page.
        var index: Int
    }

    /// The item's identity.
    var id: ID
    /// The item, as written.
    var value: JSONValue
    /// The cursor that resumes right after this item, when the source knows it.
    var resumeCursor: String?
    /// The number of items in the whole list, when the source tells.
    var totalCount: Int?
    /// Whether a GraphQL error put a `null` in the item.
    var hasNullFromError = false
}

/// An ``ExportSource`` as a page source of the engine, keyed by cursor: what
/// lets an export run on the same `Pager` as every list of the library
/// (repeated-cursor detection, a window that holds two pages however long
/// the export).
///
/// A page whose data came with GraphQL errors is refused or accepted as
/// ``partialData`` says.
struct ExportPageSource: PageSource {
    /// Where pages come from.
    let source: any ExportSource
    /// What to do with a page whose data came with errors.
    var partialData = PartialDataHandling.refuse

    func load(_ request: PageRequest<String>) async throws -> Page<String, ExportItem> {
        // An export only pages forward from where it starts.
        if case .previous = request.position { return Page(items: []) }
        let cursor = request.key
        let page = try await source.page(at: cursor, count: request.count)
        if !page.errors.isEmpty {
            let report = PartialDataReport(request: request, errors: page.errors)
            switch partialData {
            case .refuse: throw PartialDataError(report: report)
            case .accept(let handler): handler(report, page.missingItems)
            }
        }
        var items: [ExportItem] = []
        items.reserveCapacity(page.items.count)
        for (index, value) in page.items.enumerated() {
            items.append(
                ExportItem(
                    id: ExportItem.ID(page: cursor, index: index), value: value,
                    resumeCursor: index < page.resumeCursors.count ? page.resumeCursors[index] : nil,
                    totalCount: page.totalCount, hasNullFromError: page.itemsWithErrors.contains(index)))
        }
        return Page(items: items, nextKey: page.next)
    }
}
