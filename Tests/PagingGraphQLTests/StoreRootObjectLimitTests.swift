import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQLStore

/// Objects without identity held in the fields of root records (the pages
/// of a connection whose edges have no id) count toward the store's limit
/// as records do: they write no record, so the record count alone would let
/// them grow without bound.
@Suite("GraphQLStore, objects held in root fields and the limit", .timeLimit(.minutes(HangLimit.minutes(1))))
struct StoreRootObjectLimitTests {
    static let pageDocument = "query Page($n: Int) { page(n: $n) { items { name } } }"

    static func operation(_ page: Int) throws -> StoreOperation {
        try StoreOperation(document: pageDocument, variables: ["n": .int(page)])
    }

    /// A page of `count` items, each named after the page and the version
    /// written, so that a read tells which write it shows.
    static func data(page: Int, version: Int, count: Int) -> JSONValue {
        [
            "page": [
                "items": .array((0..<count).map { .object(["name": .string("\(page).\(version).\($0)")]) })
            ]
        ]
    }

    /// What the store counts, and what its root record holds, counted again.
    static func held(in store: GraphQLStore) -> (counted: Int, recounted: Int) {
        store.state.withLock { state in
            var recounted = 0
            for root in [CacheKey.queryRoot, .mutationRoot, .subscriptionRoot] {
                state.records[root]?.forEach { _, value in recounted += value.heldObjectCount }
            }
            return (state.rootHeldObjects, recounted)
        }
    }

    @Test("pages of objects without identity are collected past the limit, though they write no record")
    func pagesWithoutRecordsAreBounded() throws {
        let store = GraphQLStore(configuration: GraphQLStore.Configuration(recordLimit: 30))
        try store.write(data: Self.data(page: 0, version: 0, count: 4), for: Self.operation(0))
        let kept = store.retain(try Self.operation(0))
        var mostHeld = 0
        for page in 1...200 {
            try store.write(data: Self.data(page: page, version: 0, count: 4), for: Self.operation(page))
            let held = Self.held(in: store)
            #expect(held.counted == held.recounted)
            mostHeld = max(mostHeld, held.counted)
        }
        // Five objects a page (the page and its four items): the limit, the
        // page kept and the page just written, never more.
        #expect(mostHeld <= 30 + 5 + 5)
        #expect(store.automaticCollectionCount > 20)
        // No record but the root was ever written: the record count could
        // not have set off these collections.
        #expect(store.recordKeys == [.queryRoot])
        #expect(store.read(try Self.operation(0)).data == Self.data(page: 0, version: 0, count: 4))
        #expect(store.read(try Self.operation(200)).data == Self.data(page: 200, version: 0, count: 4))
        #expect(store.read(try Self.operation(1)).miss != nil)
        kept.cancel()
    }

    @Test("without a limit, pages stay until gc(), which removes those nothing live reads")
    func noLimitKeepsPages() throws {
        let store = GraphQLStore(configuration: GraphQLStore.Configuration(recordLimit: nil))
        for page in 0..<50 {
            try store.write(data: Self.data(page: page, version: 0, count: 4), for: Self.operation(page))
        }
        #expect(Self.held(in: store).counted == 250)
        let kept = store.retain(try Self.operation(7))
        store.gc()
        #expect(Self.held(in: store) == (counted: 5, recounted: 5))
        #expect(store.read(try Self.operation(7)).data == Self.data(page: 7, version: 0, count: 4))
        kept.cancel()
    }

    @Test("random writes, edits, retains and collections keep the count exact and the pages the policy keeps")
    func modelBased() throws {
        let seed = SeededGenerator.testSeed()
        print("Root object limit model-based test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var collections = 0
        for run in 0..<60 {
            collections += try playRun(seed: random.next(), label: "seed \(seed), run \(run)")
        }
        // The runs exercise the policy, not only writes below the limit.
        #expect(collections > 60)
    }

    /// One run against a model: the pages held (by number, their version and
    /// size), the pages retained, the threshold. Returns the collections.
    private func playRun(seed: UInt64, label: String) throws -> Int {
        var random = SeededGenerator(seed: seed)
        let limit = Int.random(in: 3...40, using: &random)
        let pageCount = Int.random(in: 2...20, using: &random)
        let store = GraphQLStore(configuration: GraphQLStore.Configuration(recordLimit: limit))
        store.collectInOneCommit()

        /// Each page held: the version last written and its number of items.
        var pages: [Int: (version: Int, count: Int)] = [:]
        var retains: [(token: StoreRetainToken, page: Int)] = []
        var threshold = limit
        var version = 0
        var collections = 0
        func held(_ page: Int) -> Int { pages[page].map { 1 + $0.count } ?? 0 }
        func heldInAll() -> Int { pages.keys.reduce(0) { $0 + held($1) } }

        for step in 0..<150 {
            let context = "\(label), step \(step)"
            let page = Int.random(in: 0..<pageCount, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                version += 1
                let count = Int.random(in: 0...6, using: &random)
                try store.write(
                    data: Self.data(page: page, version: version, count: count), for: Self.operation(page))
                pages[page] = (version, count)
                if heldInAll() > threshold {
                    // A quick collection: the page written and the pages
                    // retained stay.
                    let live = Set(retains.map(\.page)).union([page])
                    pages = pages.filter { live.contains($0.key) }
                    threshold = heldInAll() + max(limit, heldInAll())
                    collections += 1
                }
            case 5:
                retains.append((store.retain(try Self.operation(page)), page))
            case 6:
                if !retains.isEmpty {
                    retains.remove(at: Int.random(in: 0..<retains.count, using: &random)).token.cancel()
                }
            case 7:
                _ = store.modify(record: .queryRoot, fields: ["page(n:\(page))": nil])
                pages[page] = nil
            default:
                let live = Set(retains.map(\.page))
                store.gc()
                // gc() removes what nothing live reads; a root record that
                // keeps no field goes with its fields.
                pages = pages.filter { live.contains($0.key) }
                threshold = heldInAll() + max(limit, heldInAll())
            }
            let counted = Self.held(in: store)
            #expect(counted.counted == counted.recounted, "\(context): the count drifted from the fields")
            #expect(counted.counted == heldInAll(), "\(context): the store holds other pages than the model")
            for (number, written) in pages {
                let read = store.read(try Self.operation(number)).data
                #expect(
                    read == Self.data(page: number, version: written.version, count: written.count),
                    "\(context): page \(number)")
            }
        }
        for retain in retains { retain.token.cancel() }
        return collections
    }
}
