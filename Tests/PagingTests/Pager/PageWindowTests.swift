import PagingTesting
import Testing

@testable import Paging

/// The window on its own: the held pages in sequence order, one page per
/// record, each id held once and indexed to its page, dropped pages replayed
/// nearest first.
@Suite("PageWindow")
struct PageWindowTests {
    typealias Window = PageWindow<Int, TestItem>
    let list = NumberList(total: 100)

    /// Loads the page of a request into a window at an end.
    @discardableResult
    func add(
        _ request: PageRequest<Int>, to window: inout Window, atEnd: Bool = true, replaying: Bool = false,
        modified: Int = 1, page: Page<Int, TestItem>? = nil
    ) -> (kept: Int, duplicates: Int) {
        window.add(
            page ?? list.page(for: request), for: request, atEnd: atEnd, replaying: replaying,
            modified: modified)
    }

    /// A window holding `0..<30` as three pages of ten, sequences 0, 1, 2.
    func threePages() -> Window {
        var window = Window()
        add(PageRequest(.initial(nil), count: 10), to: &window)
        add(PageRequest(.next(after: 10), count: 10), to: &window)
        add(PageRequest(.next(after: 20), count: 10), to: &window)
        return window
    }

    @Test("an empty window holds nothing and has more at both ends")
    func empty() {
        let window = Window()
        #expect(!window.isLoaded && window.pageCount == 0)
        #expect(window.hasNext && window.hasPrevious)
        #expect(window.nextRequest(.next, count: nil, pageSize: 10) == nil)
        expectInvariants(window)
    }

    @Test("pages added at either end take the next sequences, in list order")
    func sequences() {
        var window = Window()
        add(PageRequest(.initial(40), count: 10), to: &window)
        add(PageRequest(.next(after: 50), count: 10), to: &window)
        add(PageRequest(.previous(before: 40), count: 10), to: &window, atEnd: false)
        #expect(window.firstSequence == -1 && window.endSequence == 2)
        #expect(window.items.ids == Array(30..<60))
        #expect(window.record(at: -1)?.request == PageRequest(.previous(before: 40), count: 10))
        #expect(window.record(at: 1)?.nextKey == 60)
        #expect(window.edgeKeys.previous == 30 && window.edgeKeys.next == 60)
        #expect(window.index(of: TestItem(id: 35).id) == 5)
        #expect(window.location(of: 55) == 1)
        expectInvariants(window)
    }

    @Test("an id held already, or repeated within a page, is dropped and counted")
    func deduplication() {
        var window = threePages()
        let page = Page<Int, TestItem>(
            items: [TestItem(id: 25), TestItem(id: 30), TestItem(id: 30), TestItem(id: 31)], nextKey: nil)
        let (kept, duplicates) = add(PageRequest(.next(after: 30), count: 4), to: &window, page: page)
        #expect(kept == 2 && duplicates == 2)
        #expect(window.items.ids == Array(0..<32))
        #expect(window.location(of: 25) == 2)
        #expect(window.location(of: 30) == 3)
        expectInvariants(window)
    }

