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
