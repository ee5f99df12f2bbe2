import PagingTesting
import Testing

@testable import Paging

/// An id whose hash is chosen by the test, so that ids collide on purpose.
private struct CollidingID: Hashable {
    let value: Int
    let bucket: Int
    func hash(into hasher: inout Hasher) { hasher.combine(bucket) }
}

@Suite("the identity index of the pager")
struct IdentityIndexTests {
    /// The index driven beside a dictionary: pages are sets of ids under sequence numbers, which
    /// is what the pager's confirmation looks in.
    private struct Harness {
        var index = IdentityIndex()
        var pages: [Int: Set<CollidingID>] = [:]
        var model: [CollidingID: Int] = [:]
        let base: Int

        func lookup(_ id: CollidingID) -> Int? {
            index.sequence(hash: IdentityIndex.hash(id), base: base) { pages[$0]?.contains(id) ?? false }
        }

        mutating func insert(_ id: CollidingID, page: Int) -> Bool {
            let pages = self.pages
            let added = index.insert(hash: IdentityIndex.hash(id), sequence: page, base: base) {
                pages[$0]?.contains(id) ?? false
            }
            if added {
                self.pages[page, default: []].insert(id)
                model[id] = page
            }
            return added
        }

        mutating func remove(_ id: CollidingID) {
            guard let page = model.removeValue(forKey: id) else { return }
            pages[page]?.remove(id)
            index.remove(hash: IdentityIndex.hash(id), sequence: page)
        }
    }

    @Test(
        "random inserts, lookups and removals agree with a dictionary, with colliding hashes and sequences around the base",
        arguments: [(2, 0), (64, 1 << 40), (1_000_000, -5)])
    func randomized(buckets: Int, firstSequence: Int) {
        let seed = SeededGenerator.testSeed()
        print("IdentityIndex randomized test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var harness = Harness(base: firstSequence - (1 << 31))
        for step in 0..<20_000 {
            let id = CollidingID(value: Int.random(in: 0..<3_000, using: &random), bucket: 0)
            let colliding = CollidingID(value: id.value, bucket: id.value % buckets)
            // Pages on both sides of the first sequence, as prepends make them.
            let page = firstSequence + Int.random(in: -3...40, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let expected = harness.model[colliding] == nil
                let added = harness.insert(colliding, page: page)
                #expect(added == expected, "step \(step)")
            case 5..<8:
                harness.remove(colliding)
            default:
                #expect(harness.lookup(colliding) == harness.model[colliding], "step \(step)")
            }
            #expect(harness.index.count == harness.model.count, "step \(step)")
        }
        for (id, page) in harness.model {
            #expect(harness.lookup(id) == page)
        }
    }

    @Test("two ids of one page with one hash: removing one keeps the other findable")
    func samePageSameHash() {
        var harness = Harness(base: -(1 << 31))
        let a = CollidingID(value: 1, bucket: 7)
        let b = CollidingID(value: 2, bucket: 7)
        let first = harness.insert(a, page: 3)
        let second = harness.insert(b, page: 3)
        let again = harness.insert(b, page: 4)
        #expect(first && second && !again)
        harness.remove(a)
        #expect(harness.lookup(a) == nil)
        #expect(harness.lookup(b) == 3)
        #expect(harness.index.count == 1)
    }
}
