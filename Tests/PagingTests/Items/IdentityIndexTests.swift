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

    @Test(
        "the ids of a range of pages go at once; the others stay findable, colliding hashes and sequences around the base",
        arguments: [(2, 0), (1_000_000, 1 << 40)])
    func removeSequences(buckets: Int, firstSequence: Int) {
        let seed = SeededGenerator.testSeed()
        print("IdentityIndex removeSequences test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for run in 0..<50 {
            var harness = Harness(base: firstSequence - (1 << 31))
            for value in 0..<Int.random(in: 0..<2_000, using: &random) {
                let id = CollidingID(value: value, bucket: value % buckets)
                _ = harness.insert(id, page: firstSequence + Int.random(in: -3...40, using: &random))
            }
            let lower = firstSequence + Int.random(in: -4...41, using: &random)
            let gone = lower..<lower + Int.random(in: 0...20, using: &random)
            harness.index.remove(sequences: gone, base: harness.base)
            for (id, page) in harness.model where gone.contains(page) {
                harness.model[id] = nil
                harness.pages[page]?.remove(id)
            }
            let comment: Comment = "seed \(seed), run \(run)"
            #expect(harness.index.count == harness.model.count, comment)
            for value in 0..<2_000 {
                let id = CollidingID(value: value, bucket: value % buckets)
                #expect(harness.lookup(id) == harness.model[id], comment)
            }
            // Inserts and removals go on as before.
            let id = CollidingID(value: 5_000, bucket: 0)
            let added = harness.insert(id, page: lower)
            #expect(added, comment)
            harness.remove(id)
            #expect(harness.lookup(id) == nil && harness.index.count == harness.model.count, comment)
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