    @Test("a dropped page leaves its request, and is replayed nearest first as a reload")
    func dropAndReplay() throws {
        var window = threePages()
        #expect(window.dropPage(atEnd: true) == 10)
        #expect(window.dropPage(atEnd: true) == 10)
        #expect(window.droppedPageCounts.back == 2)
        #expect(window.items.ids == Array(0..<10))
        #expect(window.location(of: 15) == nil)
        #expect(window.hasNext)
        expectInvariants(window)
        let (request, replaying) = try #require(window.nextRequest(.next, count: 99, pageSize: 10))
        #expect(replaying && request.isReload)
        #expect(request == PageRequest(.next(after: 10), count: 10))
        add(request, to: &window, replaying: true)
        #expect(window.droppedPageCounts.back == 1)
        #expect(window.items.ids == Array(0..<20))
        #expect(
            window.nextRequest(.next, count: nil, pageSize: 10)?.0 == PageRequest(.next(after: 20), count: 10)
        )
        expectInvariants(window)
    }

    @Test("past the end's key there is nothing to load; a count given is asked for")
    func nextRequestAtTheEnds() throws {
        var window = Window()
        add(PageRequest(.initial(90), count: 10), to: &window)
        #expect(window.nextRequest(.next, count: nil, pageSize: 10) == nil)
        #expect(!window.hasNext && window.hasPrevious)
        let (request, replaying) = try #require(window.nextRequest(.previous, count: 3, pageSize: 10))
        #expect(!replaying && request == PageRequest(.previous(before: 90), count: 3))
    }

    @Test("the limit counts pages or items")
    func limit() {
        let window = threePages()
        #expect(window.exceeds(.pages(2)) && !window.exceeds(.pages(3)))
        #expect(window.exceeds(.items(29)) && !window.exceeds(.items(30)))
        #expect(!window.exceeds(nil))
    }

    @Test("the keys asked for are those of the held and dropped pages, kept when a page drops")
    func askedKeys() {
        var window = threePages()
        window.dropPage(atEnd: false)
        add(PageRequest(.previous(before: 0), count: 10), to: &window, atEnd: false, page: Page(items: []))
        #expect(window.asked.next == [10, 20])
        #expect(window.asked.previous == [0])
    }

    @Test("replacing every page keeps the dropped requests asked for, and drops past the limit at the back")
    func replaceAll() {
        var window = threePages()
        window.dropPage(atEnd: true)
        let kept = window.droppedBack
        let pages = [0, 10, 20].map { start in
            let request = PageRequest<Int>(start == 0 ? .initial(nil) : .next(after: start), count: 10)
            return (request, list.page(for: request))
        }
        let duplicates = window.replaceAll(
            with: pages, firstSequence: 5, keepDropped: (front: nil, back: kept), modified: 7,
            limit: .pages(2))
        #expect(duplicates == 0)
        // Only the back's dropped requests are kept: the front drops.
        #expect(window.firstSequence == 6 && window.endSequence == 8)
        #expect(window.items.ids == Array(10..<30))
        #expect(window.droppedBack == kept && window.droppedFront.count == 1)
        #expect(window.asked.next == [10, 20])
        #expect(window.record(at: 6)?.modified == 7)
        expectInvariants(window)
    }

    @Test("removing everything starts again at sequence 0")
    func removeAll() {
        var window = threePages()
        window.dropPage(atEnd: true)
        window.removeAll()
        #expect(!window.isLoaded && window.items.isEmpty)
        #expect(window.droppedPageCounts == (0, 0))
        #expect(window.asked.next.isEmpty)
        #expect(window.location(of: 5) == nil)
        add(PageRequest(.initial(nil), count: 10), to: &window)
        #expect(window.firstSequence == 0)
        expectInvariants(window)
    }

    @Test("random adds and drops at both ends keep every invariant")
    func randomized() {
        let seed = SeededGenerator.testSeed()
        print("PageWindow randomized test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var window = Window()
        var next = 0
        for _ in 0..<300 {
            // Pages of ids that overlap what is held now and then.
            let count = Int.random(in: 0...6, using: &random)
            let start = Int.random(in: max(0, next - 3)...next + 2, using: &random)
            let page = Page<Int, TestItem>(
                items: (start..<start + count).map { TestItem(id: $0) }, nextKey: next)
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1:
                add(PageRequest(.next(after: next), count: count), to: &window, page: page)
            case 2:
                add(PageRequest(.previous(before: next), count: count), to: &window, atEnd: false, page: page)
            case 3 where window.pageCount > 1:
                window.dropPage(atEnd: Bool.random(using: &random))
            default:
                if case let (request, true)? = window.nextRequest(.next, count: nil, pageSize: 5) {
                    add(request, to: &window, replaying: true, page: page)
                }
            }
            next += count
            expectInvariants(window, "seed \(seed)")
        }
    }

    /// A window holding `10..<50` as four pages of ten, sequences 1 to 4,
    /// loaded forward from `0..<10` (sequence 0, dropped since); every page
    /// marked version 1.
    func fourPagesAfterADroppedOne() -> Window {
        var window = Window()
        add(PageRequest(.initial(nil), count: 10), to: &window)
        for start in [10, 20, 30, 40] { add(PageRequest(.next(after: start), count: 10), to: &window) }
        window.dropPage(atEnd: false)
        return window
    }

    @Test("the indices of many ids are found with one look through each page that holds one")
    func indicesOfIDs() {
        var window = threePages()
        window.dropPage(atEnd: false)
        #expect(window.indices(of: [15, 5, 29, 10, 99, 15]) == [15: 5, 29: 19, 10: 0])
        #expect(window.indices(of: []).isEmpty)
    }

    @Test(
        "a head spliced in replaces what it covers and keeps the tail's pages where they are, minus the items it moved up"
    )
    func reattachSplices() {
        var window = fourPagesAfterADroppedOne()
        // The head: 100 new, 22 and 23 (the tail starts after them, at 24), 35 from the tail (moved
        // up), 100 twice.
        let head = Page<Int, TestItem>(items: [100, 22, 23, 35, 100].map { TestItem(id: $0) }, nextKey: 24)
        let headRequest = PageRequest<Int>(.initial(nil), count: 5)
        let duplicates = window.reattach(
            [(headRequest, head)], movedUp: [25], tailStart: 14, modified: 9, limit: nil)
        #expect(duplicates == 1)
        #expect(window.items.ids == [100, 22, 23, 35] + Array(24..<35) + Array(36..<50))
        // The head takes the sequence before the tail's first page, which keeps its own.
        #expect(window.firstSequence == 1 && window.endSequence == 5 && window.origin == 1)
        #expect(window.record(at: 1)?.request == headRequest && window.record(at: 1)?.modified == 9)
        // The page the tail starts in is asked for after the head now; it and the page that lost
        // 35 changed, the last page did not.
        #expect(window.record(at: 2)?.request == PageRequest(.next(after: 24), count: 10))
        #expect(window.record(at: 2)?.modified == 9 && window.record(at: 3)?.modified == 9)
        #expect(window.record(at: 4)?.modified == 1)
        #expect(window.droppedPageCounts == (0, 0))
        #expect(window.asked.next == [24, 30, 40] && window.asked.previous.isEmpty)
        #expect(window.location(of: 35) == 1 && window.location(of: 20) == nil)
        expectInvariants(window)
        expectAskedKeysOfPages(window)
    }

    @Test(
        "a head that covers every held item replaces them; the back's dropped requests stay; past the limit it drops at the back"
    )
    func reattachCoveringAll() {
        var window = fourPagesAfterADroppedOne()
        window.dropPage(atEnd: true)
        let pages = [
            (
                PageRequest<Int>(.initial(nil), count: 3),
                Page<Int, TestItem>(items: [1, 2, 10].map { TestItem(id: $0) }, nextKey: 7)
            ),
            (
                PageRequest<Int>(.next(after: 7), count: 3),
                Page<Int, TestItem>(items: [3, 39].map { TestItem(id: $0) }, nextKey: 8)
            ),
        ]
        let duplicates = window.reattach(
            pages, movedUp: [], tailStart: 30, modified: 9, limit: .pages(1))
        #expect(duplicates == 0)
        #expect(window.items.ids == [1, 2, 10])
        #expect(window.pageCount == 1 && window.origin == window.firstSequence)
        #expect(window.droppedFront.isEmpty)
        #expect(
            window.droppedBack == [
                PageRequest(.next(after: 40), count: 10), PageRequest(.next(after: 7), count: 3),
            ])
        expectInvariants(window)
        expectAskedKeysOfPages(window)
    }

    @Test(
        "an anchored refresh forward keeps the pages before the anchor's, replaces it and those after, and forgets the back's dropped requests"
    )
    func reanchorForward() {
        var window = fourPagesAfterADroppedOne()
        window.dropPage(atEnd: true)
        let loaded = [
            // 19 is held before the anchor's page: left out, not a duplicate; 301 twice: a duplicate.
            (
                PageRequest<Int>(.next(after: 30), count: 10),
                Page<Int, TestItem>(items: [19, 30, 300, 301, 301].map { TestItem(id: $0) }, nextKey: 35)
            ),
            (
                PageRequest<Int>(.next(after: 35), count: 10),
                Page<Int, TestItem>(items: [35, 36].map { TestItem(id: $0) }, nextKey: 37)
            ),
        ]
        let duplicates = window.reanchor(loaded, at: 3, forward: true, modified: 9, limit: nil)
        #expect(duplicates == 1)
        #expect(window.items.ids == Array(10..<30) + [30, 300, 301, 35, 36])
        #expect(window.firstSequence == 1 && window.endSequence == 5 && window.origin == 0)
        #expect(window.record(at: 1)?.modified == 1 && window.record(at: 2)?.modified == 1)
        #expect(window.record(at: 3)?.request == loaded[0].0 && window.record(at: 4)?.modified == 9)
        #expect(window.droppedBack.isEmpty && window.droppedFront.count == 1)
        #expect(window.asked.next == [10, 20, 30, 35])
        expectInvariants(window)
        expectAskedKeysOfPages(window)
    }

    @Test(
        "an anchored refresh backward keeps the pages after the anchor's, replaces it and those before; past the limit it drops at the front"
    )
    func reanchorBackward() {
        var window = Window()
        add(PageRequest(.initial(40), count: 10), to: &window)
        for end in [40, 30, 20] {
            add(PageRequest(.previous(before: end), count: 10), to: &window, atEnd: false)
        }
        window.dropPage(atEnd: false)
        #expect(window.items.ids == Array(20..<50) && window.firstSequence == -2)
        let loaded = [
            (
                PageRequest<Int>(.previous(before: 27), count: 10),
                Page<Int, TestItem>(items: [25, 26].map { TestItem(id: $0) }, previousKey: 25)
            ),
            // 40 is held after the anchor's page: left out.
            (
                PageRequest<Int>(.previous(before: 40), count: 10),
                Page<Int, TestItem>(items: [27, 300, 31, 40].map { TestItem(id: $0) }, previousKey: 27)
            ),
        ]
        let duplicates = window.reanchor(loaded, at: -1, forward: false, modified: 9, limit: .items(14))
        #expect(duplicates == 0)
        #expect(window.items.ids == [27, 300, 31] + Array(40..<50))
        #expect(window.firstSequence == -1 && window.endSequence == 1)
        #expect(window.record(at: 0)?.modified == 1 && window.record(at: -1)?.modified == 9)
        #expect(window.droppedFront == [loaded[0].0] && window.droppedBack.isEmpty)
        expectInvariants(window)
        expectAskedKeysOfPages(window)
    }

    @Test(
        "removing thousands of items at once builds the identity index again: every item held is still found, once"
    )
    func largeRemovals() {
        let large = NumberList(total: 10_000)
        var window = Window()
        _ = window.add(
            large.page(for: PageRequest(.initial(nil), count: 100)),
            for: PageRequest(.initial(nil), count: 100),
            atEnd: true, replaying: false, modified: 1)
        for start in stride(from: 100, to: 3_000, by: 100) {
            let request = PageRequest<Int>(.next(after: start), count: 100)
            _ = window.add(large.page(for: request), for: request, atEnd: true, replaying: false, modified: 1)
        }
        // An anchored refresh at page 5 removes 2,500 items, more than a quarter of those held.
        let request = PageRequest<Int>(.next(after: 500), count: 100)
        _ = window.reanchor(
            [(request, large.page(for: request))], at: 5, forward: true, modified: 2, limit: nil)
        #expect(window.items.ids == Array(0..<600))
        #expect(window.indexedCount == 600)
        expectInvariants(window)
        expectAskedKeysOfPages(window)
        // A head that reaches item 450 covers 450 items of 600.
        let head = Page<Int, TestItem>(
            items: [TestItem(id: -1)] + (300..<451).map { TestItem(id: $0) }, nextKey: 451)
        _ = window.reattach(
            [(PageRequest(.initial(nil), count: 152), head)], movedUp: [], tailStart: 451, modified: 3,
            limit: nil)
        #expect(window.items.ids == [-1] + Array(300..<600))
        #expect(window.indexedCount == 301)
        expectInvariants(window)
        expectAskedKeysOfPages(window)
    }

    @Test(
        "random head splices and anchored refreshes leave the window a rebuild from its pages would, and keep every invariant"
    )
    func randomizedRefreshes() {
        let seed = SeededGenerator.testSeed()
        print("PageWindow refresh test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for run in 0..<200 {
            let comment: Comment = "seed \(seed), run \(run)"
            var window = Window()
            var nextID = 0
            var nextKey = 1_000
            func freshPage(reusing held: [Int]) -> [TestItem] {
                (0..<Int.random(in: 0...6, using: &random)).map { _ in
                    if !held.isEmpty, Int.random(in: 0..<3, using: &random) == 0 {
                        return TestItem(id: held.randomElement(using: &random) ?? 0, version: 1)
                    }
                    nextID += 1
                    return TestItem(id: 10_000 + nextID)
                }
            }
            // Pages at both ends, some dropped.
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let items = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                    nextID += 1
                    return TestItem(id: nextID)
                }
                nextKey += 1
                let atEnd = Bool.random(using: &random)
                let request = PageRequest<Int>(
                    atEnd ? .next(after: nextKey) : .previous(before: nextKey), count: 5)
                _ = window.add(
                    Page(items: items, previousKey: nextKey + 500, nextKey: nextKey + 700), for: request,
                    atEnd: atEnd, replaying: false, modified: 1)
            }
            for _ in 0..<Int.random(in: 0...2, using: &random) where window.pageCount > 1 {
                window.dropPage(atEnd: Bool.random(using: &random))
            }
            let held = window.items.ids
            let limit: PagingConfiguration.HeldLimit? =
                [nil, .pages(3), .items(12)].randomElement(using: &random) ?? nil
            var pages: [(PageRequest<Int>, Page<Int, TestItem>)] = []
            for ordinal in 0..<Int.random(in: 1...3, using: &random) {
                nextKey += 1
                let request = PageRequest<Int>(ordinal == 0 ? .initial(nil) : .next(after: nextKey), count: 6)
                pages.append(
                    (request, Page(items: freshPage(reusing: held), previousKey: nil, nextKey: nextKey + 900))
                )
            }
            var expected = window
            if Bool.random(using: &random) {
                var seen = Set<Int>()
                let headItems = pages.flatMap(\.1.items).filter { seen.insert($0.id).inserted }
                let heldItems = window.items
                guard
                    let splice = HeadSplice.make(
                        head: headItems, heldCount: heldItems.count, heldIndex: { window.index(of: $0) },
                        heldItem: { heldItems[$0] })
                else { continue }
                let rebuilt = Self.rebuiltAfterReattach(
                    window, pages, headIDs: seen, tailStart: splice.tailStart, limit: limit)
                let movedUp = splice.change.removed.flatMap { $0 }.filter { $0 >= splice.tailStart }
                let duplicates = window.reattach(
                    pages, movedUp: movedUp, tailStart: splice.tailStart, modified: 9, limit: limit)
                #expect(duplicates == rebuilt.duplicates, comment)
                expected = rebuilt.window
                #expect(window.origin == window.firstSequence, comment)
            } else {
                let sequence = Int.random(in: window.firstSequence..<window.endSequence, using: &random)
                let forward = Bool.random(using: &random)
                let rebuilt = Self.rebuiltAfterReanchor(
                    window, pages, at: sequence, forward: forward, limit: limit)
                let duplicates = window.reanchor(
                    pages, at: sequence, forward: forward, modified: 9, limit: limit)
                #expect(duplicates == rebuilt.duplicates, comment)
                expected = rebuilt.window
                #expect(window.origin == expected.origin, comment)
            }
            expectInvariants(window, comment)
            expectAskedKeysOfPages(window, comment)
            #expect(window.items.ids == expected.items.ids, comment)
            #expect(window.pageCount == expected.pageCount, comment)
            #expect(
                window.droppedFront == expected.droppedFront && window.droppedBack == expected.droppedBack,
                comment)
            #expect(
                window.asked.next == expected.asked.next && window.asked.previous == expected.asked.previous,
                comment)
            for ordinal in 0..<min(window.pageCount, expected.pageCount) {
                let (record, other) = (
                    window.record(at: window.firstSequence + ordinal),
                    expected.record(at: expected.firstSequence + ordinal)
                )
                #expect(record?.request == other?.request, comment)
                #expect(
                    record?.previousKey == other?.previousKey && record?.nextKey == other?.nextKey, comment)
            }
        }
    }

    /// The window a head refresh left before the splice: its pages and the
    /// kept tail's, minus the head's items, put in place of every page.
    static func rebuiltAfterReattach(
        _ window: Window, _ head: [(PageRequest<Int>, Page<Int, TestItem>)], headIDs: Set<Int>,
        tailStart: Int, limit: PagingConfiguration.HeldLimit?
    ) -> (window: Window, duplicates: Int) {
        var pages = head
        if tailStart < window.items.count, let row = window.locate(window.items[tailStart].id) {
            for sequence in row.sequence..<window.endSequence {
                guard let record = window.record(at: sequence) else { continue }
                var pageItems = window.items.page(at: sequence - window.firstSequence).items
                var request = record.request
                if sequence == row.sequence {
                    pageItems = Array(pageItems[row.offset...])
                    if let key = head.last?.1.nextKey {
                        request = PageRequest(.next(after: key), count: request.count)
                    }
                }
                pageItems.removeAll { headIDs.contains($0.id) }
                pages.append(
                    (
                        request,
                        Page(items: pageItems, previousKey: record.previousKey, nextKey: record.nextKey)
                    ))
            }
        }
        var rebuilt = window
        let duplicates = rebuilt.replaceAll(
            with: pages, firstSequence: 0, keepDropped: (front: [], back: window.droppedBack), modified: 9,
            limit: limit)
        return (rebuilt, duplicates)
    }

    /// The window an anchored refresh left before: the near side's pages
    /// and the new ones, without the near side's items, in place of every
    /// page.
    static func rebuiltAfterReanchor(
        _ window: Window, _ loaded: [(PageRequest<Int>, Page<Int, TestItem>)], at sequence: Int,
        forward: Bool,
        limit: PagingConfiguration.HeldLimit?
    ) -> (window: Window, duplicates: Int) {
        let near = forward ? window.firstSequence..<sequence : (sequence + 1)..<window.endSequence
        var keptIDs = Set<Int>()
        let kept: [(PageRequest<Int>, Page<Int, TestItem>)] = near.compactMap { held in
            guard let record = window.record(at: held) else { return nil }
            let pageItems = window.items.page(at: held - window.firstSequence).items
            keptIDs.formUnion(pageItems.map(\.id))
            return (
                record.request,
                Page(items: pageItems, previousKey: record.previousKey, nextKey: record.nextKey)
            )
        }
        let fresh = loaded.map { request, page in
            (
                request,
                Page(
                    items: page.items.filter { !keptIDs.contains($0.id) }, previousKey: page.previousKey,
                    nextKey: page.nextKey)
            )
        }
        var rebuilt = window
        let duplicates =
            forward
            ? rebuilt.replaceAll(
                with: kept + fresh, firstSequence: window.firstSequence,
                keepDropped: (front: window.droppedFront, back: nil), modified: 9, limit: limit,
                origin: window.origin)
            : rebuilt.replaceAll(
                with: fresh + kept, firstSequence: sequence - loaded.count + 1,
                keepDropped: (front: nil, back: window.droppedBack), modified: 9, limit: limit,
                origin: window.origin)
        return (rebuilt, duplicates)
    }

    /// Checks that the keys asked for are those of the held and dropped pages' requests.
    func expectAskedKeysOfPages(
        _ window: Window, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var asked = AskedKeys<Int>()
        for sequence in window.firstSequence..<window.endSequence {
            if let request = window.record(at: sequence)?.request { asked.remember(request) }
        }
        for request in window.droppedFront + window.droppedBack { asked.remember(request) }
        #expect(window.asked.next == asked.next, comment, sourceLocation: sourceLocation)
        #expect(window.asked.previous == asked.previous, comment, sourceLocation: sourceLocation)
    }

    /// Checks the window's invariants from what it exposes.
    func expectInvariants(
        _ window: Window, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(window.items.pageCount == window.pageCount, comment, sourceLocation: sourceLocation)
        #expect(window.record(at: window.firstSequence - 1) == nil, comment, sourceLocation: sourceLocation)
        #expect(window.record(at: window.endSequence) == nil, comment, sourceLocation: sourceLocation)
        let ids = window.items.ids
        #expect(
            Set(ids).count == ids.count, "an id is held twice; \(comment ?? "")",
            sourceLocation: sourceLocation)
        for ordinal in 0..<window.pageCount {
            let sequence = window.firstSequence + ordinal
            #expect(window.record(at: sequence) != nil, comment, sourceLocation: sourceLocation)
            let (items, firstIndex) = window.items.page(at: ordinal)
            for (offset, item) in items.enumerated() {
                #expect(window.location(of: item.id) == sequence, comment, sourceLocation: sourceLocation)
                #expect(
                    window.index(of: item.id) == firstIndex + offset, comment, sourceLocation: sourceLocation)
            }
        }
    }
}
