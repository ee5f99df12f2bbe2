/// The keys asked for at each end of a list: what tells a source whose keys
/// come round again (A → B → A) from one that goes on.
///
/// Invariant: ``next`` holds exactly the keys of the `next(after:)` requests
/// remembered since the last ``removeAll()``, ``previous`` those of the
/// `previous(before:)` requests; an initial request adds nothing.
struct AskedKeys<Key: Hashable & Sendable>: Sendable {
    /// The keys asked for with `next(after:)`.
    private(set) var next: Set<Key> = []
    /// The keys asked for with `previous(before:)`.
    private(set) var previous: Set<Key> = []

    /// Remembers the key a request asked for in its direction.
    /// - Complexity: O(1) expected.
    mutating func remember(_ request: PageRequest<Key>) {
        switch request.position {
        case .initial: break
        case .next(let key): next.insert(key)
        case .previous(let key): previous.insert(key)
        }
    }

    /// The keys asked for in a direction.
    /// - Complexity: O(1).
    func keys(_ direction: LoadDirection) -> Set<Key> {
        direction == .next ? next : previous
    }

    /// Forgets the keys asked for in a direction: after a page found the
    /// list moved under its keys (``PageDrift``), they stand for other places.
    /// - Complexity: O(*k*) for *k* keys held.
    mutating func forget(_ direction: LoadDirection) {
        if direction == .next { next = [] } else { previous = [] }
    }

    /// Forgets every key.
    /// - Complexity: O(*k*) for *k* keys held.
    mutating func removeAll() {
        next = []
        previous = []
    }

    /// Whether a page loaded for a request names, as its key in the
    /// request's direction, the key it was asked with or one asked for
    /// before in that direction: following it would load pages already
    /// loaded, round and round. An initial request never leads back.
    /// - Complexity: O(1) expected.
    func leadsBack<Item: Sendable>(_ page: Page<Key, Item>, from request: PageRequest<Key>) -> Bool {
        Self.leadsBack(page, from: request, askedBefore: request.direction.map(keys) ?? [])
    }

    /// Whether a page loaded for a request names, as its key in the
    /// request's direction, the key it was asked with or one of
    /// `askedBefore`.
    /// - Complexity: O(1) expected.
    static func leadsBack<Item: Sendable>(
        _ page: Page<Key, Item>, from request: PageRequest<Key>, askedBefore: Set<Key>
    ) -> Bool {
        let (asked, key): (Key?, Key?)
        switch request.position {
        case .initial: return false
        case .next(let after): (asked, key) = (after, page.nextKey)
        case .previous(let before): (asked, key) = (before, page.previousKey)
        }
        guard let key else { return false }
        return key == asked || askedBefore.contains(key)
    }
}
