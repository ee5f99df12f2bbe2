import PagingLock

/// What a pager lends each of its loads, carried by the ``PageRequest``: the
/// things sources keep for this pager (``PagerAttachments``), and the
/// pager's rows as items of the type the source at this point of a chain of
/// wrappers loads (``FollowedRows``).
///
/// A request is how a source anywhere in a chain of wrappers reaches the
/// pager: every wrapper passes its request on (a wrapper that makes a new
/// request for its base makes it with ``PageRequest/forwarded(to:count:)``,
/// which keeps this), so a store-backed source deep in the chain follows
/// the store for the pager whatever wraps it. A wrapper that changes the
/// items (``TransformedPageSource``) hands its base the rows seen through
/// its transform.
///
/// It holds the pager's attachments weakly, as it does its rows: a request
/// may outlive its load (kept in an item, as `QueryPage` keeps the request
/// that loaded it, and so in a follower kept in the attachments), and must
/// not keep what the pager keeps.
package struct PagerLoadContext: Sendable {
    /// What sources keep for the pager, while it lives; `nil` once the
    /// pager is gone.
    package weak var attachments: PagerAttachments?
    /// The pager's rows, as a `FollowedRows` of the items of the source the
    /// request is for (`any FollowedRows<Item>`, which a source casts to).
    package let rows: any Sendable

    /// Creates a context.
    /// - Parameters:
    ///   - attachments: what sources keep for the pager, held by the pager
    ///     (the context holds it weakly).
    ///   - rows: the pager's rows, reached weakly.
    package init(attachments: PagerAttachments?, rows: any Sendable) {
        self.attachments = attachments
        self.rows = rows
    }

    /// The pager's rows as items of `Item`, or `nil` when the source at this
    /// point of the chain loads items of another type (a wrapper between it
    /// and the pager changes them in a way that cannot be followed).
    /// - Complexity: O(1).
    package func rows<Item>(of _: Item.Type) -> (any FollowedRows<Item>)? {
        rows as? any FollowedRows<Item>
    }
}

/// What the sources of one pager keep for it, by owner: created at the
/// pager's first load that asks for it, released with the pager.
///
/// A store-backed source keeps its follower of the store here, owned by an
/// object of its own that its copies share, so that each pager over it has
/// its own follower and one pager over two such sources has two.
package final class PagerAttachments: Sendable {
    private struct Entry: @unchecked Sendable {
        // @unchecked: `owner` is only compared by identity and kept alive, never used.
        let owner: AnyObject
        let value: any Sendable
    }

    private let entries = Lock<[ObjectIdentifier: Entry]>([:])

    package init() {}

    /// The value kept for `owner`, made by `make` the first time.
    ///
    /// `make` runs outside the lock (it may call a store); when two loads
    /// ask at once, one value is kept and the other dropped.
    /// - Parameters:
    ///   - owner: the object the value is kept for, kept alive with it.
    ///   - make: makes the value.
    /// - Returns: the value kept.
    /// - Complexity: O(1) besides `make`.
    package func attachment<Value: Sendable>(for owner: AnyObject, make: () -> Value) -> Value? {
        let id = ObjectIdentifier(owner)
        if let kept = entries.withLock({ $0[id] }) { return kept.value as? Value }
        let made = make()
        let kept = entries.withLock { entries in
            if let kept = entries[id] { return kept }
            let entry = Entry(owner: owner, value: made)
            entries[id] = entry
            return entry
        }
        return kept.value as? Value
    }
}

/// What a follower of the pager's rows reads of its state, whatever the
/// pager's key and item types: which loads are in flight, and the version
/// of the rows.
package struct FollowedRowsState: Sendable {
    /// The version of the pager's snapshot.
    package var version: Int
    /// The pager's load states.
    package var loadStates: LoadStates
    /// The loads in flight, by slot.
    package var loadIDs: SlotLoadIDs
    /// The number of items held.
    package var count: Int

    /// The state of a snapshot.
    package init<Item>(_ snapshot: PagingSnapshot<Item>) {
        version = snapshot.version
        loadStates = snapshot.loadStates
        loadIDs = snapshot.loadIDs
        count = snapshot.items.count
    }
}

/// The order of a pager's rows as a follower places items by a sort order
/// (a membership rule's): the held items' ids by index, the indices of
/// some of them, and whether each end of the list is reached. Made under
/// one hold of the pager's lock; the ids are read afterwards from the
/// snapshot's items, which do not change.
package struct FollowedOrder<ID: Hashable & Sendable>: Sendable {
    /// The version of the snapshot the order was read from.
    package let version: Int
    /// The number of items held.
    package let count: Int
    /// The id of the item at an index; O(log *p*) for *p* pages.
    package let id: @Sendable (Int) -> ID
    /// The indices of the ids asked for that are held.
    package let indices: [ID: Int]
    /// The pager's load states.
    package let loadStates: LoadStates

    /// Creates an order.
    package init(
        version: Int, count: Int, id: @escaping @Sendable (Int) -> ID, indices: [ID: Int],
        loadStates: LoadStates
    ) {
        self.version = version
        self.count = count
        self.id = id
        self.indices = indices
        self.loadStates = loadStates
    }
}

