/// The drift check of an ``OffsetSource``: a page asked for with one item of
/// overlap with the held items, checked, and resynchronised when the list
/// moved under its offsets.
struct OffsetDrift<Item: Sendable>: Sendable {
    let fetch: @Sendable (_ offset: Int, _ limit: Int) async throws -> OffsetPage<Item>
    let identity: @Sendable (Item) -> AnyHashable
    /// How many items on each side of the place the held items should end the
    /// wider request looks in; `nil`: the request is no larger than a page
    /// (half a page on each side), for an API that caps its limit.
    let window: Int?

    /// The items a request for a page asks: the page's count, but at least 2
    /// (the overlap and one more).
    private static func limit(_ count: Int) -> Int { max(count, 2) }

    /// The wider request around `place`: its first offset and its limit.
    private func wide(around place: Int, count: Int) -> (start: Int, limit: Int) {
        guard let window else {
            let limit = Self.limit(count)
            let start = max(0, place - limit / 2)
            return (start, limit)
        }
        let start = max(0, place - window)
        return (start, place - start + count + 1 + window)
    }

    /// Where the held item nearest the page is among `items`: its position
    /// there, and its nearness (0 for the held item next to the page); of
    /// equally near ones, the first.
    /// - Complexity: O(*n* + *h*) for *n* items and *h* held ids.
    static func nearest(
        in items: [Item], held: [AnyHashable: Int], identity: (Item) -> AnyHashable
    ) -> (position: Int, nearness: Int)? {
        var found: (position: Int, nearness: Int)?
        for (position, item) in items.enumerated() {
            guard let nearness = held[identity(item)] else { continue }
            if found.map({ nearness < $0.nearness }) ?? true { found = (position, nearness) }
        }
        return found
    }

    /// The nearness of each held id (0 for the one next to the page), by id.
    static func ranks(_ held: [any Hashable & Sendable]) -> [AnyHashable: Int] {
        var ranks: [AnyHashable: Int] = [:]
        for (nearness, id) in held.enumerated() where ranks[AnyHashable(id)] == nil {
            ranks[AnyHashable(id)] = nearness
        }
        return ranks
    }

    /// How many windows beyond the first a search for the held items looks
    /// in, alternately after and before the ones looked in: four windows on
    /// each side.
    static var probes: Int { 8 }

    /// A window looked in: where it starts, the items it asked for, and what came.
    typealias Window = (start: Int, limit: Int, response: OffsetPage<Item>)
    /// A held item a search found: the window it is in, its position there,
    /// and whether the window shows where the held items end (start, for a
    /// page before them); when not, the load asks again with it as the overlap.
    typealias Found = (window: Window, position: Int, settled: Bool)

    /// Looks for the held items around a place: in the wider request around
    /// it, then in the windows next to what was looked in, alternately after
    /// and before, each as large, up to ``probes`` more (not before offset 0,
    /// nor past a window that came back short: the list's end).
    /// - Returns: the first window, and the one the nearest held item was
    ///   found in with its position there; `nil` when none was found.
    /// - Complexity: at most ``probes`` + 1 requests.
    private func search(
        around place: Int, count: Int, ranks: [AnyHashable: Int], nearerAfter: Bool
    ) async throws -> (first: Window, found: Found?) {
        let (start, limit) = wide(around: place, count: count)
        let first: Window = (start, limit, try await fetch(start, limit))
        if let found = try await held(in: first, count: count, ranks: ranks, nearerAfter: nearerAfter) {
            return (first, found)
        }
        var low = start
        var high = start + limit
        var ended = first.response.items.count < limit
        var probe = 0
        while probe < Self.probes, !(ended && low == 0) {
            let after = !ended && (low == 0 || probe.isMultiple(of: 2))
            let probeStart = after ? high : max(0, low - limit)
            let probeLimit = after ? limit : low - probeStart
            let window: Window = (probeStart, probeLimit, try await fetch(probeStart, probeLimit))
            probe += 1
            if after {
                high += limit
                ended = window.response.items.count < limit
            } else {
                low = probeStart
            }
            if let found = try await held(in: window, count: count, ranks: ranks, nearerAfter: nearerAfter) {
                return (first, found)
            }
        }
        return (first, nil)
    }

