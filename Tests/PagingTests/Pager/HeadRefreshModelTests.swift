import Foundation
import PagingLock
import PagingTestSupport
import PagingTesting
import Testing

@testable import Paging

/// Random runs of loads, head refreshes, anchored refreshes and query switches against a keyset
/// server whose list changes between requests (inserts at the top and in the middle, deletes,
/// moves, edits), checked after every step against what each refresh promises.
///
/// The list is a ``QueryList``'s: a query keeps the ids it divides (0 keeps every id), so an item
/// of one query's list can never belong to another's by chance. A switch is sometimes asked for
/// right after another one, whose first page is then superseded before it is shown.
///
/// After every step: the list shown is the last query asked for (every load is awaited), each id
/// is held once, every item belongs to that query, and the changes published so far, applied one
/// after the other to the rows of the list's first snapshot (checked), give the list. After a head refresh:
/// the list starts with the server's first pages as they are now (up to the first that reaches the
/// held list surely, within the limit), fresh; what follows is the list held before, from just
/// after the end of a longest run of head items held in the same order, without the head's items
/// (cut at the back by the window, if it has one); with no page reaching the list surely, or the
/// head reaching the list's end, the list is those pages. And, by an oracle that knows nothing of
/// the splice: no held row that kept its place on the server (every longest run in the same order
/// of the held list and the server's keeps it) is dropped, but below a restarted head. The server
/// draws moves to the top among several new items, where a head may hold only the moved item.
/// After an anchored refresh: the rows above the anchor's page are as they were, and what follows
/// is a stretch of the server's list as it is now, without the items above. At the end, a restart
/// paged to the end holds the server's list exactly.
///
/// Replay with `PAGING_SEED=<seed> swift test --filter HeadRefreshModel`.
@Suite("Pager, head refresh model-based", .timeLimit(.minutes(HangLimit.minutes(5))))
struct HeadRefreshModelTests {
    /// The separators the runs put between items: one between groups of three ids, whose value
    /// changes with the item's version (an item changed on the server changes it in place).
    static let separatorRule: SeparatorRule<TestItem, String> = { before, after in
        switch (before, after) {
        case (nil, nil): "empty"
        case (nil, _?): "top"
        case (_?, nil): "end"
        case (let before?, let after?):
            before.id / 3 == after.id / 3 ? nil : "\(after.id / 3).\(after.version % 2)"
        }
    }

