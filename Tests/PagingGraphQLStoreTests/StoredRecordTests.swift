import Testing

@testable import PagingGraphQLStore

@Suite("StoredRecord")
struct StoredRecordTests {
    @Test("agrees with a dictionary under updates and removals, inline and past its slots")
    func matchesDictionary() {
        let names = ["__typename", "id", "name", "site", "rocket", "isBooked"]
        // A fixed linear congruential sequence: deterministic, no seed to print.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for run in 0..<200 {
            let first = (0..<next(4)).map { (name: names[$0], value: StoreValue.scalar(.int($0))) }
            let shared = first.map(\.name)
            let record = StoredRecord.make(adopting: first, sharedNames: shared)
            var model = Dictionary(uniqueKeysWithValues: first.map { ($0.name, $0.value) })
            for step in 0..<30 {
                let name = names[next(names.count)]
                if next(3) == 0 {
                    #expect(record.removeValue(forKey: name) == model.removeValue(forKey: name))
                } else {
                    let value = StoreValue.list([.scalar(.int(run)), .scalar(.string("\(step)"))])
                    #expect(record.updateValue(value, forKey: name) == model.updateValue(value, forKey: name))
                }
                #expect(record.dictionary == model, "run \(run), step \(step)")
                #expect(record.count == model.count)
                #expect(Set(record.allNames) == Set(model.keys))
                for name in names { #expect(record[name] == model[name]) }
            }
            // The selection's list of names is never changed through a record.
            #expect(shared == first.map(\.name))
        }
    }

    @Test("a record made from a selection's fields holds them inline and shares the selection's names")
    func sharesNames() {
        let names = ["__typename", "id", "name"]
        let record = StoredRecord.make(
            adopting: [("__typename", .scalar("Launch")), ("id", .scalar("1")), ("name", .scalar("One"))],
            sharedNames: names)
        #expect(record.header.count == 3)
        #expect(record.header.overflow == nil)
        #expect(
            record.header.names.withUnsafeBufferPointer { $0.baseAddress }
                == names.withUnsafeBufferPointer { $0.baseAddress })
        // A field another document adds goes past the slots, to the overflow.
        record.updateValue(.scalar("KSC"), forKey: "site")
        #expect(record.header.overflow != nil)
        #expect(record["site"] == .scalar("KSC"))
        #expect(record["name"] == .scalar("One"))
        #expect(record.containsValue { $0 == .scalar("KSC") })
        #expect(!record.containsValue { $0 == .scalar("none") })
    }

    @Test("a record of more fields than the small limit keeps them all, by name")
    func manyFields() {
        let fields = (0..<(StoreFields.smallLimit + 5)).map {
            (name: "f\($0)", value: StoreValue.scalar(.int($0)))
        }
        let record = StoredRecord.make(adopting: fields)
        #expect(record.count == fields.count)
        for field in fields { #expect(record[field.name] == field.value) }
        #expect(record.removeValue(forKey: "f3") == .scalar(3))
        #expect(record.count == fields.count - 1)
    }
}
