import Paging

/// How a ``StoreFollower`` learns what a list shows and reads it again from
/// the store: the part of following that depends on the kind of source.
///
/// The follower follows *units*, what it reads again as one. There are two
/// strategies:
/// - ``RecordTracking``, by record: each item of a ``ConnectionSource`` is a
///   node read from a record of its own, so a unit is that record and shows
///   one item; a change costs the items it touches.
/// - ``PageTracking``, by page: the items of a ``GraphQLQuerySource`` are
///   made by a transform of a whole query's data and have no record of
///   their own, so a unit is a page and its query; a change costs the pages
///   that read a changed field.
///
/// Everything else (the weak pager, the store observation, the index from
/// records to units, the pages pending, the sweep, the retain tokens, and
/// the batch edits) is the follower's, the same for both.
protocol StoreTracking: Sendable {
    /// The list's item.
    associatedtype Item: Identifiable & Sendable where Item.ID: Sendable
    /// Names a unit: a record's key, a page's number.
    associatedtype UnitID: FollowedUnitID
    /// How to read a unit again, beyond its id: nothing more for a record,
    /// a page's operation.
    associatedtype Reading: Sendable
    /// What a loaded page showed, to tell whether the store has changed
    /// since: its nodes as sent, its items.
    associatedtype Shown: Sendable

    /// Whether a unit keeps its last read, so that a change reaches it only
    /// when it changed a field the read looked at (not only a record).
    static var keepsReads: Bool { get }

    /// Reads a unit again.
    /// - Parameters:
    ///   - unit: the unit.
    ///   - id: its id.
    ///   - held: the held items among the unit's, by id, for what the store
    ///     does not hold (a node's cursor).
    ///   - store: the store.
    /// - Returns: the items the unit shows now, or that it is gone.
    func reread(
        _ unit: FollowedUnit<Reading, Item.ID>, id: UnitID, held: [Item.ID: Item], in store: GraphQLStore
    ) -> UnitRead<Item>

    /// The units just learned whose data in the store is no longer what
    /// their page showed: a change landed between the write of the page's
    /// response and the learning. Called once they are followed, so that
    /// any later change reaches them.
    /// - Parameters:
    ///   - learned: the units of a loaded page.
    ///   - shown: what the page showed.
    ///   - store: the store.
    /// - Returns: the ids of the units whose page is stale.
    func changed(
        _ learned: [(id: UnitID, unit: FollowedUnit<Reading, Item.ID>)], since shown: Shown,
        in store: GraphQLStore
    )
        -> [UnitID]

    /// Keeps what some units read from the store's garbage collection.
    /// - Parameters:
    ///   - units: the units of a loaded page.
    ///   - ids: their ids in the same order: the list the follower keeps for
    ///     the page, so that a tracking that retains by id shares it.
    ///   - store: the store.
    /// - Returns: the tokens that keep them.
    func retain(
        _ units: [(id: UnitID, unit: FollowedUnit<Reading, Item.ID>)], ids: [UnitID], in store: GraphQLStore
    ) -> [StoreRetainToken]

    /// The edits of a change that name this list: units to insert, records
    /// whose units to remove.
    func connectionEdits(of change: StoreChange) -> [FollowedConnectionEdit<UnitID, Reading, Item.ID>]

    /// The membership rule the list follows, with its arguments; `nil` for
    /// none.
    var membership: FollowedMembership? { get }

    /// A new unit for a record a membership rule inserts, not read yet;
    /// `nil` when units are not named by record.
    func unit(ofRecord record: CacheKey) -> (id: UnitID, unit: FollowedUnit<Reading, Item.ID>)?
}

extension StoreTracking {
    var membership: FollowedMembership? { nil }

    func unit(ofRecord record: CacheKey) -> (id: UnitID, unit: FollowedUnit<Reading, Item.ID>)? { nil }
}

/// The membership rule a list follows, and the list's filter arguments.
struct FollowedMembership: Sendable {
    /// The rule.
    let rule: ConnectionMembershipRule
    /// The list's filter arguments, resolved.
    let arguments: [String: JSONValue]
    /// The field paths the rule reads.
    let paths: [[String]]

    /// The rule of a list, if one applies.
    /// - Parameters:
    ///   - rules: the store's rules.
    ///   - connections: the names of the list's connection.
    ///   - arguments: its filter arguments.
    init?(rules: [ConnectionMembershipRule], connections: Set<String>, arguments: [String: JSONValue]) {
        guard let rule = ConnectionMembershipRule.rule(among: rules, for: connections, arguments: arguments)
        else { return nil }
        self.rule = rule
        self.arguments = arguments
        self.paths = rule.paths
    }
}

/// Names what a follower reads again as one. A unit named by a record's
/// key depends on that record without listing it, so that following an
/// item whose selection reaches no other record costs one table entry and
/// no list of records.
protocol FollowedUnitID: ShardedKey, Sendable {
    /// The unit a record names, if units are named by record.
    init?(ownRecord: CacheKey)
    /// The record the unit is named by, if units are named by record.
    var ownRecord: CacheKey? { get }
}

