import Paging

/// A row of a numbered list: its number is its identity.
public struct NumberedRow: Identifiable, Sendable, Hashable {
    /// The row's number, its place in the whole list.
    public let id: Int
    /// Creates a row.
    public init(id: Int) { self.id = id }
}

/// A page source over the numbers `0 ..< pageCount × pageSize`, page `k` holding
/// `k × pageSize ..< (k + 1) × pageSize`: answers at once, builds each page on demand, holds
/// nothing. What the engine benchmarks page through.
public struct NumberedSource: PageSource {
    /// The rows per page, whatever the request asks.
    public let pageSize: Int
    /// The pages in the list.
    public let pageCount: Int

    /// Creates the source.
    public init(pageSize: Int, pageCount: Int) {
        self.pageSize = pageSize
        self.pageCount = pageCount
    }

    /// Loads the page a request's key names (page 0 for no key).
    public func load(_ request: PageRequest<Int>) async throws -> Page<Int, NumberedRow> {
        let page: Int
        switch request.position {
        case .initial(let key): page = key ?? 0
        case .next(let key): page = key
        case .previous(let key): page = key
        }
        let rows = (page * pageSize..<(page + 1) * pageSize).map(NumberedRow.init(id:))
        return Page(
            items: rows, previousKey: page > 0 ? page - 1 : nil,
            nextKey: page + 1 < pageCount ? page + 1 : nil)
    }
}
