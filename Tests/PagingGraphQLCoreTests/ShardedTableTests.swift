import Testing

@testable import PagingGraphQLCore

@Suite("ShardedTable")
struct ShardedTableTests {
    @Test("agrees with a dictionary under inserts, replacements and removals")
    func matchesDictionary() {
        var table = ShardedTable<Int, Int>()
        var model: [Int: Int] = [:]
        // A fixed linear congruential sequence: deterministic, no seed to print.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for step in 0..<20_000 {
            let key = next(3_000) - 1_500
            switch next(4) {
            case 0:
                #expect(table.removeValue(forKey: key) == model.removeValue(forKey: key), "step \(step)")
            case 1:
                table[key] = nil
                model[key] = nil
            default:
                let value = next(1_000)
                #expect(
                    table.updateValue(value, forKey: key) == model.updateValue(value, forKey: key),
                    "step \(step)")
            }
            #expect(table.count == model.count, "step \(step)")
        }
        #expect(Set(table.keys) == Set(model.keys))
        var seen: [Int: Int] = [:]
        table.forEach { seen[$0] = $1 }
        #expect(seen == model)
        for key in -1_500..<1_500 { #expect(table[key] == model[key]) }
    }

    @Test("the shards take shares growing from one to two, in order, over all 1,024 slots")
    func sharesSpreadOverAnOctave() {
        #expect(shardSlots.count == 1_024)
        var shares = [Int](repeating: 0, count: ShardedTable<Int, Int>.shardCount)
        for shard in shardSlots { shares[Int(shard)] += 1 }
        #expect(shares.first == 11)
        #expect(shares.last == 22)
        #expect(shares.allSatisfy { (11...22).contains($0) })
        // Rounded to whole slots, so not strictly in order; by eighths, in order.
        let eighths = stride(from: 0, to: 64, by: 8).map { shares[$0..<$0 + 8].reduce(0, +) }
        #expect(zip(eighths, eighths.dropFirst()).allSatisfy { $0 < $1 }, "\(eighths)")
    }
}
