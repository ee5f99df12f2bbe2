/// One local edit of a batch that ``Pager/apply(_:)`` makes under one hold
/// of the pager's lock, with the others, in one snapshot: replace, insert or
/// remove an item, each only while its ``Condition`` holds.
///
/// A batch is a list of values, not a closure run under the lock: whoever
/// edits (an app after a mutation, a follower of a database or of a GraphQL
/// store) reads what it needs first (``Pager/items(withIDs:)``, one hold of
/// the lock), computes the new items with no lock held (decoding, reading
/// its own storage), then hands the edits over. None of its code runs while
/// the pager is locked, so it can neither stall the loads nor deadlock by
/// calling the pager again. What it read may be stale by then (a page
/// arrived, a refresh swapped in, another edit came first), so each edit
/// carries the condition under which it still makes sense, checked under
/// the lock, as a compare-and-set does: an edit whose condition fails is
/// skipped and reported as ``Outcome/conditionFailed``, and the caller
/// reads again and recomputes that edit alone.
///
/// ```swift
/// let (version, rows) = pager.items(withIDs: [launch.id])
/// let booked = rows[launch.id].map { Launch(booking: $0) }      // no lock held
/// let outcomes = pager.apply([.update(booked, if: .unchanged(since: version))])
/// if outcomes == [.conditionFailed] { /* read again and retry */ }
/// ```
public struct PagerEdit<Item: Identifiable & Sendable>: Sendable where Item.ID: Sendable {
    enum Kind: Sendable {
        case update(Item)
        case insert(Item, InsertPosition<Item.ID>)
        case remove(Item.ID)
    }

    let kind: Kind

    /// When the edit applies.
    public let condition: Condition

    /// Whether the edit outlives a refresh in flight when it is applied:
    /// see ``survivingRefresh()``.
    public private(set) var survivesRefresh = false

    /// The same edit, made to outlive a refresh that is in flight when it
    /// applies: once the refresh's pages arrive, it is applied to them again
    /// before they take the place of the rows, unless they show it already.
    ///
    /// A refresh replaces the rows by its pages, which may have been answered
    /// before the edit was made: an item a subscription announced while the
    /// request was on its way, a record created by a mutation meanwhile.
    /// Without this, the swap takes the edit back, and the list misses the
    /// item until the next refresh. With it, an insert whose id the pages do
    /// not hold goes where its position says (`.first` before the first item
    /// when the pages start the list: always for ``Pager/refresh()`` and
    /// ``Pager/refreshHead(maximumPages:)``; `.last` after the last when they
    /// end it; next to the item it names where they hold that item), a
    /// removal removes the item again, an update replaces it again; an edit
    /// about an item the pages leave out does nothing. The edits apply in the
    /// order they were made, without their conditions (checked when they were
    /// made), in the refresh's one snapshot, so the change set shows an
    /// inserted row that stayed as staying.
    ///
    /// Edits made before a refresh started are not applied again: its
    /// request went out after them, so its answer knows of them. An
    /// anchored refresh (``Pager/refresh(around:)``) keeps the near side's
    /// rows, edits included, and applies no edit again. Outside a refresh,
    /// the edit is as any other.
    ///
    /// ```swift
    /// for try await launch in launchesAdded {
    ///     pager.apply([PagerEdit.insert(launch, at: .first).survivingRefresh()])
    /// }
    /// ```
    /// - Returns: the edit, marked.
    /// - Complexity: O(1).
    public func survivingRefresh() -> Self {
        var edit = self
        edit.survivesRefresh = true
        return edit
    }

    /// Replaces the held item with the same id.
    ///
    /// The condition is about the item replaced. The outcome is
    /// ``Outcome/notHeld`` when no item with that id is held.
    /// - Parameters:
    ///   - item: the new value.
    ///   - condition: when to replace it; always by default.
    /// - Returns: the edit.
    public static func update(_ item: Item, if condition: Condition = .always) -> Self {
        Self(kind: .update(item), condition: condition)
    }

    /// Inserts an item at a place.
    ///
    /// The condition is about the item it goes next to: the one named by
    /// `.before` or `.after`, the first item for `.first`, the last for
    /// `.last`. The outcome is ``Outcome/alreadyHeld`` when an item with its
    /// id is held, ``Outcome/notHeld`` when nothing is loaded or the item it
    /// goes next to is not held.
    /// - Parameters:
    ///   - item: the item.
    ///   - position: where it goes.
    ///   - condition: when to insert it; always by default.
    /// - Returns: the edit.
    public static func insert(
        _ item: Item, at position: InsertPosition<Item.ID>, if condition: Condition = .always
    ) -> Self {
        Self(kind: .insert(item, position), condition: condition)
    }

    /// Removes the held item with an id.
    ///
    /// The condition is about the item removed. The outcome is
    /// ``Outcome/notHeld`` when no item with that id is held.
    /// - Parameters:
    ///   - id: the id.
    ///   - condition: when to remove it; always by default.
    /// - Returns: the edit.
    public static func remove(id: Item.ID, if condition: Condition = .always) -> Self {
        Self(kind: .remove(id), condition: condition)
    }

