/// The keys asked for at each end of a list: what tells a source whose keys
/// come round again (A → B → A) from one that goes on.
///
/// Invariant: ``next`` holds exactly the keys of the `next(after:)` requests
/// remembered since the last ``removeAll()`` (or since their direction's
/// keys were all forgotten, after a drift) more often than they were
/// forgotten (``forget(_:)``), ``previous`` those of the `previous(before:)`
/// requests; an initial request adds nothing. A key remembered *k* times
/// stays until it is forgotten *k* times.
struct AskedKeys<Key: Hashable & Sendable>: Sendable {
    /// The keys asked for with `next(after:)`.
    private(set) var next: Set<Key> = []
    /// The keys asked for with `previous(before:)`.
    private(set) var previous: Set<Key> = []
    /// For a key of ``next`` remembered more than once, how many times more.
    private var nextRepeats: [Key: Int] = [:]
    /// For a key of ``previous`` remembered more than once, how many times more.
    private var previousRepeats: [Key: Int] = [:]

    /// Remembers the key a request asked for in its direction.
    /// - Complexity: O(1) expected.
    mutating func remember(_ request: PageRequest<Key>) {
        switch request.position {
        case .initial: break
        case .next(let key): if !next.insert(key).inserted { nextRepeats[key, default: 0] += 1 }
        case .previous(let key): if !previous.insert(key).inserted { previousRepeats[key, default: 0] += 1 }
        }
    }

    /// Forgets the key of a request remembered before, once: a key
    /// remembered for another request too stays. A key not remembered is
    /// ignored.
    /// - Complexity: O(1) expected.
    mutating func forget(_ request: PageRequest<Key>) {
        switch request.position {
        case .initial: break
        case .next(let key): Self.forget(key, in: &next, repeats: &nextRepeats)
        case .previous(let key): Self.forget(key, in: &previous, repeats: &previousRepeats)
        }
    }

    private static func forget(_ key: Key, in keys: inout Set<Key>, repeats: inout [Key: Int]) {
        if let count = repeats[key] {
            repeats[key] = count > 1 ? count - 1 : nil
        } else {
            keys.remove(key)
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
        if direction == .next {
            next = []
            nextRepeats = [:]
        } else {
            previous = []
            previousRepeats = [:]
        }
    }

    /// Forgets every key.
    /// - Complexity: O(*k*) for *k* keys held.
    mutating func removeAll() {
        next = []
        previous = []
        nextRepeats = [:]
        previousRepeats = [:]
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
