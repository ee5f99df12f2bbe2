import Paging
import PagingTesting
import Testing

@Suite("ListChange")
struct ListChangeTests {
    @Test("applying a change to the old items gives the new ones: removals by old index, insertions by new")
    func apply() {
        let old = Array(0..<10)
        let new = Array(3..<10) + [10, 11]
        let change = ListChange(removed: [0..<3], inserted: [7..<9])
        var rows = old
        change.apply(to: &rows, from: new)
        #expect(rows == new)
        #expect(change.removedCount == 3 && change.insertedCount == 2)
        #expect(change.description == "removed [Range(0..<3)], inserted [Range(7..<9)]")
    }

    @Test("a checked apply that fits applies, as apply does")
    func checkedApplyFits() throws {
        var rows = Array(0..<10)
        let new = Array(3..<10) + [10, 11]
        try ListChange(removed: [0..<3], inserted: [7..<9]).checkedApply(to: &rows, from: new)
        #expect(rows == new)
    }

    @Test("a change applied to rows it was not made from, or twice, throws and leaves the rows as they were")
    func checkedApplyMismatch() throws {
        let change = ListChange(removed: [5..<6], inserted: [0..<1], updated: [4..<5])
        let new = [50, 0, 1, 2, 3, 4, 6, 7, 8, 9].map { TestItem(id: $0) }
        var rows = (0..<10).map { TestItem(id: $0) }
        try change.checkedApply(to: &rows, from: new)
        #expect(rows == new)
        // Again, on rows that already have it: the counts agree, the ids do not.
        #expect {
            try change.checkedApply(to: &rows, from: new)
        } throws: { error in
            "\(error)".contains("where the new items have")
        }
        #expect(rows == new)
        // Too few rows: by counts, for any element.
        var short = [0, 1, 2, 3]
        #expect {
            try change.checkedApply(to: &short, from: [50, 0, 1, 2, 3, 4, 6, 7, 8, 9])
        } throws: { error in
            "\(error)".contains("it removes 5..<6 from 4 items")
        }
        #expect(short == [0, 1, 2, 3])
        var rowsForFewerNew = Array(0..<10)
        #expect(throws: ListChangeMismatch.self) {
            try ListChange(updated: [8..<9]).checkedApply(to: &rowsForFewerNew, from: [0, 1])
        }
        #expect(rowsForFewerNew == Array(0..<10))
    }

    @Test("updates replace items in place")
    func update() {
        var rows = ["a", "b", "c"]
        ListChange(updated: [1..<2]).apply(to: &rows, from: ["a", "B", "c"])
        #expect(rows == ["a", "B", "c"])
    }

    @Test("an empty change says so")
    func empty() {
        #expect(ListChange().isEmpty)
        #expect(ListChange().description == "no change")
    }

    @Test("merging two changes: a page appended, then the window drops the first page")
    func mergeTwo() {
        let first = ListChange(inserted: [10..<15])
        let second = ListChange(removed: [0..<5])
        let merged = first.followed(by: second, countBefore: 10)
        #expect(merged == ListChange(removed: [0..<5], inserted: [5..<10]))
    }

    @Test("an item inserted and then removed appears in neither list; one updated twice, once")
    func mergeCancels() {
        let merged = ListChange.merging(
            [
                ListChange(inserted: [2..<3]), ListChange(updated: [0..<1]), ListChange(removed: [2..<3]),
                ListChange(updated: [0..<1]),
            ], countBefore: 4)
        #expect(merged == ListChange(updated: [0..<1]))
    }

    @Test(
        "merged random changes take the first list to the last, removing, inserting and updating only what changed"
    )
    func mergeRandom() {
        let seed = SeededGenerator.testSeed()
        print("ListChange merging seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var nextID = 0
        for run in 0..<300 {
            let start: [TestItem] = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                defer { nextID += 1 }
                return TestItem(id: nextID)
            }
            var rows = start
            var changes: [ListChange] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let (change, next) = Self.randomChange(of: rows, nextID: &nextID, using: &random)
                var replayed = rows
                change.apply(to: &replayed, from: next)
                #expect(replayed == next, "run \(run): the generated change itself is wrong")
                changes.append(change)
                rows = next
            }
            let merged = ListChange.merging(changes, countBefore: start.count)
            var replayed = start
            merged.apply(to: &replayed, from: rows)
            #expect(replayed == rows, "run \(run), seed \(seed): \(changes) merged to \(merged)")
            let startIDs = Set(start.map(\.id))
            let endIDs = Set(rows.map(\.id))
            #expect(merged.removedCount == startIDs.subtracting(endIDs).count, "run \(run), seed \(seed)")
            #expect(merged.insertedCount == endIDs.subtracting(startIDs).count, "run \(run), seed \(seed)")
            let updated = merged.updated.flatMap { Array($0) }
            let changedInPlace = rows.indices.filter { index in
                start.contains { $0.id == rows[index].id && $0 != rows[index] }
            }
            #expect(updated == changedInPlace, "run \(run), seed \(seed): \(changes) merged to \(merged)")
        }
    }

    /// A change as the pager makes them: removals and insertions together,
    /// or updates alone.
    private static func randomChange(
        of rows: [TestItem], nextID: inout Int, using random: inout SeededGenerator
    ) -> (ListChange, [TestItem]) {
        var next = rows
        if !rows.isEmpty, Bool.random(using: &random) {
            var updated: [Range<Int>] = []
            var index = Int.random(in: 0..<rows.count, using: &random)
            while index < rows.count {
                let end = min(rows.count, index + Int.random(in: 1...3, using: &random))
                for position in index..<end { next[position].version += 1 }
                updated.append(index..<end)
                index = end + Int.random(in: 1...4, using: &random)
            }
            return (ListChange(updated: updated), next)
        }
        var removed: [Range<Int>] = []
        var index = rows.isEmpty ? 0 : Int.random(in: 0...rows.count, using: &random)
        while index < rows.count, Bool.random(using: &random) {
            let end = min(rows.count, index + Int.random(in: 1...3, using: &random))
            removed.append(index..<end)
            index = end + Int.random(in: 1...3, using: &random)
        }
        for range in removed.reversed() { next.removeSubrange(range) }
        var inserted: [Range<Int>] = []
        index = Int.random(in: 0...next.count, using: &random)
        while index <= next.count, Bool.random(using: &random) {
            let count = Int.random(in: 1...3, using: &random)
            let items = (0..<count).map { _ in
                defer { nextID += 1 }
                return TestItem(id: nextID)
            }
            next.insert(contentsOf: items, at: index)
            inserted.append(index..<index + count)
            index += count + Int.random(in: 1...3, using: &random)
        }
        return (ListChange(removed: removed, inserted: inserted), next)
    }
}
