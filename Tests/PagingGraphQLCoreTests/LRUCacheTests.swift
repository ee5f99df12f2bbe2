import Testing

@testable import PagingGraphQLCore

@Suite("the least-recently-used cache")
struct LRUCacheTests {
    @Test("holds at most its capacity and evicts the entry used least recently")
    func evictsLeastRecentlyUsed() {
        let cache = LRUCache<String, Int>(capacity: 3)
        cache.insert(1, for: "a")
        cache.insert(2, for: "b")
        cache.insert(3, for: "c")
        #expect(cache.value(for: "a") == 1)  // a is now the newest
        cache.insert(4, for: "d")  // evicts b
        #expect(cache.count == 3)
        #expect(cache.value(for: "b") == nil)
        #expect(cache.keysByRecency == ["d", "a", "c"])
        cache.insert(30, for: "c")  // an update moves it to the front, evicting nothing
        #expect(cache.keysByRecency == ["c", "d", "a"])
        #expect(cache.value(for: "c") == 30)
        cache.insert(5, for: "e")  // evicts a
        #expect(cache.keysByRecency == ["e", "c", "d"])
    }

    @Test("makes a missing value once, and not a present one; a throwing make stores nothing")
    func makesOnMiss() throws {
        let cache = LRUCache<Int, String>(capacity: 2)
        var made = 0
        let first = cache.value(for: 1) {
            made += 1; return "one"
        }
        let again = cache.value(for: 1) {
            made += 1; return "uno"
        }
        #expect(first == "one" && again == "one" && made == 1)
        struct Refused: Error {}
        #expect(throws: Refused.self) { try cache.value(for: 2) { () throws(Refused) in throw Refused() } }
        #expect(cache.count == 1)
    }

    @Test("agrees with a model under random use", arguments: [1, 2, 5])
    func randomUseMatchesModel(capacity: Int) {
        // A fixed linear congruential sequence: deterministic, no seed to print.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D &* UInt64(capacity)
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let cache = LRUCache<Int, Int>(capacity: capacity)
        var model: [(key: Int, value: Int)] = []  // newest first
        for step in 0..<2_000 {
            let key = next(8)
            if next(2) == 0 {
                cache.insert(step, for: key)
                model.removeAll { $0.key == key }
                model.insert((key, step), at: 0)
                if model.count > capacity { model.removeLast() }
            } else {
                let expected = model.first { $0.key == key }?.value
                #expect(cache.value(for: key) == expected)
                if let index = model.firstIndex(where: { $0.key == key }) {
                    model.insert(model.remove(at: index), at: 0)
                }
            }
            #expect(cache.keysByRecency == model.map(\.key))
        }
    }
}
