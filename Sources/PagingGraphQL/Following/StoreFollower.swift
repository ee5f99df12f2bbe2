import Paging
import PagingLock

/// Keeps a pager's items in step with a ``GraphQLStore``: turns each store
/// change into the engine's local edits of the rows that show a changed
/// record, never a reload of the list.
///
/// It learns, as pages load, which record each item was read from and which
/// records its selection reached; a change then reads again only the items
/// whose records changed (`Pager.update(_:)`), removes those whose record
/// was deleted, and applies the connection edits that name its connection.
/// It reaches the pager weakly and is held by the source the pager loads
/// from (`PageSource.prepared(for:)`), so it lives as long as the list.
final class StoreFollower<Node: Identifiable & Sendable>: Sendable where Node.ID: Sendable {
    /// What is followed, keyed by record so that a change is looked up
    /// without hashing item ids.
    private struct Tracking: Sendable {
        /// The item read from each record.
        var itemByRoot: [CacheKey: Node.ID] = [:]
        /// For items whose selection reaches other records (a node's
        /// `rocket`), the roots of the items that reached each record…
        var rootsByRecord: [CacheKey: Set<CacheKey>] = [:]
        /// …and the other records each such root's item reached.
        var recordsByRoot: [CacheKey: [CacheKey]] = [:]
        /// Keeps the followed records from the store's garbage collection,
        /// one token per loaded page.
        var retains: [(roots: [CacheKey], token: StoreRetainToken)] = []
        /// The roots of the pages learned that the pager may still take in.
        var pending = PendingPages<[CacheKey]>()
        var observation: StoreObservation?

        mutating func forget(root: CacheKey) {
            itemByRoot[root] = nil
            for record in recordsByRoot.removeValue(forKey: root) ?? [] {
                rootsByRecord[record]?.remove(root)
                if rootsByRecord[record]?.isEmpty == true { rootsByRecord[record] = nil }
            }
        }

        mutating func remember(_ id: Node.ID, root: CacheKey, records: [CacheKey]) {
            if recordsByRoot[root] != nil { forget(root: root) }
            itemByRoot[root] = id
            let others = records.filter { $0 != root }
            guard !others.isEmpty else { return }
            recordsByRoot[root] = others
            for record in others { rootsByRecord[record, default: []].insert(root) }
        }

        /// The roots of the items a change touches.
        func roots(touchedBy change: StoreChange) -> Set<CacheKey> {
            var roots: Set<CacheKey> = []
            for record in change.records {
                if itemByRoot[record] != nil { roots.insert(record) }
                if let reached = rootsByRecord[record] { roots.formUnion(reached) }
            }
            return roots
        }
    }

    private let store: GraphQLStore
    private let query: StoreQuery
    private let connections: Set<String>
    private let decode: @Sendable (JSONValue, Node?) throws -> Node
    /// Whether the node's selection reaches other records; when it does
    /// not, an item depends on its own record only and nothing is read to
    /// learn that.
    private let reachesOtherRecords: Bool
    private let tracking = Lock(Tracking())
    private let target: @Sendable () -> Pager<String, Node>?

    /// Creates a follower, which follows the store from now on.
    /// - Parameters:
    ///   - store: the store to follow.
    ///   - query: the node's selection (its root is replaced per item).
    ///   - connections: the connection names whose edits apply to this list.
    ///   - decode: decodes a node read from the store, given the item it replaces.
    ///   - pager: returns the pager whose items follow the store, while it lives.
    init(
        store: GraphQLStore, query: StoreQuery, connections: Set<String>,
        decode: @escaping @Sendable (JSONValue, Node?) throws -> Node,
        pager: @escaping @Sendable () -> Pager<String, Node>?
    ) {
        self.store = store
        self.query = query
        self.connections = connections
        self.decode = decode
        self.reachesOtherRecords = query.sets.contains { $0.selectsObjects }
        self.target = pager
        let observation = store.observe { [weak self] change in self?.apply(change) }
        tracking.withLock { $0.observation = observation }
    }

    private var pager: Pager<String, Node>? { target() }

