import Paging

/// Following by record, for a ``ConnectionSource``: each item is a node
/// read from a record of its own, so a unit is that record (its key names
/// the unit) and shows one item.
///
/// A unit depends on its record and, when the node's selection reaches
/// other records (a launch's `rocket`), on those too. Reading it again reads
/// the node's selection at its record and decodes it, given the held item
/// (for what the store does not hold: a ``JSONNode``'s cursor); a record
/// deleted or missing makes the unit gone. Connection edits that name the
/// list's connection insert and remove units.
struct RecordTracking<Node: Identifiable & Sendable>: StoreTracking where Node.ID: Sendable {
    typealias Item = Node
    typealias UnitID = CacheKey
    /// Nothing: the unit's id is the node's record.
    typealias Reading = Void
    /// The nodes of a page as sent, in the order of its units.
    typealias Shown = [JSONValue]

    static var keepsReads: Bool { false }

    /// The node's selection (its root is replaced per item).
    let query: StoreQuery
    /// The connection names whose edits apply to this list.
    let connections: Set<String>
    /// Decodes a node read from the store, given the item it replaces.
    let decode: @Sendable (JSONValue, Node?) throws -> Node
    /// Whether the node's selection reaches other records; when it does
    /// not, an item depends on its own record only and nothing is read to
    /// learn that.
    let reachesOtherRecords: Bool
    /// The membership rule the list follows, if any.
    let membership: FollowedMembership?

    /// Creates the strategy.
    /// - Parameters:
    ///   - query: the node's selection.
    ///   - connections: the connection names whose edits apply to this list.
    ///   - decode: decodes a node read from the store, given the item it replaces.
    ///   - membership: the membership rule the list follows, if any.
    init(
        query: StoreQuery, connections: Set<String>,
        decode: @escaping @Sendable (JSONValue, Node?) throws -> Node,
        membership: FollowedMembership? = nil
    ) {
        self.query = query
        self.connections = connections
        self.membership = membership
        self.decode = decode
        self.reachesOtherRecords = query.sets.contains { $0.selectsObjects }
    }

    /// The units of a loaded page: the record each item was read from.
    /// - Parameters:
    ///   - nodes: the nodes as the server sent them.
    ///   - items: the items made of them, in the same order.
    ///   - store: the store, for the records a selection reaches.
    /// - Returns: the units, by record, and the node each was sent as.
    /// - Complexity: O(*m*), and *m* reads when the selection reaches other records.
    func units(_ nodes: [JSONValue], as items: [Node], in store: GraphQLStore) -> (
        learned: [(id: CacheKey, unit: FollowedUnit<Void, Node.ID>)], shown: [JSONValue]
    ) {
        var learned: [(id: CacheKey, unit: FollowedUnit<Void, Node.ID>)] = []
        var shown: [JSONValue] = []
        learned.reserveCapacity(items.count)
        shown.reserveCapacity(items.count)
        for (node, item) in zip(nodes, items) {
            guard case .object(let object) = node, let root = store.keying.key(for: object) else { continue }
            let records =
                reachesOtherRecords ? Self.records(of: store.read(query: query.at(root)), root: root) : []
            learned.append(
                (
                    root,
                    records.isEmpty
                        ? FollowedUnit(reading: (), id: item.id)
                        : FollowedUnit(reading: (), ids: [item.id], records: records)
                ))
            shown.append(node)
        }
        return (learned, shown)
    }

    /// The nodes whose selection, read from the store, is no longer the
    /// node as sent.
    /// - Complexity: *m* reads for *m* units.
    func changed(
        _ learned: [(id: CacheKey, unit: FollowedUnit<Void, Node.ID>)],
        since shown: [JSONValue],
        in store: GraphQLStore
    ) -> [CacheKey] {
        zip(learned, shown).compactMap { unit, node in
            store.read(query: query.at(unit.id)).data == node ? nil : unit.id
        }
    }

    func reread(
        _ unit: FollowedUnit<Void, Node.ID>, id root: CacheKey, held: [Node.ID: Node], in store: GraphQLStore
    ) -> UnitRead<Node> {
        let read = store.read(query: query.at(root))
        guard let data = read.data else {
            return read.miss?.recordIsMissing == true && read.miss?.record == root ? .gone : .unreadable
        }
        let old = unit.ids.first.flatMap { held[$0] }
        guard let node = try? decode(data, old), unit.ids.isEmpty || unit.ids.elementsEqual([node.id]) else {
            return .unreadable
        }
        let records = reachesOtherRecords ? Self.records(of: read, root: root) : []
        return .items([node], read: read, records: records)
    }

    func retain(
        _ units: [(id: CacheKey, unit: FollowedUnit<Void, Node.ID>)], ids: [CacheKey], in store: GraphQLStore
    ) -> [StoreRetainToken] {
        // The follower keeps `ids` for the page too: one list, not two.
        [store.retain(ids)]
    }

    func connectionEdits(of change: StoreChange) -> [FollowedConnectionEdit<CacheKey, Void, Node.ID>] {
        change.connectionEdits.compactMap { edit in
            guard connections.contains(edit.connection) else { return nil }
            let unit = FollowedUnit<Void, Node.ID>(reading: (), ids: [], records: [])
            return switch edit.kind {
            case .append: .insert(edit.record, unit, at: .last)
            case .prepend: .insert(edit.record, unit, at: .first)
            case .remove: .remove(edit.record)
            }
        }
    }

    func unit(ofRecord record: CacheKey) -> (id: CacheKey, unit: FollowedUnit<Void, Node.ID>)? {
        (record, FollowedUnit(reading: (), ids: [], records: []))
    }

    /// The records a read of a node depended on but its own, which the
    /// unit's id names.
    private static func records(of read: StoreReadResult, root: CacheKey) -> [CacheKey] {
        read.dependencyLists.keys.filter { $0 != root }
    }
}

extension StoreFollower {
    /// Follows the items of a loaded page of a ``ConnectionSource``.
    /// - Parameters:
    ///   - nodes: the nodes as the server sent them.
    ///   - items: the items made of them, in the same order.
    ///   - request: the request that loaded the page.
    ///   - written: the store's commit count right after the page's
    ///     response was written, if it was.
    /// - Complexity: O(*m*) for *m* nodes, plus *m* reads when the selection
    ///   reaches other records, and *m* more when the store changed after
    ///   the page was written.
    func track<Node>(_ nodes: [JSONValue], as items: [Node], for request: PageRequest<Key>, written: Int?)
    where Tracking == RecordTracking<Node> {
        let (learned, shown) = tracking.units(nodes, as: items, in: store)
        learn(learned, shown: shown, written: written, for: request)
    }
}
