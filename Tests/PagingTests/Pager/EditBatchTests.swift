import Testing

@testable import Paging

/// A batch of edits on its own, and applied to a window: one change for the
/// batch, the pages it edited, ids kept unique.
@Suite("EditBatch")
struct EditBatchTests {
    typealias Window = PageWindow<Int, TestItem>

    /// A window holding `0..<20` as two pages of ten.
    func twoPages() -> Window {
        var window = Window()
        let list = NumberList(total: 20)
        for request in [PageRequest<Int>(.initial(nil), count: 10), PageRequest(.next(after: 10), count: 10)]
        {
            _ = window.add(list.page(for: request), for: request, atEnd: true, replaying: false, modified: 1)
        }
        return window
    }

    @Test("updates in place become sorted, joined ranges, each index once")
    func updatesOnly() {
        var batch = EditBatch(countBefore: 10)
        #expect(batch.isEmpty)
        for index in [5, 3, 4, 5, 8] {
            batch.record(ListChange(updated: [index..<index + 1]), sequence: index / 5)
        }
        #expect(!batch.isEmpty && batch.changes.count == 5)
        #expect(batch.updatedOnly == [5, 3, 4, 5, 8])
        #expect(batch.edited == [0, 1])
        #expect(batch.change == ListChange(updated: [3..<6, 8..<9]))
    }

    @Test("an insert or a removal makes the batch's change the merge of its changes")
    func merged() {
        var batch = EditBatch(countBefore: 10)
        batch.record(ListChange(updated: [2..<3]), sequence: 0)
        batch.record(ListChange(removed: [0..<1]), sequence: 0)
        #expect(batch.updatedOnly == nil)
        batch.record(ListChange(updated: [4..<5]), sequence: 3)
        #expect(batch.updatedOnly == nil, "no update in place brings it back")
        #expect(batch.change == ListChange.merging(batch.changes, countBefore: 10))
        #expect(batch.change.removedCount == 1)
    }

    @Test("edits applied to a window record their changes and keep the identity index in step")
    func appliedToAWindow() {
        var window = twoPages()
        var batch = EditBatch(countBefore: window.items.count)
        let update = window.apply(.update(TestItem(id: 12, version: 1)), version: 1, into: &batch)
        let remove = window.apply(.remove(id: 3), version: 1, into: &batch)
        let insert = window.apply(.insert(TestItem(id: 50), at: .after(12)), version: 1, into: &batch)
        let again = window.apply(.insert(TestItem(id: 50), at: .first), version: 1, into: &batch)
        let gone = window.apply(.remove(id: 3), version: 1, into: &batch)
        #expect(update.0 == .applied && remove.0 == .applied && remove.1 == TestItem(id: 3))
        #expect(insert.0 == .applied && again.0 == .alreadyHeld && gone.0 == .notHeld)
        #expect(batch.changes.count == 3 && batch.edited == [0, 1])
        #expect(window.items.ids == [0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 50, 13, 14, 15, 16, 17, 18, 19])
        #expect(window.location(of: 50) == 1 && window.location(of: 3) == nil)
        #expect(window.index(of: 50) == 12)
        #expect(batch.change == ListChange.merging(batch.changes, countBefore: 20))
    }

    @Test("a condition that fails leaves the window and the batch as they were")
    func conditions() {
        var window = twoPages()
        window.markModified([1], version: 5)
        var batch = EditBatch(countBefore: window.items.count)
        let stale = window.apply(
            .update(TestItem(id: 12, version: 1), if: .unchanged(since: 4)), version: 5, into: &batch)
        let fresh = window.apply(
            .update(TestItem(id: 2, version: 1), if: .unchanged(since: 4)), version: 5, into: &batch)
        let versioned = window.apply(.remove(id: 4, if: .version(4)), version: 5, into: &batch)
        let matching = window.apply(
            .remove(id: 4, if: .matching { $0.version == 1 }), version: 5, into: &batch)
        #expect(
            stale.0 == .conditionFailed && versioned.0 == .conditionFailed && matching.0 == .conditionFailed)
        #expect(fresh.0 == .applied)
        #expect(batch.changes == [ListChange(updated: [2..<3])] && batch.edited == [0])
        #expect(window.items.count == 20 && window.location(of: 4) == 0)
    }
}