    /// Records the records a loaded page's items were read from.
    /// - Parameters:
    ///   - nodes: the nodes as the server sent them.
    ///   - items: the items made of them, in the same order.
    ///   - request: the request that loaded the page.
    /// - Complexity: O(*m*) reads for *m* nodes.
    func track(_ nodes: [JSONValue], as items: [Node], for request: PageRequest<String>) {
        var learned: [(Node.ID, CacheKey, [CacheKey])] = []
        learned.reserveCapacity(items.count)
        for (node, item) in zip(nodes, items) {
            guard case .object(let object) = node, let root = store.keying.key(for: object) else { continue }
            let records =
                reachesOtherRecords ? dependencies(of: store.read(query: query.at(root)), root: root) : []
            learned.append((item.id, root, records))
        }
        guard !learned.isEmpty else { return }
        let roots = learned.map(\.1)
        let token = store.retain(roots)
        let pager = self.pager
        let cancelled = Task.isCancelled
        tracking.withLock { tracking in
            for (id, root, records) in learned { tracking.remember(id, root: root, records: records) }
            tracking.retains.append((roots, token))
            // Read under the lock, so that no page pending was learned after it.
            let snapshot = pager?.snapshot
            let held = snapshot?.items.count ?? 0
            if let snapshot {
                tracking.pending.arrived(
                    roots, for: request.position, loadStates: snapshot.loadStates, cancelled: cancelled)
            }
            // Items the window dropped are forgotten now and then: at most
            // twice as many are followed as are held (plus the pages pending),
            // for O(1) amortized work per item.
            if tracking.itemByRoot.count > 2 * max(held, 1) + items.count, let pager {
                // Pages not in the pager yet are kept: the one just learned,
                // and any other the pager may still take in (the load at the
                // other end, the earlier pages of a refresh).
                var spared = Set(roots)
                for page in tracking.pending.pages { spared.formUnion(page) }
                let gone = tracking.itemByRoot.filter {
                    !spared.contains($0.key) && pager.index(of: $0.value) == nil
                }.map(\.key)
                for root in gone { tracking.forget(root: root) }
                tracking.retains.removeAll { entry in
                    entry.roots.allSatisfy { tracking.itemByRoot[$0] == nil }
                }
            }
        }
    }

    private func dependencies(of read: StoreReadResult, root: CacheKey) -> [CacheKey] {
        var records = Array(read.dependencyLists.keys)
        if !records.contains(root) { records.append(root) }
        return records
    }

    /// Turns a store change into edits of the pager's items.
    /// - Complexity: O(*k* (*m* + log *p*)) for the *k* items the change
    ///   touches, in pages of *m* items out of *p*.
    private func apply(_ change: StoreChange) {
        guard let pager else { return }
        let (touched, edits) = tracking.withLock {
            tracking -> ([(Node.ID, CacheKey)], [(StoreConnectionEdit, Node.ID?)]) in
            let touched = tracking.roots(touchedBy: change).compactMap { root in
                tracking.itemByRoot[root].map { ($0, root) }
            }
            let edits = change.connectionEdits.filter { connections.contains($0.connection) }.map {
                ($0, tracking.itemByRoot[$0.record])
            }
            return (touched, edits)
        }
        for (id, root) in touched {
            let read = store.read(query: query.at(root))
            if let data = read.data {
                let old = pager.index(of: id).map { pager.items[$0] }
                guard let node = try? decode(data, old), node.id == id else { continue }
                if pager.update(node) {
                    let records = reachesOtherRecords ? dependencies(of: read, root: root) : []
                    tracking.withLock { $0.remember(id, root: root, records: records) }
                }
            } else if change.deletedRecords.contains(root)
                || read.miss?.recordIsMissing == true
                    && read.miss?.record == root
            {
                _ = pager.remove(id: id)
                tracking.withLock { $0.forget(root: root) }
            }
        }
        for (edit, held) in edits {
            switch edit.kind {
            case .remove:
                if let held {
                    _ = pager.remove(id: held)
                    tracking.withLock { $0.forget(root: edit.record) }
                }
            case .append, .prepend:
                let read = store.read(query: query.at(edit.record))
                guard let data = read.data, let node = try? decode(data, nil) else { continue }
                if pager.insert(node, at: edit.kind == .append ? .last : .first) {
                    let records = reachesOtherRecords ? dependencies(of: read, root: edit.record) : []
                    let token = store.retain([edit.record])
                    tracking.withLock {
                        $0.remember(node.id, root: edit.record, records: records)
                        $0.retains.append(([edit.record], token))
                    }
                }
            }
        }
    }
}
