import Paging

/// An item of a test list: an id, and a version that changes when the data is
/// "changed on the server", so a stale page can be told from a fresh one.
struct TestItem: Identifiable, Sendable, Hashable, CustomStringConvertible {
    var id: Int
    var version = 0

    var description: String { version == 0 ? "\(id)" : "\(id)v\(version)" }
}

/// Pages of the list `0..<total`, keyed by offset, as a backend that pages in
/// both directions would return them.
struct NumberList: Sendable {
    var total: Int
    var version = 0

    /// The page a request asks for.
    func page(for request: PageRequest<Int>) -> Page<Int, TestItem> {
        let range = Self.range(for: request, total: total)
        return Page(
            items: range.map { TestItem(id: $0, version: version) },
            previousKey: range.lowerBound > 0 ? range.lowerBound : nil,
            nextKey: range.upperBound < total ? range.upperBound : nil)
    }

    /// The offsets of `0..<total` a request asks for: from its key forward
    /// (from 0 for an initial request without one), or backward to its key
    /// for a previous page.
    static func range(for request: PageRequest<Int>, total: Int) -> Range<Int> {
        switch request.position {
        case .initial(let key):
            let start = min(max(0, key ?? 0), total)
            return start..<min(total, start + request.count)
        case .next(let start):
            return start..<min(total, start + request.count)
        case .previous(let end):
            return max(0, end - request.count)..<end
        }
    }

    /// A source that answers at once.
    var source: ClosurePageSource<Int, TestItem> {
        let list = self
        return ClosurePageSource { list.page(for: $0) }
    }
}

extension PagedItems where Item == TestItem {
    /// The ids, in order.
    var ids: [Int] { map(\.id) }
}

extension PagingConfiguration {
    /// A configuration for tests that must be valid; fails the test otherwise.
    static func testing(
        pageSize: Int = 10, initialLoadSize: Int? = nil, prefetchDistance: Int? = 0,
        maximumHeld: HeldLimit? = nil, refreshPolicy: RefreshPolicy = .restart
    ) throws -> PagingConfiguration {
        try PagingConfiguration(
            pageSize: pageSize, initialLoadSize: initialLoadSize, prefetchDistance: prefetchDistance,
            maximumHeld: maximumHeld, refreshPolicy: refreshPolicy)
    }
}
