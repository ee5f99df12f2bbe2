import PagingLock
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

/// Random writes, deletes, modifies and collections over a small pool of
/// records, against several watches; after every step each watch's last
/// element equals a fresh read of its selection.
///
/// A random "server" (``World``) holds five items whose names, values and
/// references (`next`, `children`, root lists, a featured item, grids) change
/// at random between steps; each write sends what the server would answer to
/// one of a fixed set of queries and fragments. Besides the watches, every
/// step checks that a write reads back as written, and, through the
/// synchronous `observe` path, that a read whose dependencies a change does
/// not touch reads the same after it.
///
/// Replay a failing run with `PAGING_SEED=<seed> swift test --filter StoreModel`.
@Suite("GraphQLStore, model-based", .timeLimit(.minutes(HangLimit.minutes(2))))
struct StoreModelTests {
    @Test("after random writes, deletes, modifies and collections every watch shows a fresh read")
    func randomSteps() async throws {
        let seed = SeededGenerator.testSeed()
        print("Store model-based test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var steps = 0
        for run in 0..<30 {
            steps += try await play(seed: random.next(), label: "seed \(seed), run \(run)")
        }
        #expect(steps >= 1_500)
    }

    // MARK: The server

    /// What the server knows: five items and the lists that hold them.
    struct World {
        static let ids = 1...5
        var names: [Int: String] = [:]
        var values: [Int: Int] = [:]
        /// The `next` item of each item; 0 for `null`.
        var next: [Int: Int] = [:]
        var children: [Int: [Int]] = [:]
        var roots: [Int] = []
        var title = "x"
        /// The featured item; 0 for `null`.
        var featured = 0
        var grids: [Int: [[Int?]]] = [:]

        init(using random: inout SeededGenerator) {
            for id in Self.ids { names[id] = "a" }
            for _ in 0..<20 { mutate(using: &random) }
        }

        static func anyID(_ random: inout SeededGenerator) -> Int { Int.random(in: ids, using: &random) }

        /// Changes one fact, from small domains so that values repeat.
        mutating func mutate(using random: inout SeededGenerator) {
            let id = Self.anyID(&random)
            switch Int.random(in: 0..<8, using: &random) {
            case 0: names[id] = ["a", "b", "c"].randomElement(using: &random)
            case 1: values[id] = Int.random(in: 0...2, using: &random)
            case 2: next[id] = Int.random(in: 0...5, using: &random)
            case 3:
                children[id] = (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.anyID(&random) }
            case 4: roots = (0..<Int.random(in: 0...4, using: &random)).map { _ in Self.anyID(&random) }
            case 5: title = ["x", "y"].randomElement(using: &random) ?? "x"
            case 6: featured = Int.random(in: 0...5, using: &random)
            default:
                grids[Int.random(in: 1...2, using: &random)] = (0..<Int.random(in: 0...3, using: &random)).map
                { _ in
                    (0..<Int.random(in: 0...2, using: &random)).map { _ in
                        Bool.random(using: &random) ? Self.anyID(&random) : nil
                    }
                }
            }
        }

        enum Field {
            case name, value
            indirect case next([Field])
            indirect case children([Field])
        }

        /// An item as the server sends it for a selection.
        func item(_ id: Int, _ fields: [Field]) -> JSONValue {
            var object: [String: JSONValue] = ["__typename": "Item", "id": .string(String(id))]
            for field in fields {
                switch field {
                case .name: object["name"] = .string(names[id] ?? "a")
                case .value: object["value"] = .int(values[id] ?? 0)
                case .next(let fields):
                    let next = next[id] ?? 0
                    object["next"] = next == 0 ? .null : item(next, fields)
                case .children(let fields):
                    object["children"] = .array((children[id] ?? []).map { item($0, fields) })
                }
            }
            return .object(object)
        }
    }

    // MARK: The client

    /// A selection and what the server answers for it.
    struct Selection {
        var name: String
        var operation: StoreOperation?
        var fragment: (StoreFragment, CacheKey)?
        var answer: (World) -> JSONValue

        func read(_ store: GraphQLStore) -> StoreReadResult {
            if let operation { return store.read(operation) }
            if let (fragment, key) = fragment { return store.read(fragment, at: key) }
            return StoreReadResult(data: nil, miss: nil, dependenciesByRecord: [:])
        }

        func watch(_ store: GraphQLStore) -> GraphQLStoreWatch? {
            if let operation { return store.watch(operation) }
            if let (fragment, key) = fragment { return store.watch(fragment, at: key) }
            return nil
        }

        func write(_ data: JSONValue, to store: GraphQLStore) throws {
            if let operation { try store.write(data: data, for: operation) }
            if let (fragment, key) = fragment { try store.write(data: data, for: fragment, at: key) }
        }
    }

    static func selections() throws -> [Selection] {
        let itemA = "query A($id: ID!) { item(id: $id) { __typename id name next { __typename id name } } }"
        let itemC = """
            query C($id: ID!) { item(id: $id) { __typename id value next { __typename id next { __typename id value } } } }
            """
        let items = "query B { items { __typename id value children { __typename id name } } }"
        let featured = """
            query D { featured { title item { __typename id name value } } label: featured { title } }
            """
        let grid = """
            query E($n: Int) { grid(n: $n) { __typename id ... on Item { name } ... on Other { missing } } }
            """
        let card = """
            fragment Card on Item { __typename id name value next { __typename id ...Name } }
            fragment Name on Item { name }
            """
        var selections: [Selection] = []
        for id in World.ids {
            let variables: [String: JSONValue] = ["id": .string(String(id))]
            selections.append(
                Selection(
                    name: "A(\(id))", operation: try StoreOperation(document: itemA, variables: variables)
                ) {
                    ["item": $0.item(id, [.name, .next([.name])])]
                })
            selections.append(
                Selection(
                    name: "C(\(id))", operation: try StoreOperation(document: itemC, variables: variables)
                ) {
                    ["item": $0.item(id, [.value, .next([.next([.value])])])]
                })
            selections.append(
                Selection(
                    name: "Card(\(id))",
                    fragment: (
                        try StoreFragment(document: card, fragmentName: "Card"), CacheKey("Item:\(id)")
                    )
                ) { $0.item(id, [.name, .value, .next([.name])]) })
        }
        selections.append(
            Selection(name: "B", operation: try StoreOperation(document: items)) { world in
                ["items": .array(world.roots.map { world.item($0, [.value, .children([.name])]) })]
            })
        selections.append(
            Selection(name: "D", operation: try StoreOperation(document: featured)) { world in
                [
                    "featured": [
                        "title": .string(world.title),
                        "item": world.featured == 0 ? .null : world.item(world.featured, [.name, .value]),
                    ],
                    "label": ["title": .string(world.title)],
                ]
            })
        for n in 1...2 {
            selections.append(
                Selection(
                    name: "E(\(n))", operation: try StoreOperation(document: grid, variables: ["n": .int(n)])
                ) {
                    world in
                    [
                        "grid": .array(
                            (world.grids[n] ?? []).map { row in
                                .array(row.map { $0.map { world.item($0, [.name]) } ?? .null })
                            })
                    ]
                })
        }
        return selections
    }

    // MARK: A run

    /// One run: a world, the watches, and random steps. Returns its steps.
    private func play(seed: UInt64, label: String) async throws -> Int {
        var random = SeededGenerator(seed: seed)
        var world = World(using: &random)
        let store = GraphQLStore()
        let selections = try Self.selections()
        let watched = selections.filter { _ in Bool.random(using: &random) }.prefix(8)
        let probes = watched.compactMap { $0.watch(store).map(WatchProbe.init) }
        var lastYielded: [JSONValue?] = Array(repeating: nil, count: probes.count)
        var reads = watched.map { $0.read(store) }
        let changes = Recorder<StoreChange>()
        let observation = store.observe { changes.record($0) }
        var retained: [StoreRetainToken] = []

        let stepCount = Int.random(in: 40...80, using: &random)
        for step in 0..<stepCount {
            let context = "\(label), step \(step)"
            let before = changes.recorded.count
            var action = ""
            switch Int.random(in: 0..<20, using: &random) {
            case 0:
                let id = World.anyID(&random)
                action = "delete Item:\(id)"
                store.delete(record: CacheKey("Item:\(id)"))
            case 1:
                let id = World.anyID(&random)
                let name = ["a", "b", "c", "d"].randomElement(using: &random) ?? "a"
                action = "modify Item:\(id).name = \(name)"
                store.modify(record: CacheKey("Item:\(id)"), fields: ["name": .scalar(.string(name))])
            case 2:
                action = "gc"
                if Bool.random(using: &random), let selection = selections.randomElement(using: &random),
                    let operation = selection.operation
                {
                    retained.append(store.retain(operation))
                }
                if Bool.random(using: &random), !retained.isEmpty { retained.removeFirst().cancel() }
                store.gc()
            default:
                for _ in 0..<Int.random(in: 0...3, using: &random) { world.mutate(using: &random) }
                guard let selection = selections.randomElement(using: &random) else { continue }
                action = "write \(selection.name)"
                let data = selection.answer(world)
                try selection.write(data, to: store)
                #expect(selection.read(store).data == data, "\(context): \(action) reads back as written")
            }

            #expect(store.state.withLock { $0.referrerIndexIsConsistent() }, "\(context): after \(action)")

            // The synchronous path: at most one change per step, and reads
            // it does not touch read the same data. (A miss may move: a record
            // that arrives without the field a read needs changes where it
            // misses, not that it misses.)
            let recorded = changes.recorded
            #expect(recorded.count - before <= 1, "\(context): \(action) published more than once")
            let change = recorded.count > before ? recorded.last : nil
            for (index, selection) in watched.enumerated() {
                let fresh = selection.read(store)
                if change.map({ !reads[index].isAffected(by: $0) }) ?? true {
                    #expect(
                        fresh.data == reads[index].data,
                        "\(context): \(action) changed \(selection.name) without touching its dependencies")
                }
                if action == "gc" {
                    #expect(
                        fresh.data == reads[index].data, "\(context): gc changed what \(selection.name) reads"
                    )
                }
                reads[index] = fresh
            }

            // The watches: each shows the fresh read once it is complete.
            for (index, probe) in probes.enumerated() {
                guard let data = reads[index].data, data != lastYielded[index] else { continue }
                let yielded = await probe.next()
                #expect(yielded == data, "\(context): after \(action), watch \(watched[index].name)")
                lastYielded[index] = yielded
                if yielded != data { return step }
            }
        }
        for (index, probe) in probes.enumerated() {
            #expect(
                probe.pending.isEmpty, "\(label): watch \(watched[index].name) yielded more than expected")
            await probe.cancel()
        }
        #expect(store.liveWatchCount == 0)
        observation.cancel()
        return stepCount
    }
}

extension StoreState {
    /// Whether the referrers the store keeps are exactly the references its
    /// records hold, recomputed from scratch.
    func referrerIndexIsConsistent() -> Bool {
        var expected: [CacheKey: Set<StoreFieldKey>] = [:]
        var actual: [CacheKey: Set<StoreFieldKey>] = danglingReferrers
        records.forEach { key, record in
            for (field, value) in record.dictionary {
                value.forEachReference {
                    expected[$0, default: []].insert(StoreFieldKey(record: key, field: field))
                }
            }
            if !record.referrers.isEmpty { actual[key, default: []].formUnion(record.referrers.all) }
        }
        return actual == expected && danglingReferrers.keys.allSatisfy { records[$0] == nil }
    }
}
