/// What a pager asks a ``PageSource`` for: a position and a number of items.
///
/// A request is a value: the pager keeps the request that loaded each page, so
/// that ``Pager/retry()`` can repeat a failed request exactly and a page dropped
/// from the window can be loaded again.
///
/// ```swift
/// switch request.position {
/// case .initial(let key): // the first page, at `key` or at the start
/// case .next(let key):    // the page after `key`
/// case .previous(let key): // the page before `key`
/// }
/// ```
public struct PageRequest<Key: Hashable & Sendable>: Hashable, Sendable {
    /// Where a requested page lies.
    public enum Position: Hashable, Sendable {
        /// The first page of the list, at the given key, or where the source
        /// starts when the key is `nil`.
        case initial(Key?)
        /// The page that follows the page whose ``Page/nextKey`` is the key.
        case next(after: Key)
        /// The page that precedes the page whose ``Page/previousKey`` is the key.
        case previous(before: Key)
    }

    /// Where the requested page lies.
    public var position: Position
    /// How many items the pager asks for. A source may return fewer (at an
    /// end) or, if its backend pages in fixed sizes, a different number.
    public var count: Int
    /// Whether the pager asks again for a page it held and dropped from its
    /// window (``PagingConfiguration/maximumHeld``), with the request that
    /// first loaded it: the same page as before, not a refresh, though its
    /// position may be `.initial`. A source that keeps pages (such as one
    /// backed by a file) may answer from what it kept. Not compared by `==`:
    /// a reload asks for the same page as the first request did.
    public var isReload = false
    /// The id of the pager's load that asks it, set by the pager when it
    /// starts the load; `nil` for a request made by anyone else. Not
    /// compared by `==`. A helper that must tell whether a load is still
    /// the one in its slot compares it with ``PagingSnapshot``'s
    /// `loadIDs`.
    package var loadID: Int?
    /// What the pager lends the load (``PagerLoadContext``): set by the
    /// pager, kept by ``forwarded(to:count:)``, not compared by `==`.
    package var load: PagerLoadContext?
    /// The ids of the held items just before the requested page, nearest
    /// first: for a load after the last item, the list's last items (up to
    /// the larger of the count and 20). Set by the pager on loads at the
    /// end, for a source that says it checks them
    /// (``PageSource/checksHeldItems``); empty otherwise. Not compared by
    /// `==`.
    ///
    /// A source whose keys count items (an offset, a page number) checks
    /// with them that the list did not move under its keys since the page
    /// before loaded (``OffsetSource``, ``PageNumberSource``; ``PageDrift``).
    /// A wrapper that drops or changes items (a filter, a map) must empty it
    /// for its base, whose items are not the ones held.
    public var heldBefore: [any Hashable & Sendable] = []
    /// The ids of the held items just after the requested page, nearest
    /// first: for a load before the first item, the list's first items.
    /// See ``heldBefore``.
    public var heldAfter: [any Hashable & Sendable] = []
    /// How far the pager found the list moved above the held items since the
    /// key of a load after the last item was given: the sum of the shifts
    /// (``PageDrift/shift``) that the pages loaded before the first item
    /// found, resynchronized, since the last page loaded; 0 otherwise. An
    /// item added or removed above the first held item moved the last one as
    /// much, so a source whose keys count items looks for the last held item
    /// that much further first (``OffsetSource``). Set with ``heldBefore``;
    /// not compared by `==`.
    public var knownShift = 0

    /// Creates a request.
    /// - Parameters:
    ///   - position: where the page lies.
    ///   - count: how many items to ask for.
    public init(_ position: Position, count: Int) {
        self.position = position
        self.count = count
    }

    /// The request a wrapper sends its base source for this one, when it
    /// asks for another position (a key of its own type turned into its
    /// base's) or another count: the same load of the same pager, so that
    /// what a store-backed base keeps for the pager (its following of the
    /// store) works through the wrapper. A wrapper that passes the request
    /// on as it is needs nothing of this.
    ///
    /// ```swift
    /// func load(_ request: PageRequest<LocalKey>) async throws -> Page<LocalKey, Item> {
    ///     let position: PageRequest<RemoteKey>.Position =
    ///         switch request.position {
    ///         case .initial(let key): .initial(key.map(remoteKey))
    ///         case .next(let key): .next(after: remoteKey(key))
    ///         case .previous(let key): .previous(before: remoteKey(key))
    ///         }
    ///     return try await wrap(base.load(request.forwarded(to: position)))
    /// }
    /// ```
    /// - Parameters:
    ///   - position: the position the base is asked for.
    ///   - count: the number of items asked for; this request's unless given.
    /// - Returns: the request for the base, which keeps ``isReload``,
    ///   ``heldBefore``, ``heldAfter`` and ``knownShift``.
    /// - Complexity: O(1).
    public func forwarded<Other: Hashable & Sendable>(
        to position: PageRequest<Other>.Position, count: Int? = nil
    ) -> PageRequest<Other> {
        var forwarded = PageRequest<Other>(position, count: count ?? self.count)
        forwarded.isReload = isReload
        forwarded.loadID = loadID
        forwarded.load = load
        forwarded.heldBefore = heldBefore
        forwarded.heldAfter = heldAfter
        forwarded.knownShift = knownShift
        return forwarded
    }

    /// Whether two requests ask for the same page: the same position and
    /// count (``isReload`` is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.position == rhs.position && lhs.count == rhs.count
    }

    /// Hashes the position and count.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(position)
        hasher.combine(count)
    }

    /// The key of the request, whatever its position; `nil` for an initial
    /// request without a key.
    public var key: Key? {
        switch position {
        case .initial(let key): key
        case .next(let key), .previous(let key): key
        }
    }

    /// The direction the request loads in; `nil` for an initial request.
    public var direction: LoadDirection? {
        switch position {
        case .initial: nil
        case .next: .next
        case .previous: .previous
        }
    }
}

/// One of the two ends a list grows at.
public enum LoadDirection: Hashable, Sendable, CustomStringConvertible {
    /// Towards the end of the list (appending).
    case next
    /// Towards the start of the list (prepending).
    case previous

    /// `"next"` or `"previous"`.
    public var description: String {
        switch self {
        case .next: "next"
        case .previous: "previous"
        }
    }
}

extension PageRequest: CustomStringConvertible {
    /// A short description such as `next(after: 40), count 20`.
    public var description: String {
        switch position {
        case .initial(let key?): "initial(\(key)), count \(count)"
        case .initial(nil): "initial, count \(count)"
        case .next(let key): "next(after: \(key)), count \(count)"
        case .previous(let key): "previous(before: \(key)), count \(count)"
        }
    }
}
