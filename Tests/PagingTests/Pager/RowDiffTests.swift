import PagingTesting
import Testing

@testable import Paging

/// The change by identity between two runs of rows, and the same change
/// found from the new rows alone when the rows around them stay.
@Suite("RowDiff")
struct RowDiffTests {
    @Test("rows in both keep their places on a longest common run; the rest are removed and inserted")
    func change() {
        let old = [1, 2, 3, 4, 5].map { TestItem(id: $0) }
        // 3 moved up: 1 and 5 keep their places (1 changed); 2, 3 and 4 go, 3 and the new 9 come.
        let new = [
            TestItem(id: 3, version: 1), TestItem(id: 9), TestItem(id: 1, version: 1), TestItem(id: 5),
        ]
        let change = RowDiff.change(from: old, to: new, base: 10)
        #expect(change == ListChange(removed: [11..<14], inserted: [10..<12], updated: [12..<13]))
    }

    @Test("replacing a range, the old rows not found are removed as ranges around those kept")
    func replacing() {
        let old = (0..<100).map { TestItem(id: $0) }
        let new = [TestItem(id: 60), TestItem(id: 1_000), TestItem(id: 70, version: 1), TestItem(id: 10)]
        // Rows 50..<100 are replaced; 10 is held above them (outside the range): not one of them.
        let change = RowDiff.change(
            replacing: 50..<100, with: new, at: 50, oldIndex: { $0 < 100 ? $0 : nil }, oldItem: { old[$0] })
        #expect(
            change
                == ListChange(
                    removed: [50..<60, 61..<70, 71..<100], inserted: [51..<52, 53..<54], updated: [52..<53]))
    }

    @Test("random rows: the change of a range with the rows around it kept is the change of the whole list")
    func randomized() {
        let seed = SeededGenerator.testSeed()
        print("RowDiff randomized test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for run in 0..<500 {
            let count = Int.random(in: 0...30, using: &random)
            let old = (0..<count).map { TestItem(id: $0) }
            let kept = Int.random(in: 0...count, using: &random)
            let forward = Bool.random(using: &random)
            // The rows that stay: the first `kept` (forward) or the last `kept`.
            let stay = forward ? Array(old[..<kept]) : Array(old[(count - kept)...])
            let replaced = forward ? kept..<count : 0..<count - kept
            var fresh: [TestItem] = old[replaced].filter { _ in Bool.random(using: &random) }.map {
                TestItem(id: $0.id, version: Int.random(in: 0...1, using: &random))
            }
            fresh.shuffle(using: &random)
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                fresh.insert(
                    TestItem(id: 100 + Int.random(in: 0...1_000, using: &random)),
                    at: Int.random(in: 0...fresh.count, using: &random))
            }
            var seen = Set<Int>()
            fresh = fresh.filter { seen.insert($0.id).inserted }
            let new = forward ? stay + fresh : fresh + stay
            let whole = RowDiff.change(from: old, to: new, base: 0)
            let part = RowDiff.change(
                replacing: replaced, with: fresh, at: forward ? kept : 0,
                oldIndex: { $0 < count ? $0 : nil }, oldItem: { old[$0] })
            #expect(part == whole, "seed \(seed), run \(run)")
            var rows = old
            part.apply(to: &rows, from: new)
            #expect(rows == new, "seed \(seed), run \(run)")
        }
    }
}
