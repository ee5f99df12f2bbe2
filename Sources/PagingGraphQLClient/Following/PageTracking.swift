import Paging
import PagingLock

/// Following by page, for a ``GraphQLQuerySource``: items made by a
/// transform have no record of their own, so a unit is a loaded page, named
/// by a number, read again as its query and transform.
///
/// A unit keeps its last read, so a change reaches it only when it changed
/// a field the page's query read: a change costs the pages that read it,
/// never the list.
struct PageTracking<Item: Identifiable & Sendable>: StoreTracking where Item.ID: Sendable {
    typealias UnitID = Int

    /// A page's query, and how to make its items from the query's data.
    struct Reading: Sendable {
        let operation: StoreOperation
        let items: @Sendable (JSONValue) throws -> [Item]
    }

    /// The items of a page.
    typealias Shown = [Item]

    static var keepsReads: Bool { true }

    /// Numbers the pages learned.
    private let pages = PageNumbers()

    /// The unit of a loaded page, read from the store.
    /// - Parameters:
    ///   - operation: the operation the page was loaded with.
    ///   - ids: the ids of the page's items.
    ///   - items: makes the page's items from the operation's data.
    ///   - store: the store.
    /// - Returns: the unit, numbered.
    /// - Complexity: one read of the operation.
    func unit(
        _ operation: StoreOperation, ids: [Item.ID], items: @escaping @Sendable (JSONValue) throws -> [Item],
        in store: GraphQLStore
    ) -> (id: Int, unit: FollowedUnit<Reading, Item.ID>) {
        let read = store.read(operation)
        let number = pages.next()
        let unit = FollowedUnit(
            reading: Reading(operation: operation, items: items), ids: ids,
            records: Array(read.dependencyLists.keys), read: read)
        return (number, unit)
    }

    /// The page, if its items are `Equatable` and those its query makes of
    /// the store's data now differ from the page's. (Items that cannot be
    /// compared are taken as they came.)
    /// - Complexity: one read of the operation and its transform, for
    ///   `Equatable` items; O(1) otherwise.
    func changed(
        _ learned: [(id: Int, unit: FollowedUnit<Reading, Item.ID>)], since shown: [Item],
        in store: GraphQLStore
    ) -> [Int] {
        guard shown.first is any Equatable else { return [] }
        return learned.compactMap { id, unit in
            guard let data = store.read(unit.reading.operation).data,
                let items = try? unit.reading.items(data)
            else { return nil }
            return items.count == shown.count && zip(items, shown).allSatisfy(equalIfEquatable) ? nil : id
        }
    }

    func reread(
        _ unit: FollowedUnit<Reading, Item.ID>, id: Int, held: [Item.ID: Item], in store: GraphQLStore
    ) -> UnitRead<Item> {
        let read = store.read(unit.reading.operation)
        guard let data = read.data, let items = try? unit.reading.items(data) else { return .unreadable }
        return .items(items, read: read, records: Array(read.dependencyLists.keys))
    }

    func retain(
        _ units: [(id: Int, unit: FollowedUnit<Reading, Item.ID>)], ids: [Int], in store: GraphQLStore
    ) -> [StoreRetainToken] {
        units.map { store.retain($0.unit.reading.operation) }
    }

    func connectionEdits(of change: StoreChange) -> [FollowedConnectionEdit<Int, Reading, Item.ID>] {
        []
    }
}

extension StoreFollower {
    /// Follows a loaded page of a ``GraphQLQuerySource``.
    /// - Parameters:
    ///   - operation: the operation the page was loaded with.
    ///   - page: the page's items.
    ///   - request: the request that loaded the page.
    ///   - items: makes the page's items from the operation's data.
    /// - Complexity: one read of the operation (two and a transform for
    ///   `Equatable` items).
    func track<Item>(
        _ operation: StoreOperation, page: [Item], for request: PageRequest<Key>,
        items: @escaping @Sendable (JSONValue) throws -> [Item]
    ) where Tracking == PageTracking<Item> {
        learn(
            [tracking.unit(operation, ids: page.map(\.id), items: items, in: store)], shown: page,
            written: nil, for: request)
    }
}

/// Hands out page numbers, from any thread.
private final class PageNumbers: Sendable {
    private let last = Lock(0)

    /// A number not handed out before.
    func next() -> Int {
        last.withLock { last in
            last += 1
            return last
        }
    }
}