    @Test(
        "random loads, server changes, head and anchored refreshes and query switches keep every promise of the splice, and of the separators"
    )
    @MainActor
    func randomRuns() async throws {
        let seed = SeededGenerator.testSeed()
        print("Head refresh model-based test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var refreshes = 0
        var switches = 0
        var movedAnchors = 0
        let (minimumRefreshes, minimumSwitches) = (RandomRuns.count(1_000), RandomRuns.count(300))
        let minimumMoved = RandomRuns.count(150)
        try await RandomRuns.play(
            300,
            until: {
                refreshes >= minimumRefreshes && switches >= minimumSwitches && movedAnchors >= minimumMoved
            }
        ) {
            run in
            let label = "seed \(seed), run \(run)"
            do {
                let played = try await playRun(seed: random.next(), label: label)
                refreshes += played.refreshes
                switches += played.switches
                movedAnchors += played.movedAnchors
            } catch {
                // Which run: PAGING_TRACE=<run> prints its steps.
                Issue.record("\(label): \(error)")
                throw error
            }
        }
        #expect(refreshes >= minimumRefreshes)
        #expect(switches >= minimumSwitches)
        #expect(movedAnchors >= minimumMoved, "the runs moved too few anchors before refreshing around them")
    }

    /// One run; returns the head and anchored refreshes it made, its query switches, and the
    /// anchored refreshes whose anchor moved first.
    @MainActor
    private func playRun(seed: UInt64, label: String) async throws -> (
        refreshes: Int, switches: Int, movedAnchors: Int
    ) {
        var random = SeededGenerator(seed: seed)
        let server = KeysetServer(count: Int.random(in: 0...50, using: &random))
        let pageSize = Int.random(in: 1...6, using: &random)
        let limit: PagingConfiguration.HeldLimit? =
            Bool.random(using: &random) ? nil : .pages(Int.random(in: 2...5, using: &random))
        let queries = [0, 2, 3]
        let search = QueryList(
            query: 0, capacity: Int.random(in: 1...3, using: &random),
            whileLoading: Bool.random(using: &random) ? .keepPrevious : .clear,
            onReturn: [.keep, .refresh, .refreshHead][Int.random(in: 0..<3, using: &random)],
            configuration: try PagingConfiguration(
                pageSize: pageSize, prefetchDistance: 0, maximumHeld: limit)
        ) { query in KeysetSource(server: server, query: query) }
        var pager = search.list.pager
        var recorder = SnapshotRecorder(pager)
        var rows = Array(pager.items)
        var replayed = 1
        // The rows with separators a list would show, kept by each snapshot's row change.
        var separators = SeparatorTransform(Self.separatorRule)
        var separatedRows = Array(separators.apply(recorder.recorded[0]).rows)
        var refreshes = 0
        var anchored = 0
        var movedAnchors = 0
        var switches = 0

        let tracing =
            ProcessInfo.processInfo.environment["PAGING_TRACE"].map { label.hasSuffix("run \($0)") } ?? false
        if tracing { print("\(label): page size \(pageSize), limit \(String(describing: limit))") }

        /// Applies the changes published since the last check and checks the list.
        /// `shown`: whether the pager is the list shown (not one a switch just left).
        func check(_ step: String, shown: Bool = true) throws {
            let violations = pager.invariantViolations
            #expect(violations.isEmpty, "\(label), \(step): the pager's invariants broke: \(violations)")
            let snapshots = recorder.recorded
            for snapshot in snapshots.dropFirst(replayed) {
                if tracing {
                    print("  snapshot \(snapshot.version): \(snapshot.change) -> \(snapshot.items.ids)")
                }
                do {
                    try snapshot.change.checkedApply(to: &rows, from: snapshot.items)
                    let separated = separators.apply(snapshot)
                    let now = Array(separated.rows)
                    try separated.change.checkedApply(to: &separatedRows, from: now)
                    #expect(
                        sameRows(separatedRows, now),
                        "\(label), \(step): a separator or item changed and was not reported updated")
                    #expect(
                        sameRows(now, expectedRows(snapshot, rule: Self.separatorRule)),
                        "\(label), \(step): separators \(now.map(\.id)) are not where the rule puts them")
                } catch {
                    Issue.record(
                        "\(label), \(step): \(error); rows \(rows.map(\.id)), change \(snapshot.change), to \(snapshot.items.ids)"
                    )
                    throw error
                }
            }
            replayed = snapshots.count
            let ids = pager.items.ids
            #expect(rows.map(\.id) == ids, "\(label), \(step): the changes do not give the list")
            #expect(Set(ids).count == ids.count, "\(label), \(step): an id twice in \(ids)")
            guard shown else { return }
            #expect(
                search.query == search.requestedQuery && search.list.pager === pager,
                "\(label), \(step): the list shown is not the last query's")
            #expect(
                ids.allSatisfy { KeysetServer.matches(search.query, $0) },
                "\(label), \(step): an item not of query \(search.query) in \(ids)")
        }

        for step in 0..<Int.random(in: 10...40, using: &random) {
            if tracing {
                let pages = (0..<pager.items.pageCount).map { pager.items.page(at: $0).items.map(\.id) }
                print(
                    "step \(step): pages \(pages), query \(search.query), server \(server.items(matching: search.query).map(\.id)), requests \(server.log.suffix(3))"
                )
            }
            switch Int.random(in: 0..<11, using: &random) {
            case 0..<4:
                if tracing { print("  load next") }
                _ = try await pager.loadNext().value
                try check("step \(step), load next")
            case 4:
                if tracing { print("  load previous") }
                _ = try await pager.loadPrevious().value
                try check("step \(step), load previous")
            case 5..<7:
                for _ in 0..<Int.random(in: 1...3, using: &random) { server.change(using: &random) }
            case 10:
                // A switch, sometimes right after one to another query, superseded before its
                // first page is shown.
                let target = queries[Int.random(in: 0..<queries.count, using: &random)]
                if Bool.random(using: &random) {
                    let other = queries.filter { $0 != target }[Int.random(in: 0..<2, using: &random)]
                    if tracing { print("  switch to \(other), superseded") }
                    search.switchTo(other)
                }
                if tracing { print("  switch to \(target)") }
                _ = try? await search.switchTo(target).value
                switches += 1
                // The list shown is now another pager's: its changes are checked from its snapshot.
                try check("step \(step), the list left by the switch to \(target)", shown: false)
                pager = search.list.pager
                recorder = SnapshotRecorder(pager)
                rows = Array(pager.items)
                replayed = 1
                separators = SeparatorTransform(Self.separatorRule)
                separatedRows = Array(separators.apply(recorder.recorded[0]).rows)
                try check("step \(step), switch to \(target)")
            case 7 where !pager.items.isEmpty:
                // An anchored refresh around a random held item, which half the time moved first (its
                // sort key changed): to the top, up among the rows above its page, or anywhere.
                let before = pager.items
                let anchor = before[Int.random(in: 0..<before.count, using: &random)].id
                var pageStart = 0
                var pageStarts: [Int] = []
                for ordinal in 0..<before.pageCount {
                    let page = before.page(at: ordinal)
                    pageStarts.append(page.firstIndex)
                    if page.items.contains(where: { $0.id == anchor }) { pageStart = page.firstIndex }
                }
                if Bool.random(using: &random) {
                    let everything = server.items.map(\.id)
                    let target =
                        switch Int.random(in: 0..<3, using: &random) {
                        case 0: 0
                        case 1 where pageStart > 0:
                            everything.firstIndex(
                                of: before[Int.random(in: 0..<pageStart, using: &random)].id) ?? 0
                        default: Int.random(in: 0...everything.count, using: &random)
                        }
                    if server.move(anchor, to: target) { movedAnchors += 1 }
                }
                if tracing { print("  anchored refresh around \(anchor), server \(server.items.map(\.id))") }
                let since = recorder.recorded.count
                let outcome = try await pager.refresh(around: anchor).value
                anchored += 1
                try check("step \(step), anchored refresh around \(anchor)")
                guard outcome == .loaded else { continue }
                let label = "\(label), step \(step), anchor \(anchor)"
                expectReanchored(
                    before: Array(before), after: Array(pager.items),
                    pageStarts: pageStarts.filter { $0 <= pageStart },
                    server: server.items(matching: search.query),
                    moved: server.moved, label: label)
                // The reader follows the anchor, or the item now where it stood.
                var reader = ListAnchor<TestItem>()
                reader.point(at: anchor, index: Array(before).firstIndex { $0.id == anchor })
                for snapshot in recorder.recorded.dropFirst(since) {
                    reader.follow(snapshot.change, to: snapshot.items)
                }
                if let index = pager.index(of: anchor) {
                    #expect(
                        reader.id == anchor && reader.index == index, "\(label): the reader lost the anchor")
                }
                try await expectNotLost(anchor, in: pager, server: server, query: search.query, label: label)
            default:
                let before = Array(pager.items)
                let maximumPages = Int.random(in: 1...3, using: &random)
                if tracing { print("  head refresh, \(maximumPages) pages at most") }
                let outcome = try await pager.refreshHead(maximumPages: maximumPages).value
                refreshes += 1
                try check("step \(step), head refresh")
                guard outcome == .loaded, !before.isEmpty else { continue }
                try expectSplice(
                    of: before, into: Array(pager.items), server: server.items(matching: search.query),
                    pageSize: pageSize,
                    maximumPages: maximumPages, limited: limit != nil, label: "\(label), step \(step)")
            }
        }
        // A restart paged to the end is the server's list.
        _ = try await pager.refresh().value
        while pager.hasNext, !Task.isCancelled { _ = try await pager.loadNext().value }
        try check("the end")
        if limit == nil {
            #expect(
                Array(pager.items) == server.items(matching: search.query), "\(label): the list paged anew")
        }
        return (refreshes + anchored, switches, movedAnchors)
    }

    /// Checks an anchored refresh of a list paged forward: the rows above one of the pages read
    /// again (the anchor's, or one above it when the anchor was not on its fresh pages) are as they
    /// were, and what follows them is a stretch of the server's list as it is now, fresh, without
    /// the items shown above.
    /// - Parameter pageStarts: the indices where the held pages started, up to the anchor's page.
    private func expectReanchored(
        before: [TestItem], after: [TestItem], pageStarts: [Int], server: [TestItem], moved: Set<Int>,
        label: String
    ) {
        let kept = pageStarts.sorted(by: >).first { start in
            guard Array(after.prefix(start)) == Array(before.prefix(start)) else { return false }
            let near = Set(before.prefix(start).map(\.id))
            let rest = Array(after.dropFirst(start))
            let fresh = server.filter { !near.contains($0.id) }
            return rest.isEmpty
                || (fresh.firstIndex(of: rest[0]).map { Array(fresh[$0...].prefix(rest.count)) == rest }
                    ?? false)
        }
        guard let nearCount = kept else {
            Issue.record(
                "\(label): the rows above a page read again as they were, then a stretch of the server's list; held \(before.map(\.id)), server \(server.map(\.id)), got \(after.map(\.id))"
            )
            return
        }
        let rest = Array(after.dropFirst(nearCount))
        // Where the stretch starts: below the last row kept, when that row is still where it was
        // on the server (a reload from anywhere above it, the top say, would not be). Not right
        // after it: items added within the kept pages' range since they loaded are not shown until
        // those pages refresh, and the page is asked for after its own key.
        if nearCount > 0, let last = before.prefix(nearCount).last, let first = rest.first,
            !moved.contains(last.id), !moved.contains(first.id),
            let lastPlace = server.firstIndex(where: { $0.id == last.id }),
            let firstPlace = server.firstIndex(where: { $0.id == first.id })
        {
            #expect(
                firstPlace > lastPlace,
                "\(label): the reloaded pages start below the last row kept, \(last.id); got \(rest.map(\.id))"
            )
        }
    }

    /// Checks that an anchored refresh did not lose its anchor: still on the server, it is held,
    /// or paging on (both ways, the server unchanged) brings it. But for an anchor that moved
    /// above the rows held into pages the window dropped: those load again with their requests,
    /// which, as for any item that moved there, may now fall short of it (a refresh brings it).
    @MainActor
    private func expectNotLost(
        _ anchor: Int, in pager: Pager<Int, TestItem>, server: KeysetServer, query: Int, label: String
    ) async throws {
        let ids = server.items(matching: query).map(\.id)
        guard let place = ids.firstIndex(of: anchor), pager.index(of: anchor) == nil else { return }
        if pager.hasPrevious, let first = pager.items.first,
            ids.firstIndex(of: first.id).map({ place < $0 }) ?? true
        {
            return
        }
        var seen = false
        while !seen, pager.hasNext, !Task.isCancelled {
            _ = try await pager.loadNext().value
            seen = pager.index(of: anchor) != nil
        }
        while !seen, pager.hasPrevious, !Task.isCancelled {
            _ = try await pager.loadPrevious().value
            seen = pager.index(of: anchor) != nil
        }
        #expect(seen, "\(label): the anchor is on the server and paging does not bring it")
    }

    /// The lengths of the longest strictly increasing runs ending at each value, by the quadratic
    /// recurrence (independent of the pager's patience sorting).
    private static func runLengths(_ values: [Int]) -> [Int] {
        var lengths = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { lengths[i] = max(lengths[i], lengths[j] + 1) }
        }
        return lengths
    }

    /// Where a head's longest runs of held items in the same order end (the tail starts after),
    /// each with whether it is sure: no alignment that keeps a held row the head leaves out above
    /// the tail (the head's held rows above it, then the left-out rows after it) is longer.
    private static func alignments(of head: [TestItem], in before: [TestItem]) -> [(
        tailStart: Int, sure: Bool
    )] {
        let heldIndex = Dictionary(uniqueKeysWithValues: before.enumerated().map { ($1.id, $0) })
        let old = head.compactMap { heldIndex[$0.id] }
        let lengths = runLengths(old)
        let longest = lengths.max() ?? 0
        return old.indices.filter { lengths[$0] == longest }.map { end in
            let tailStart = old[end] + 1
            let leftOut = (0..<tailStart).filter { !old.contains($0) }
            let sure = leftOut.indices.allSatisfy { ordinal in
                let above = old.indices.filter { old[$0] < leftOut[ordinal] }.map { lengths[$0] }.max() ?? 0
                return above + leftOut.count - ordinal <= longest
            }
            return (tailStart, sure)
        }
    }

    /// The held items that every longest run in the same order of the held list and the server's
    /// list keeps in place: those that kept their place, in the sense of the fewest moves.
    private static func keptTheirPlace(_ before: [TestItem], server: [TestItem]) -> Set<Int> {
        let heldIndex = Dictionary(uniqueKeysWithValues: before.enumerated().map { ($1.id, $0) })
        let common = server.filter { heldIndex[$0.id] != nil }
        let values = common.map { heldIndex[$0.id] ?? 0 }
        let forward = runLengths(values)
        let backward = Array(runLengths(values.reversed().map { -$0 }).reversed())
        let longest = forward.max() ?? 0
        // On some longest run: forward + backward - 1 == longest; on every one: the only such
        // value at its length.
        let onSome = values.indices.filter { forward[$0] + backward[$0] - 1 == longest }
        let byLength = Dictionary(grouping: onSome, by: { forward[$0] })
        return Set(byLength.values.filter { $0.count == 1 }.flatMap { $0 }.map { common[$0].id })
    }

    /// Checks a head refresh against its promise, from the server's list as it is.
    ///
    /// The head is the server's first pages, from the top, until one reaches the list surely (for
    /// a longest run whose end ties with another, either may be the pager's: the head may stop at
    /// any page where one is sure, and not later than where all are), within the limit. Then the
    /// list is the head followed by the held list after the end of a sure longest run, without
    /// the head's items; with no page reaching the list surely, or the head reaching the list's
    /// end, the list is the head. Independent of that rule: no held row that every longest run in
    /// order keeps in place is dropped, but for the back a window cuts, and those below a
    /// restarted head (paging brings them).
    private func expectSplice(
        of before: [TestItem], into after: [TestItem], server: [TestItem], pageSize: Int, maximumPages: Int,
        limited: Bool, label: String
    ) throws {
        var fits = false
        var head: [TestItem] = []
        for page in 0..<maximumPages {
            let items = Array(server.dropFirst(page * pageSize).prefix(pageSize))
            head += items
            let aligns = Self.alignments(of: head, in: before)
            let reachedEnd = head.count == server.count
            let last = page == maximumPages - 1 || reachedEnd || aligns.allSatisfy(\.sure) && !aligns.isEmpty
            if reachedEnd || (last && (aligns.isEmpty || aligns.contains { !$0.sure })) {
                // The list is the head (the window may keep only its top).
                fits = fits || (head.starts(with: after) && (limited || after == head))
            }
            if !reachedEnd, after.starts(with: head) || (limited && head.starts(with: after)) {
                let rest = Array(after.dropFirst(head.count))
                let headIDs = Set(head.map(\.id))
                fits =
                    fits
                    || aligns.contains { align in
                        guard align.sure else { return false }
                        let tail = before[align.tailStart...].filter { !headIDs.contains($0.id) }
                        return limited ? tail.starts(with: rest) : Array(tail) == rest
                    }
            }
            if last { break }
        }
        #expect(
            fits,
            "\(label): the server's first pages up to one that reaches the list surely, then the held list after a sure longest run in order, or those pages alone; held \(before.map(\.id)), server \(server.map(\.id)), got \(after.map(\.id))"
        )
        guard !limited else { return }
        let shown = Set(after.map(\.id))
        let restarted = after == Array(server.prefix(after.count))
        let lost = Self.keptTheirPlace(before, server: server).filter { !shown.contains($0) && !restarted }
        #expect(
            lost.isEmpty,
            "\(label): rows that kept their place on the server are dropped: \(lost.sorted()); held \(before.map(\.id)), server \(server.map(\.id)), got \(after.map(\.id))"
        )
    }
}
