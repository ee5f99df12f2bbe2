import Foundation
import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

/// Random loads, refreshes, loads and refreshes started at once, edits and
/// deletes, over a list whose every page is held at a gate between its
/// source learning it and the pager taking it in, opened, failed or left
/// waiting in random order; after every step each row shows what the store
/// holds for its launch, and no row shows a launch the store has deleted.
///
/// This is the class of defect where a change made while a page pends (a
/// booking while a next page waits, a delete while a refresh is in
/// flight) never reaches the rows that page brings. The gate makes every
/// such interleaving a step of the test, and the test waits for the pager
/// to take in every page opened before it checks, so that a run depends on
/// its seed alone.
///
/// Replay a failing run with
/// `PAGING_SEED=<seed> swift test --filter StoreFollowingModel`.
@Suite("Pagers follow the store, model-based", .timeLimit(.minutes(HangLimit.minutes(3))))
struct StoreFollowingModelTests {
    typealias Strategy = PagerFollowsStoreTests.Strategy

    @Test(
        "after random loads, refreshes, load-and-refresh races, edits and deletes with pages held, every row is what the store holds",
        arguments: Strategy.allCases)
    func randomSteps(strategy: Strategy) async throws {
        let seed = SeededGenerator.testSeed()
        print("Store-following model-based test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var steps = 0
        let minimumSteps = RandomRuns.count(40) * 30
        try await RandomRuns.play(40, until: { steps >= minimumSteps }) { run in
            let runSeed = random.next()
            let fleet = LaunchFleet(count: 14)
            let store = GraphQLStore()
            let client = fleet.client(store: store)
            let label = "seed \(seed), run \(run)"
            switch strategy {
            case .byRecord:
                steps += try await play(
                    try PagerFollowsStoreTests.connectionSource(client), deletes: false, client: client,
                    store: store, seed: runSeed, label: label)
            case .byPage:
                // A page followed by its query cannot read again once a record
                // it shows is deleted (its read misses): deletes are left out.
                steps += try await play(
                    PagerFollowsStoreTests.queryPager(client), deletes: false, client: client, store: store,
                    seed: runSeed, label: label)
            }
        }
        #expect(steps >= minimumSteps)
    }

    /// An error a test fails a held load with.
    struct HeldLoadFailed: Error {}

    /// One run: a list over a gate, random steps, and a check after each.
    /// Returns the number of steps.
    private func play<Source: PageSource>(
        _ source: Source, deletes: Bool, client: GraphQLClient, store: GraphQLStore, seed: UInt64,
        label: String
    ) async throws -> Int where Source.Item == FollowedLaunch {
        var random = SeededGenerator(seed: seed)
        let gate = FetchGate<PageRequest<Source.Key>>(ignoresCancellation: Bool.random(using: &random))
        let configuration = try PagingConfiguration(
            pageSize: 3, prefetchDistance: 0,
            maximumHeld: Bool.random(using: &random) ? nil : .pages(3),
            refreshPolicy: Bool.random(using: &random) ? .restart : .refetchLoadedPages)
        let pager = Pager(
            source: GatedPageSource(base: source, gate: gate, holdsFailures: true),
            configuration: configuration)
        var loads: [PageLoad] = []
        var held: [FetchGate<PageRequest<Source.Key>>.Call] = []
        let row = try StoreFragment(document: "fragment Row on Launch { \(FollowedLaunch.selection) }")

        /// Waits until every load the pager started is held at the gate or
        /// taken in, and takes the calls that arrived.
        func quiesce() async {
            while true {
                let started = pager.startedRequestCount
                await gate.waitUntilSettled(calls: started)
                await pager.waitUntilDelivered(started - gate.pendingCount)
                guard pager.startedRequestCount != started else { break }
            }
            held += gate.takeUnclaimed()
        }

        /// Each row is the store's read of its launch; no launch shows twice.
        func check(_ context: @autoclosure () -> String) throws -> Bool {
            let rows = Array(pager.items)
            #expect(Set(rows.map(\.id)).count == rows.count, "\(context()): a launch shows twice")
            for item in rows {
                let stored = try store.read(row, at: CacheKey("Launch:\(item.id)")).data.map {
                    try $0.decode(FollowedLaunch.self)
                }
                guard stored == item else {
                    Issue.record(
                        "\(context()): row \(item.id) is \(item), the store holds \(String(describing: stored))"
                    )
                    return false
                }
            }
            return true
        }

        let stepCount = Int.random(in: 30...60, using: &random)
        var actions: [String] = []
        for step in 0..<stepCount {
            let id = String(Int.random(in: 1...14, using: &random))
            var action: String
            switch Int.random(in: 0..<15, using: &random) {
            case 0, 1, 2:
                action = "loadNext"
                loads.append(pager.loadNext())
            case 3:
                action = "refresh"
                loads.append(pager.refresh())
            case 4:
                action = "loadNext and refresh at once"
                loads.append(pager.loadNext())
                loads.append(pager.refresh())
            case 5:
                action = "refresh and loadNext at once"
                loads.append(pager.refresh())
                loads.append(pager.loadNext())
            case 6, 7, 8:
                guard !held.isEmpty else { continue }
                let call = held.remove(at: Int.random(in: held.indices, using: &random))
                action = "open call \(call.number)"
                call.open()
            case 9:
                guard !held.isEmpty else { continue }
                let call = held.remove(at: Int.random(in: held.indices, using: &random))
                action = "fail call \(call.number)"
                call.fail(with: HeldLoadFailed())
            case 10:
                let book = Bool.random(using: &random)
                action = book ? "book \(id)" : "cancel \(id)"
                _ = try await client.send(
                    book ? FleetMutations.bookTrips([id]) : FleetMutations.cancelTrip(id))
            case 11:
                action = "set the site of \(id) in the store"
                try PagerFollowsStoreTests.setSite(id, to: "Site \(id) at \(step)", in: store)
            case 12:
                let rocket = Bool.random(using: &random) ? "falcon1" : "falcon9"
                action = "rename \(rocket)"
                _ = try await client.send(FleetMutations.renameRocket(rocket, to: "Falcon at \(step)"))
            default:
                guard deletes else { continue }
                if Bool.random(using: &random) {
                    action = "delete \(id) by a mutation"
                    _ = try await client.send(FleetMutations.deleteLaunch(id))
                } else {
                    action = "delete \(id) from the store"
                    store.delete(record: CacheKey("Launch:\(id)"))
                }
            }
            await quiesce()
            actions.append(action)
            guard try check("\(label), step \(step): \(actions.joined(separator: "; "))") else { return step }
        }

        // Every held load lets go, in order; then all have ended.
        while !held.isEmpty {
            for call in held { call.open() }
            held = []
            await quiesce()
        }
        for load in loads { _ = try? await load.value }
        #expect(!pager.loadStates.refresh.isLoading && !pager.isLoadingNext, "\(label): a load never ended")
        _ = try check("\(label), at the end: \(actions.joined(separator: "; "))")
        return stepCount
    }
}
