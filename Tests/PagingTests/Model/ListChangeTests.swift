import Paging
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
}
