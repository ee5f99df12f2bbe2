import PagingTesting
import Testing

@testable import Paging

@Suite("PagedItems")
struct PagedItemsTests {
    @Test("an empty collection has no items and no pages")
    func empty() {
        let items = PagedItems<Int>()
        #expect(items.isEmpty)
        #expect(items.pageCount == 0)
        #expect(Array(items) == [])
    }

    @Test("pages appended and prepended read back in order, by subscript and by iteration")
    func appendAndPrepend() {
        var items = PagedItems<Int>()
        items.appendPage([3, 4])
        items.prependPage([1, 2])
        items.appendPage([])
        items.appendPage([5])
        #expect(Array(items) == [1, 2, 3, 4, 5])
        #expect((0..<5).map { items[$0] } == [1, 2, 3, 4, 5])
        #expect(items.pageCount == 4)
        #expect(items.page(at: 3).items == [5])
        #expect(items.page(at: 3).firstIndex == 4)
        #expect(items.page(at: 2).items == [])
    }

    @Test(
        "a copy taken before a change keeps its items: versions share storage and never see each other's changes"
    )
    func persistence() {
        var items = PagedItems<Int>(pages: (0..<40).map { Array($0 * 10..<$0 * 10 + 10) })
        let before = items
        items.appendPage([1000])
        items.removePage(atEnd: false)
        items.replacePage(at: 0, with: [-1])
        #expect(Array(before) == Array(0..<400))
        #expect(before.count == 400)
        #expect(Array(items.prefix(2)) == [-1, 20])
        #expect(items.last == 1000)
    }

    @Test("equality compares items, not page boundaries")
    func equality() {
        let one = PagedItems(pages: [[1, 2], [3]])
        let other = PagedItems(pages: [[1], [2, 3]])
        #expect(one == other)
        #expect(one != PagedItems(pages: [[1, 2]]))
    }

    @Test("thousands of random page operations match an array of pages", arguments: [16, 300, 5000])
    func randomizedAgainstArrayModel(operations: Int) {
        let seed = SeededGenerator.testSeed()
        print("PagedItems randomized test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var items = PagedItems<Int>()
        var model: [[Int]] = []
        var counter = 0
        for step in 0..<operations {
            let choice = Int.random(in: 0..<10, using: &random)
            let size = Int.random(in: 0..<6, using: &random)
            let page = Array(counter..<counter + size)
            counter += size
            switch choice {
            case 0..<4:
                items.appendPage(page)
                model.append(page)
            case 4..<7:
                items.prependPage(page)
                model.insert(page, at: 0)
            case 7 where !model.isEmpty:
                let atEnd = Bool.random(using: &random)
                let removed = items.removePage(atEnd: atEnd)
                #expect(
                    removed == (atEnd ? model.removeLast() : model.removeFirst()),
                    "seed \(seed), step \(step)")
            case 8 where !model.isEmpty:
                let ordinal = Int.random(in: 0..<model.count, using: &random)
                items.replacePage(at: ordinal, with: page)
                model[ordinal] = page
            default:
                break
            }
            let flat = model.flatMap { $0 }
            #expect(items.count == flat.count, "seed \(seed), step \(step)")
            #expect(items.pageCount == model.count, "seed \(seed), step \(step)")
            if !flat.isEmpty {
                let probe = Int.random(in: 0..<flat.count, using: &random)
                #expect(items[probe] == flat[probe], "seed \(seed), step \(step)")
            }
            if step % 50 == 0 || step == operations - 1 {
                #expect(Array(items) == flat, "seed \(seed), step \(step)")
            }
        }
    }

    @Test("pages removed at an end at once leave the others in order, shared, and the tree well formed")
    func removePagesAtOnce() {
        let seed = SeededGenerator.testSeed()
        print("PagedItems removePages test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for run in 0..<200 {
            var items = PagedItems<Int>()
            var model: [[Int]] = []
            var counter = 0
            for _ in 0..<Int.random(in: 0...400, using: &random) {
                let page = Array(counter..<counter + Int.random(in: 0..<4, using: &random))
                counter += page.count
                if Bool.random(using: &random) {
                    items.appendPage(page)
                    model.append(page)
                } else {
                    items.prependPage(page)
                    model.insert(page, at: 0)
                }
            }
            let before = items
            let beforeModel = model
            let atEnd = Bool.random(using: &random)
            let count = Int.random(in: 0...model.count, using: &random)
            items.removePages(atEnd: atEnd, count: count)
            if atEnd { model.removeLast(count) } else { model.removeFirst(count) }
            let comment: Comment = "seed \(seed), run \(run)"
            #expect(Array(items) == model.flatMap { $0 }, comment)
            #expect(items.pageCount == model.count, comment)
            #expect(Array(before) == beforeModel.flatMap { $0 }, "the old version is intact; \(comment)")
            if let root = items.root { expectWellFormed(root, comment) }
            // It goes on growing at both ends.
            items.appendPage([-1])
            items.prependPage([-2])
            #expect(Array(items) == [-2] + model.flatMap { $0 } + [-1], comment)
            if let root = items.root { expectWellFormed(root, comment) }
        }
    }

    /// Checks that every leaf of a tree is at the same depth, every inner node has 1 to `fanout`
    /// children, and the cached counts are right.
    func expectWellFormed(_ node: PageTreeNode<Int>, _ comment: Comment) {
        if node.height == 0 {
            #expect(node.leafCount == 1 && node.count == node.items.count, comment)
            return
        }
        #expect(!node.children.isEmpty && node.children.count <= PageTreeNode<Int>.fanout, comment)
        #expect(node.children.allSatisfy { $0.height == node.height - 1 }, comment)
        #expect(node.count == node.children.reduce(0) { $0 + $1.count }, comment)
        #expect(node.leafCount == node.children.reduce(0) { $0 + $1.leafCount }, comment)
        for child in node.children { expectWellFormed(child, comment) }
    }

    @Test("the tree stays shallow: a million items in ten thousand pages are at most four levels deep")
    func depthIsLogarithmic() throws {
        var items = PagedItems<Int>()
        for page in 0..<10_000 {
            items.appendPage(Array(page * 100..<page * 100 + 100))
        }
        let root = try #require(items.root)
        #expect(root.height <= 4)
        #expect(items.count == 1_000_000)
        #expect(items[999_999] == 999_999)
        // Dropping from the front while appending at the back keeps it shallow too.
        for page in 10_000..<20_000 {
            items.appendPage([page])
            items.removePage(atEnd: false)
        }
        #expect(try #require(items.root).height <= 4)
        #expect(items.pageCount == 10_000)
    }
}