extension CacheKey: FollowedUnitID {
    init?(ownRecord: CacheKey) { self = ownRecord }
    var ownRecord: CacheKey? { self }
}

extension Int: FollowedUnitID {
    init?(ownRecord: CacheKey) { nil }
    var ownRecord: CacheKey? { nil }
}

/// What a follower reads again as one: a record, or a page.
///
/// A follower keeps one per item of a list followed by record, by value in
/// its table, so it is kept small: an item's id and one pointer. What most
/// units lack (records beyond their own, a kept read) is boxed behind it.
struct FollowedUnit<Reading: Sendable, ID: Hashable & Sendable>: Sendable {
    /// One item and nothing beyond its own record, held inline: most units
    /// of a list followed by record; or everything else, boxed.
    private enum Storage: Sendable {
        case one(ID)
        case boxed(Box)
    }

    /// How to read it again.
    var reading: Reading
    private var storage: Storage

    /// The ids of the items it shows.
    var ids: UnitItemIDs<ID> {
        get {
            switch storage {
            case .one(let id): UnitItemIDs(single: id)
            case .boxed(let box): UnitItemIDs(box.ids)
            }
        }
        set { storage = Self.storage(ids: Array(newValue), records: records, read: read) }
    }

    /// The number of items it shows.
    var itemCount: Int {
        switch storage {
        case .one: 1
        case .boxed(let box): box.ids.count
        }
    }

    /// The records its last read depended on, but for the record its id
    /// names (see ``FollowedUnitID``).
    var records: [CacheKey] {
        get { if case .boxed(let box) = storage { box.records } else { [] } }
        set { storage = Self.storage(ids: Array(ids), records: newValue, read: read) }
    }

    /// Its last read, when its strategy keeps reads.
    var read: StoreReadResult? {
        get { if case .boxed(let box) = storage { box.read } else { nil } }
        set { storage = Self.storage(ids: Array(ids), records: records, read: newValue) }
    }

    /// A unit.
    /// - Parameters:
    ///   - reading: how to read it again.
    ///   - ids: the ids of the items it shows.
    ///   - records: the records its read depended on, but the one its id names.
    ///   - read: its read, when its strategy keeps reads.
    init(reading: Reading, ids: [ID], records: [CacheKey], read: StoreReadResult? = nil) {
        self.reading = reading
        self.storage = Self.storage(ids: ids, records: records, read: read)
    }

    /// A unit of one item that depends on its own record alone.
    /// - Parameters:
    ///   - reading: how to read it again.
    ///   - id: the id of the item it shows.
    init(reading: Reading, id: ID) {
        self.reading = reading
        self.storage = .one(id)
    }

    private static func storage(ids: [ID], records: [CacheKey], read: StoreReadResult?) -> Storage {
        if ids.count == 1, records.isEmpty, read == nil { return .one(ids[0]) }
        return .boxed(Box(ids: ids, records: records, read: read))
    }

    /// What a unit holds beyond one item's id.
    private final class Box: Sendable {
        let ids: [ID]
        let records: [CacheKey]
        let read: StoreReadResult?

        init(ids: [ID], records: [CacheKey], read: StoreReadResult?) {
            self.ids = ids
            self.records = records
            self.read = read
        }
    }
}

/// The ids of the items a unit shows, held without an array when there
/// is one: a unit of a list followed by record shows one item.
struct UnitItemIDs<ID: Hashable & Sendable>: RandomAccessCollection, Sendable {
    private enum Storage: Sendable {
        case one(ID)
        case many([ID])
    }

    private let storage: Storage

    /// The ids, in order.
    init(_ ids: [ID]) {
        storage = ids.count == 1 ? .one(ids[0]) : .many(ids)
    }

    /// One id.
    init(single id: ID) {
        storage = .one(id)
    }

    var startIndex: Int { 0 }

    var endIndex: Int { count }

    @inline(__always)
    var count: Int {
        switch storage {
        case .one: 1
        case .many(let ids): ids.count
        }
    }

    subscript(position: Int) -> ID {
        switch storage {
        case .one(let id): id
        case .many(let ids): ids[position]
        }
    }
}

/// What reading a unit again found.
enum UnitRead<Item: Sendable>: Sendable {
    /// The items the unit shows now, the read they were made of, and the
    /// records it depended on (but the one its id names).
    case items([Item], read: StoreReadResult, records: [CacheKey])
    /// The unit's record is gone: its items are to be removed.
    case gone
    /// Nothing usable: a field is missing, or the data does not decode.
    case unreadable
}

/// An edit of a change that names a list's connection (`@appendNode`,
/// `@prependEdge`, `@deleteEdge`, ...).
enum FollowedConnectionEdit<UnitID: Hashable & Sendable, Reading: Sendable, ID: Hashable & Sendable>: Sendable
{
    /// A new unit whose items go at a place.
    case insert(UnitID, FollowedUnit<Reading, ID>, at: InsertPosition<ID>)
    /// The items of a unit are to be removed.
    case remove(UnitID)
}