/// A pager's rows as a follower edits them: read by id and edited in
/// batches conditioned on a version, as ``Pager/items(withIDs:)`` and
/// ``Pager/apply(_:)`` do, for items of `Item`: the pager's own, or its
/// items seen through a transform (the rows of a pager over
/// `source.map { ... }`, as items of `source`).
///
/// It reaches the pager weakly: every method answers `nil` once the pager
/// is gone.
package protocol FollowedRows<Item>: Sendable {
    /// The items as the follower sees them.
    associatedtype Item: Identifiable & Sendable where Item.ID: Sendable

    /// The pager's state now.
    var state: FollowedRowsState? { get }

    /// The ids of the items held, in one pass.
    var heldIDs: Set<Item.ID>? { get }

    /// The held items with some ids, and the version they are part of; a
    /// view through a transform gives none (it cannot tell what they were
    /// before it), and its edits skip what would not change.
    func items(withIDs ids: [Item.ID]) -> (version: Int, items: [Item.ID: Item])?

    /// Applies a batch of edits, as ``Pager/apply(_:)``.
    func apply(_ edits: [PagerEdit<Item>]) -> [PagerEdit<Item>.Outcome]?

    /// The order of the rows, with the indices of some ids.
    func order(of ids: [Item.ID]) -> FollowedOrder<Item.ID>?

    /// Calls `handler` after every later change of the pager, once its lock
    /// is released (see `Pager.addChangeHandler(_:)`).
    func onChange(_ handler: @escaping @Sendable (FollowedRowsState) -> Void)
}

/// A pager's own rows, reached weakly.
final class PagerRows<Key: Hashable & Sendable, Item: Identifiable & Sendable>: FollowedRows
where Item.ID: Sendable {
    private let pager: WeakReference<Pager<Key, Item>>

    init(_ pager: WeakReference<Pager<Key, Item>>) {
        self.pager = pager
    }

    var state: FollowedRowsState? { pager.object.map { FollowedRowsState($0.snapshot) } }

    var heldIDs: Set<Item.ID>? { pager.object.map { Set($0.items.lazy.map(\.id)) } }

    func items(withIDs ids: [Item.ID]) -> (version: Int, items: [Item.ID: Item])? {
        pager.object?.items(withIDs: ids)
    }

    func apply(_ edits: [PagerEdit<Item>]) -> [PagerEdit<Item>.Outcome]? {
        pager.object?.apply(edits)
    }

    func order(of ids: [Item.ID]) -> FollowedOrder<Item.ID>? {
        pager.object?.followedOrder(of: ids)
    }

    func onChange(_ handler: @escaping @Sendable (FollowedRowsState) -> Void) {
        _ = pager.object?.addChangeHandler { handler(FollowedRowsState($0)) }
    }
}

/// A pager's rows seen through an item-by-item transform with the same
/// identities (`map`, `filter`, `compactMap`): an edit of an item of the
/// base becomes the edit of the row it transforms to; an item that
/// transforms to nothing (filtered out now) removes its row.
struct TransformedRows<Base: Identifiable & Sendable, Shown: Identifiable & Sendable>: FollowedRows
where Base.ID: Sendable, Shown.ID == Base.ID {
    let rows: any FollowedRows<Shown>
    let transform: @Sendable (Base) throws -> Shown?

    var state: FollowedRowsState? { rows.state }

    var heldIDs: Set<Base.ID>? { rows.heldIDs }

    func items(withIDs ids: [Base.ID]) -> (version: Int, items: [Base.ID: Base])? {
        rows.items(withIDs: []).map { ($0.version, [:]) }
    }

    func apply(_ edits: [PagerEdit<Base>]) -> [PagerEdit<Base>.Outcome]? {
        // Each edit of the base becomes at most one edit of the rows (its
        // index there), none for an insert of an item filtered out, or for
        // an update to what the row already is.
        let mapped = edits.map(map)
        let updated = mapped.compactMap { edit -> Shown.ID? in
            guard let edit, case .update = edit.kind else { return nil }
            return edit.id
        }
        guard let current = updated.isEmpty ? [:] : rows.items(withIDs: updated)?.items else { return nil }
        var shown: [PagerEdit<Shown>] = []
        var index: [Int?] = []
        var outcomes: [PagerEdit<Base>.Outcome?] = []
        for edit in mapped {
            guard let edit else {
                index.append(nil)
                outcomes.append(.notHeld)
                continue
            }
            if case .update(let row) = edit.kind, let held = current[row.id], equalIfEquatable(held, row) {
                index.append(nil)
                outcomes.append(.applied)
                continue
            }
            index.append(shown.count)
            outcomes.append(nil)
            shown.append(edit)
        }
        guard let applied = shown.isEmpty ? [] : rows.apply(shown) else { return nil }
        return zip(index, outcomes).map { index, outcome in
            index.map { applied[$0].converted(to: Base.self) } ?? outcome ?? .notHeld
        }
    }

    func order(of ids: [Base.ID]) -> FollowedOrder<Base.ID>? {
        rows.order(of: ids)
    }

    func onChange(_ handler: @escaping @Sendable (FollowedRowsState) -> Void) {
        rows.onChange(handler)
    }

    private func map(_ edit: PagerEdit<Base>) -> PagerEdit<Shown>? {
        let mapped = mapKind(edit)
        return edit.survivesRefresh ? mapped?.survivingRefresh() : mapped
    }

    private func mapKind(_ edit: PagerEdit<Base>) -> PagerEdit<Shown>? {
        let condition = edit.condition.converted(to: Shown.self)
        switch edit.kind {
        case .update(let item):
            // A transform that throws or drops the item now: its row goes.
            guard let row = try? transform(item) else { return .remove(id: item.id, if: condition) }
            return .update(row, if: condition)
        case .insert(let item, let position):
            guard let row = try? transform(item) else { return nil }
            return .insert(row, at: position, if: condition)
        case .remove(let id):
            return .remove(id: id, if: condition)
        }
    }
}