    /// Whether the edit has no condition (``Condition/always``).
    var isUnconditional: Bool {
        if case .always = condition.kind { true } else { false }
    }

    /// The id of the item the edit replaces, inserts or removes.
    public var id: Item.ID {
        switch kind {
        case .update(let item), .insert(let item, _): item.id
        case .remove(let id): id
        }
    }
}

extension PagerEdit {
    /// When an edit of a batch applies, checked under the pager's lock
    /// against the pager as the edits before it in the batch left it.
    ///
    /// Each edit names one held item its condition is about (see
    /// ``PagerEdit/update(_:if:)``, ``PagerEdit/insert(_:at:if:)``,
    /// ``PagerEdit/remove(id:if:)``).
    public struct Condition: Sendable {
        enum Kind: Sendable {
            case always
            case version(Int)
            case unchanged(since: Int)
            case matching(@Sendable (Item) -> Bool)
        }

        let kind: Kind

        /// No condition: the edit applies whenever its item (or the item it
        /// goes next to) is held.
        public static var always: Self { Self(kind: .always) }

        /// The pager has published nothing since the snapshot of a version
        /// (``PagingSnapshot/version``, or the version
        /// ``Pager/items(withIDs:)`` returns): the whole list, load states
        /// included, is as it was read. The strictest condition: a page
        /// arriving at either end fails it.
        /// - Parameter version: the version read.
        /// - Returns: the condition.
        public static func version(_ version: Int) -> Self { Self(kind: .version(version)) }

        /// The item is still what it was in the snapshot of a version: no
        /// edit, load, drop or refresh has changed the page that holds it
        /// since. A page that arrives at the other end, or an edit of
        /// another page, does not fail it; an edit of another item of the
        /// same page, or a refresh that swapped in since, does (the pager
        /// tells changes apart page by page). Edits earlier in the same
        /// batch do not count.
        /// - Parameter version: the version the item was read at.
        /// - Returns: the condition.
        public static func unchanged(since version: Int) -> Self { Self(kind: .unchanged(since: version)) }

        /// The held item satisfies a predicate. The predicate runs under the
        /// pager's lock: it must be quick, and must not call the pager.
        /// - Parameter predicate: what the held item must satisfy.
        /// - Returns: the condition.
        public static func matching(_ predicate: @escaping @Sendable (Item) -> Bool) -> Self {
            Self(kind: .matching(predicate))
        }
    }

    /// What became of one edit of a batch.
    public struct Outcome: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case applied, notHeld, alreadyHeld, conditionFailed
        }

        private let kind: Kind

        /// The edit changed the items.
        public static var applied: Self { Self(kind: .applied) }
        /// The item the edit is about (or goes next to) is not held, or
        /// nothing is loaded.
        public static var notHeld: Self { Self(kind: .notHeld) }
        /// An insert of an id that is held already.
        public static var alreadyHeld: Self { Self(kind: .alreadyHeld) }
        /// The edit's condition no longer held: what it was computed from
        /// has changed. Read again and compute it again.
        public static var conditionFailed: Self { Self(kind: .conditionFailed) }

        /// Whether the edit changed the items.
        public var isApplied: Bool { kind == .applied }

        /// `applied`, `notHeld`, `alreadyHeld` or `conditionFailed`.
        public var description: String {
            switch kind {
            case .applied: "applied"
            case .notHeld: "notHeld"
            case .alreadyHeld: "alreadyHeld"
            case .conditionFailed: "conditionFailed"
            }
        }
    }
}

extension PagerEdit.Condition where Item: Equatable {
    /// The held item equals a value: the one read, for a caller that
    /// compares items rather than versions.
    /// - Parameter item: the value the held item must equal.
    /// - Returns: the condition.
    public static func holding(_ item: Item) -> Self {
        matching { $0 == item }
    }
}

extension PagerEdit.Condition {
    /// The same condition on the rows of another item type with the same
    /// identities (a view through a transform, `TransformedRows`). A
    /// `matching` predicate, which sees items of this type, becomes
    /// `always`: the followers that edit through such a view condition
    /// their edits on a version only.
    func converted<Other: Identifiable & Sendable>(to _: Other.Type) -> PagerEdit<Other>.Condition {
        switch kind {
        case .always, .matching: .always
        case .version(let version): .version(version)
        case .unchanged(let version): .unchanged(since: version)
        }
    }
}

extension PagerEdit.Outcome {
    /// The same outcome, for an edit of another item type.
    func converted<Other: Identifiable & Sendable>(to _: Other.Type) -> PagerEdit<Other>.Outcome {
        switch kind {
        case .applied: .applied
        case .notHeld: .notHeld
        case .alreadyHeld: .alreadyHeld
        case .conditionFailed: .conditionFailed
        }
    }
}