    /// The held item nearest the page that a window shows, settled by
    /// ``lookOn(from:nearness:count:ranks:after:)`` when it is not the one
    /// next to the page; `nil` when the window shows none.
    private func held(in window: Window, count: Int, ranks: [AnyHashable: Int], nearerAfter: Bool)
        async throws -> Found?
    {
        guard
            let (position, nearness) = Self.nearest(
                in: window.response.items, held: ranks, identity: identity)
        else { return nil }
        let found: Found = (window, position, true)
        guard nearness > 0 else { return found }
        return try await lookOn(
            from: found, nearness: nearness, count: count, ranks: ranks, after: nearerAfter)
    }

    /// When the held item a window showed is not the one next to the page
    /// (`nearness` above 0: those nearer were removed, or are past the
    /// window's edge), looks once more in a window moved that way, up to
    /// `nearness` items (half a window at most), unless the list ends at the
    /// edge: so the page does not start after a held item that others follow.
    /// - Parameter after: whether the nearer held items are after it (a page
    ///   loaded after the held items) or before it.
    /// - Returns: the nearest held item in the new window, with the window;
    ///   the one found, not settled, when that window shows none (the list
    ///   moved again).
    /// - Complexity: one request, when the window does not reach the list's end.
    private func lookOn(
        from found: Found, nearness: Int, count: Int, ranks: [AnyHashable: Int], after: Bool
    ) async throws -> Found {
        let (window, position, _) = found
        let place = window.start + position
        let reachesEnd =
            after
            ? window.response.items.count < window.limit
                || window.response.totalCount.map { window.start + window.limit >= $0 } == true
            : window.start == 0
        guard !reachesEnd else { return found }
        let half = max(1, (window.limit - 1) / 2)
        let center = after ? place + min(nearness, half) : max(0, place - min(nearness, half))
        let (start, limit) = wide(around: center, count: count)
        let next: Window = (start, limit, try await fetch(start, limit))
        guard let (nearest, _) = Self.nearest(in: next.response.items, held: ranks, identity: identity) else {
            return (window, position, false)
        }
        return (next, nearest, true)
    }

    /// How many times a load asks again when the item it found the held ones
    /// end at is the last of its response: each time, with that item as the
    /// overlap, checked again.
    private static var attempts: Int { 4 }

    /// The page after the held items whose last is at `offset - 1`: asked
    /// with that item, checked (`shift` further, what the pager found the
    /// list moved above the held items since the offset was given); when it
    /// moved, the held items are found again in a wider request (`window`
    /// items before the page and after it, so that the items it shows are the
    /// list at one moment), then in the windows next to it
    /// (``search(around:count:ranks:)``), and the page starts right after the
    /// last of them.
    /// - Parameters:
    ///   - offset: the offset after the last held item, as the page before said.
    ///   - shift: how far the list is known to have moved above the held items
    ///     since (``PageRequest/knownShift``).
    ///   - held: the held items' ids, the last first.
    ///   - page: makes the page of a response of items from an offset, asked for a limit.
    func after(
        _ offset: Int, shift: Int = 0, count: Int, held: [any Hashable & Sendable],
        page: (OffsetPage<Item>, _ offset: Int, _ limit: Int) -> Page<Int, Item>
    ) async throws -> Page<Int, Item> {
        let ranks = Self.ranks(held)
        let expected = offset - 1
        var anchor = AnyHashable(held[0])
        let (shifted, overflow) = expected.addingReportingOverflow(shift)
        var start = overflow ? expected : max(0, shifted)
        for _ in 0..<Self.attempts {
            let limit = Self.limit(count)
            let response = try await fetch(start, limit)
            if let first = response.items.first, identity(first) == anchor {
                let rest = response.items.dropFirst()
                // The anchor a search found may not be the last held item: one nearer the end,
                // just after it, is where the held items end.
                if let rank = ranks[anchor], rank > 0,
                    let nearer = rest.lastIndex(where: { (ranks[identity($0)] ?? .max) < rank })
                {
                    anchor = identity(rest[nearer])
                    start += nearer
                    continue
                }
                // Where it was: the page is what follows it.
                var made = page(
                    OffsetPage(items: Array(response.items.dropFirst()), totalCount: response.totalCount),
                    start + 1, limit - 1)
                if start != expected {
                    made.drift = PageDrift(direction: .next, shift: start - expected, resynchronized: true)
                }
                return made
            }
            // The held items moved: where is the last of them now, around here?
            let (first, found) = try await search(
                around: start, count: count, ranks: ranks, nearerAfter: true)
            guard let ((wideStart, wideLimit, wide), position, settled) = found else {
                // No held item is left around: the first window is all new to the list (the
                // list's start, when the window reaches it: nothing skipped).
                var made = page(first.response, first.start, first.limit)
                made.drift = PageDrift(direction: .next, shift: nil, resynchronized: false)
                return made
            }
            let place = wideStart + position
            let following = wide.items.dropFirst(position + 1)
            let ended = wide.items.count < wideLimit || wide.totalCount.map { place + 1 >= $0 } == true
            if settled, !following.isEmpty || ended {
                let taken = Array(following.prefix(count))
                var made = page(
                    OffsetPage(items: taken, totalCount: wide.totalCount), place + 1,
                    taken.count < following.count ? taken.count : wideLimit - position - 1)
                if place != expected {
                    made.drift = PageDrift(direction: .next, shift: place - expected, resynchronized: true)
                }
                return made
            }
            // Nothing after it in what came, or not settled: ask again after it, with it as the overlap.
            anchor = identity(wide.items[position])
            start = place
        }
        var made = page(try await fetch(start + 1, count), start + 1, count)
        made.drift = PageDrift(direction: .next, shift: nil, resynchronized: false)
        return made
    }

