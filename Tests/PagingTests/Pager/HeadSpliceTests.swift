import Foundation
import Paging
import PagingTesting
import Testing

@testable import Paging

/// ``HeadSplice``: where the first pages of a list, as the source has them now, go in the list held.
@Suite("HeadSplice")
struct HeadSpliceTests {
    /// The splice of `head` into `held`, or nil.
    private static func splice(_ held: [TestItem], _ head: [TestItem]) -> HeadSplice? {
        let index = Dictionary(uniqueKeysWithValues: held.enumerated().map { ($1.id, $0) })
        return HeadSplice.make(
            head: head, heldCount: held.count, heldIndex: { index[$0] }, heldItem: { held[$0] })
    }

    private static func items(_ ids: [Int], version: Int = 0) -> [TestItem] {
        ids.map { TestItem(id: $0, version: version) }
    }

    /// The list a splice makes: the head, then the held items from the tail start that it does
    /// not hold.
    private static func spliced(_ splice: HeadSplice, _ held: [TestItem], _ head: [TestItem]) -> [TestItem] {
        let ids = Set(head.map(\.id))
        return head + held[splice.tailStart...].filter { !ids.contains($0.id) }
    }

    /// The length of a longest strictly increasing subsequence, by the quadratic recurrence (a
    /// check independent of the splice's patience sorting).
    private static func longestRunLength(_ values: [Int]) -> Int {
        var lengths = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { lengths[i] = max(lengths[i], lengths[j] + 1) }
        }
        return lengths.max() ?? 0
    }

    /// Applies the splice's change to the held items, checked, and returns the result.
    private static func applied(_ splice: HeadSplice, _ held: [TestItem], _ head: [TestItem]) throws
        -> [TestItem]
    {
        var rows = held
        let spliced = Self.spliced(splice, held, head)
        try splice.change.checkedApply(to: &rows, from: spliced)
        return rows
    }

    @Test("new items at the top are inserted; the items both hold keep their rows; the tail is kept")
    func newAtTheTop() throws {
        let held = Self.items([5, 4, 3, 2, 1])
        let head = Self.items([7, 6, 5, 4])
        let splice = try #require(Self.splice(held, head))
        #expect(splice.tailStart == 2)
        #expect(splice.change == ListChange(inserted: [0..<2]))
        #expect(try Self.applied(splice, held, head).map(\.id) == [7, 6, 5, 4, 3, 2, 1])
    }

    @Test("an item gone from the covered range is removed; a changed one is updated, an equal one is not")
    func removedAndChanged() throws {
        let held = Self.items([5, 4, 3, 2, 1])
        let head = [TestItem(id: 5), TestItem(id: 3, version: 1), TestItem(id: 2)]
        let splice = try #require(Self.splice(held, head))
        #expect(splice.tailStart == 4)
        #expect(splice.change == ListChange(removed: [1..<2], updated: [1..<2]))
        let rows = try Self.applied(splice, held, head)
        #expect(rows == [TestItem(id: 5), TestItem(id: 3, version: 1), TestItem(id: 2), TestItem(id: 1)])
    }

    @Test("an item moved up is removed where it was and inserted where it is; the others do not move")
    func moved() throws {
        let held = Self.items([1, 2, 3, 4])
        let head = Self.items([3, 1, 2])
        let splice = try #require(Self.splice(held, head))
        #expect(splice.tailStart == 2)
        #expect(splice.change == ListChange(removed: [2..<3], inserted: [0..<1]))
        #expect(try Self.applied(splice, held, head).map(\.id) == [3, 1, 2, 4])
    }

    @Test(
        "an item moved up from far below keeps the rest in place: removed where it was, inserted at the top")
    func movedFromTheTail() throws {
        let held = Self.items(Array(0..<20))
        let head = Self.items([17, 0, 1, 2])
        let splice = try #require(Self.splice(held, head))
        #expect(splice.tailStart == 3)
        #expect(splice.tailCount == 16)
        #expect(splice.change == ListChange(removed: [17..<18], inserted: [0..<1]))
        #expect(try Self.applied(splice, held, head).map(\.id) == [17] + Array(0..<17) + [18, 19])
    }

    @Test(
        "a splice is sure when no alignment keeping a held row the head leaves out keeps more rows in place")
    func sureness() throws {
        // New items and a deletion: 4 kept in place, 1 left out.
        #expect(try #require(Self.splice(Self.items([5, 4, 3, 2, 1]), Self.items([7, 5, 3, 2, 1]))).isSure)
        // Only a row that moved up among new ones (the post 22): 1 kept, 22 left out, which
        // may be just below the head. Not sure: the head refresh loads on.
        let held = Self.items(Array(0..<40))
        let movedUp = Self.items(Array(100..<119) + [22])
        let unsure = try #require(Self.splice(held, movedUp))
        #expect(unsure.tailStart == 23)
        #expect(!unsure.isSure)
        // The next page brings the rows that did not move: they are the run now, 22 moved up.
        let twoPages = Self.items(Array(100..<119) + [22] + Array(0..<20))
        let sure = try #require(Self.splice(held, twoPages))
        #expect(sure.isSure)
        #expect(
            try Self.applied(sure, held, twoPages).map(\.id)
                == Array(100..<119) + [22] + Array(0..<22) + Array(23..<40))
        // Rows 5…8 moved up above 0 and 1; 2, 3 and 4 are left out: were they just below the head,
        // 0…4 would keep five rows in place, more than 5…8's four. Not sure.
        let overRows = try #require(Self.splice(Self.items(Array(0..<10)), Self.items([5, 6, 7, 8, 0, 1])))
        #expect(overRows.tailStart == 9)
        #expect(!overRows.isSure)
        // A tie (1 moved up past 0, or 0 deleted) is sure: either way no row that kept its place is
        // removed. A row the head moved, not left out, does not count against it.
        #expect(try #require(Self.splice(Self.items([0, 1, 2]), Self.items([9, 1]))).isSure)
        #expect(try #require(Self.splice(Self.items([1, 2, 3]), Self.items([2, 1, 3]))).isSure)
        // A deletion just above the head's last held row ties with that row having moved up past it
        // (0…8, then 10: 9 deleted, or 10 above 9): sure, as any tie.
    }

    @Test("a head that holds none of the held items does not reach the list")
    func noOverlap() {
        #expect(Self.splice(Self.items([3, 2, 1]), Self.items([9, 8])) == nil)
        #expect(Self.splice([], Self.items([9, 8])) == nil)
    }

    @Test("the longest increasing run keeps the most rows in place")
    func longestRun() {
        #expect(HeadSplice.longestIncreasingRun([]) == [])
        #expect(HeadSplice.longestIncreasingRun([3, 1, 2]) == [1, 2])
        #expect(HeadSplice.longestIncreasingRun([5, 1, 6, 2, 7, 3, 4]).count == 4)
        #expect(HeadSplice.ranges([0, 1, 2, 5, 7, 8]) == [0..<3, 5..<6, 7..<9])
    }

    @Test("random lists: the change turns the held items into the head followed by the kept tail, exactly")
    func randomized() throws {
        let seed = SeededGenerator.testSeed()
        print("HeadSpliceTests.randomized seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for round in 0..<500 {
            // A server list; the held list is a stretch of an older version of it.
            let count = Int.random(in: 1...40, using: &random)
            var server = Self.items(Array(0..<count))
            let heldStart = Int.random(in: 0..<count, using: &random)
            let held = Array(server[heldStart...].prefix(Int.random(in: 1...30, using: &random)))
            // The server changes: inserts at the top and in the middle, deletes, moves, edits.
            var next = count
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    server.insert(TestItem(id: next), at: Int.random(in: 0...server.count, using: &random))
                    next += 1
                case 1 where !server.isEmpty:
                    server.remove(at: Int.random(in: 0..<server.count, using: &random))
                case 2 where !server.isEmpty:
                    let item = server.remove(at: Int.random(in: 0..<server.count, using: &random))
                    server.insert(item, at: Int.random(in: 0...server.count, using: &random))
                case 3 where !server.isEmpty:
                    server[Int.random(in: 0..<server.count, using: &random)].version += 1
                default:
                    break
                }
            }
            let head = Array(server.prefix(Int.random(in: 1...20, using: &random)))
            guard let splice = Self.splice(held, head) else {
                #expect(
                    Set(head.map(\.id)).isDisjoint(with: held.map(\.id)),
                    "round \(round): a head that holds a held item reaches the list")
                continue
            }
            let rows = try Self.applied(splice, held, head)
            #expect(rows == Self.spliced(splice, held, head), "round \(round)")
            #expect(rows.count == head.count + splice.tailCount, "round \(round)")
            #expect(Set(rows.map(\.id)).count == rows.count, "round \(round): an item twice")
            // The rows kept in place are a longest run of the items both hold in the same order.
            let heldIDs = held.map(\.id)
            let common = head.compactMap { item in heldIDs.firstIndex(of: item.id) }
            let keptInPlace = head.count - splice.change.insertedCount
            #expect(keptInPlace == Self.longestRunLength(common), "round \(round)")
        }
    }
}
