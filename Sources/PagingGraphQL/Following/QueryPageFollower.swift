import Paging
import PagingLock

/// Keeps the items of a ``GraphQLQuerySource`` in step with a
/// ``GraphQLStore``: a page whose query read a changed record is read again
/// from the store and run through the pager's transform, and the items that
/// came out different replace theirs with `Pager.update(_:)`.
///
/// Items made by a transform have no record of their own, so the unit that
/// follows the store is the page: a change costs the pages that read a
/// changed record, never the list. Items that are `Equatable` are replaced
/// only when they differ; others are replaced whenever their page's data
/// changed. It reaches the pager weakly and is held by the source the pager
/// loads from (`PageSource.prepared(for:)`), so it lives as long as the list.
final class QueryPageFollower<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    /// A loaded page: the operation it read, and how to make its items
    /// from that operation's data.
    private struct Entry: Sendable {
        var operation: StoreOperation
        var items: @Sendable (JSONValue) throws -> [Item]
        var ids: [Item.ID]
        var records: [CacheKey]
        /// The last read of the operation: which fields of which records it read.
        var read: StoreReadResult
        var token: StoreRetainToken
    }

    private struct Tracking: Sendable {
        var entries: [Int: Entry] = [:]
        var pagesByRecord: [CacheKey: Set<Int>] = [:]
        var nextPage = 0
        /// The pages learned that the pager may still take in.
        var pending = PendingPages<Int>()
        var observation: StoreObservation?

        mutating func remove(_ page: Int) {
            guard let entry = entries.removeValue(forKey: page) else { return }
            for record in entry.records {
                pagesByRecord[record]?.remove(page)
                if pagesByRecord[record]?.isEmpty == true { pagesByRecord[record] = nil }
            }
        }

        mutating func index(_ page: Int, records: [CacheKey]) {
            for record in records { pagesByRecord[record, default: []].insert(page) }
        }
    }

    private let store: GraphQLStore
    private let tracking = Lock(Tracking())
    private let target: @Sendable () -> Pager<Key, Item>?

    /// Creates a follower, which follows the store from now on.
    /// - Parameters:
    ///   - store: the store to follow.
    ///   - pager: returns the pager whose items follow the store, while it lives.
    init(store: GraphQLStore, pager: @escaping @Sendable () -> Pager<Key, Item>?) {
        self.store = store
        self.target = pager
        let observation = store.observe { [weak self] change in self?.apply(change) }
        tracking.withLock { $0.observation = observation }
    }

    private var pager: Pager<Key, Item>? { target() }

    /// Records a loaded page.
    /// - Parameters:
    ///   - operation: the operation the page was loaded with.
    ///   - ids: the ids of the page's items.
    ///   - request: the request that loaded the page.
    ///   - items: makes the page's items from the operation's data.
    func track(
        _ operation: StoreOperation, ids: [Item.ID], for request: PageRequest<Key>,
        items: @escaping @Sendable (JSONValue) throws -> [Item]
    ) {
        let read = store.read(operation)
        let records = Array(read.dependencyLists.keys)
        let token = store.retain(operation)
        let pager = self.pager
        let cancelled = Task.isCancelled
        tracking.withLock { tracking in
            let page = tracking.nextPage
            tracking.nextPage += 1
            tracking.entries[page] = Entry(
                operation: operation, items: items, ids: ids, records: records, read: read, token: token)
            tracking.index(page, records: records)
            // Read under the lock, so that no page pending was learned after it.
            let snapshot = pager?.snapshot
            let held = snapshot?.items.count ?? 0
            if let snapshot {
                tracking.pending.arrived(
                    page, for: request.position, loadStates: snapshot.loadStates, cancelled: cancelled)
            }
            // Pages the window dropped are forgotten now and then. Pages not
            // in the pager yet are kept: the one just added, and any other
            // the pager may still take in (the load at the other end, the
            // earlier pages of a refresh).
            let followed = tracking.entries.values.reduce(0) { $0 + $1.ids.count }
            if followed > 2 * max(held, 1) + ids.count, let pager {
                let spared = Set(tracking.pending.pages).union([page])
                for (old, entry) in tracking.entries
                where !spared.contains(old) && !entry.ids.contains(where: { pager.index(of: $0) != nil }) {
                    tracking.remove(old)
                }
            }
        }
    }

    /// Reads again the pages that read a changed record.
    private func apply(_ change: StoreChange) {
        guard let pager else { return }
        let pages = tracking.withLock { tracking -> [(Int, Entry)] in
            var touched: Set<Int> = []
            for record in change.records {
                if let pages = tracking.pagesByRecord[record] { touched.formUnion(pages) }
            }
            // A page is read again only when a field it read changed.
            return touched.sorted().compactMap { page in
                tracking.entries[page].flatMap { $0.read.isAffected(by: change) ? (page, $0) : nil }
            }
        }
        for (page, entry) in pages {
            let read = store.read(entry.operation)
            guard let data = read.data, let items = try? entry.items(data) else { continue }
            for item in items {
                guard let index = pager.index(of: item.id) else { continue }
                if !Self.same(pager.items[index], item) { _ = pager.update(item) }
            }
            let records = Array(read.dependencyLists.keys)
            tracking.withLock { tracking in
                guard var current = tracking.entries[page] else { return }
                tracking.remove(page)
                current.records = records
                current.read = read
                current.ids = items.map(\.id)
                tracking.entries[page] = current
                tracking.index(page, records: records)
            }
        }
    }

    /// Whether two items are equal, when they can tell.
    private static func same(_ held: Item, _ new: Item) -> Bool {
        guard let held = held as? any Equatable else { return false }
        return held.isEqual(to: new)
    }
}

extension Equatable {
    /// Whether another value is of this type and equal to this one.
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
