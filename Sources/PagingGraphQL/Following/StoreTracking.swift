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
    associatedtype UnitID: Hashable & Sendable
    /// How to read a unit again: a record's key, a page's operation.
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
    ///   - held: the held items among the unit's, by id, for what the store
    ///     does not hold (a node's cursor).
    ///   - store: the store.
    /// - Returns: the items the unit shows now, or that it is gone.
    func reread(_ unit: FollowedUnit<Reading, Item.ID>, held: [Item.ID: Item], in store: GraphQLStore)
        -> UnitRead<Item>

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
    func retain(_ units: [FollowedUnit<Reading, Item.ID>], in store: GraphQLStore) -> [StoreRetainToken]

    /// The edits of a change that name this list: units to insert, records
    /// whose units to remove.
    func connectionEdits(of change: StoreChange) -> [FollowedConnectionEdit<UnitID, Reading, Item.ID>]
}

/// What a follower reads again as one: a record, or a page.
struct FollowedUnit<Reading: Sendable, ID: Hashable & Sendable>: Sendable {
    /// How to read it again.
    var reading: Reading
    /// The ids of the items it shows.
    var ids: [ID]
    /// The records its last read depended on.
    var records: [CacheKey]
    /// Its last read, when its strategy keeps reads.
    var read: StoreReadResult?
}

/// What reading a unit again found.
enum UnitRead<Item: Sendable>: Sendable {
    /// The items the unit shows now, the read they were made of, and the
    /// records it depended on.
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