    /// The page before the held items whose first is at `end`: the mirror of
    /// ``after(_:count:held:page:)``.
    /// - Parameters:
    ///   - end: the offset of the first held item, as its page said.
    ///   - held: the held items' ids, the first first.
    ///   - page: makes the page of a response of items from an offset, asked for a limit.
    func before(
        _ end: Int, count: Int, held: [any Hashable & Sendable],
        page: (OffsetPage<Item>, _ offset: Int, _ limit: Int) -> Page<Int, Item>
    ) async throws -> Page<Int, Item> {
        let ranks = Self.ranks(held)
        let expected = end
        var anchor = AnyHashable(held[0])
        var end = end
        var drifted = false
        for _ in 0..<Self.attempts {
            let start = max(0, end - (Self.limit(count) - 1))
            let response = try await fetch(start, end - start + 1)
            if response.items.count == end - start + 1, let item = response.items.last,
                identity(item) == anchor
            {
                let rest = response.items.dropLast()
                // The anchor a search found may not be the first held item: one nearer the start,
                // just before it, is where the held items start.
                if let rank = ranks[anchor], rank > 0,
                    let nearer = rest.firstIndex(where: { (ranks[identity($0)] ?? .max) < rank })
                {
                    anchor = identity(rest[nearer])
                    end = start + nearer
                    continue
                }
                var made = page(
                    OffsetPage(items: Array(response.items.dropLast()), totalCount: response.totalCount),
                    start,
                    end - start)
                if drifted, end != expected {
                    made.drift = PageDrift(direction: .previous, shift: end - expected, resynchronized: true)
                }
                return made
            }
            drifted = true
            let (first, found) = try await search(around: end, count: count, ranks: ranks, nearerAfter: false)
            guard let ((wideStart, _, wide), position, settled) = found else {
                var made = page(first.response, first.start, first.response.items.count)
                made.drift = PageDrift(direction: .previous, shift: nil, resynchronized: false)
                return made
            }
            let place = wideStart + position
            if settled, position > 0 || wideStart == 0 {
                let taken = min(count, position)
                var made = page(
                    OffsetPage(
                        items: Array(wide.items[(position - taken)..<position]), totalCount: wide.totalCount),
                    place - taken, taken)
                if place != expected {
                    made.drift = PageDrift(
                        direction: .previous, shift: place - expected, resynchronized: true)
                }
                return made
            }
            // Nothing before it in what came, or not settled: ask again before it, with it as the
            // overlap.
            anchor = identity(wide.items[position])
            end = place
        }
        let start = max(0, end - count)
        var made = page(try await fetch(start, end - start), start, end - start)
        made.drift = PageDrift(direction: .previous, shift: nil, resynchronized: false)
        return made
    }
}
