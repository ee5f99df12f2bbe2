import Foundation
import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

/// Random page loads of three lists of one connection over a store (tag `a`, tag `b`, every
/// tag; with the connection's membership rule or without), with items deleted by a mutation
/// (`@deleteRecord`) while a page is in flight: the page answered before the deletion and
/// arriving after it, or asked after it. Seeded.
///
/// After every step: no list shows a deleted item, and the store holds none of them (a response
/// answered before a deletion does not bring the record back).
///
/// Replay with `PAGING_SEED=<seed> swift test --filter DeletionInFlightModel`.
@Suite("Deletions while pages are in flight, model-based", .timeLimit(.minutes(HangLimit.minutes(3))))
struct DeletionInFlightModelTests {
    @Test(
        "an item deleted while a page is in flight never shows again, in any list, nor comes back to the store"
    )
    func randomRuns() async throws {
        let seed = SeededGenerator.testSeed()
        print("Deletion in flight model-based test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var answeredBefore = 0
        let runs = try await RandomRuns.play(60, until: { answeredBefore >= RandomRuns.count(60) }) { run in
            answeredBefore += try await play(seed: random.next(), label: "seed \(seed), run \(run)")
        }
        print(
            "Deletion in flight: \(runs) runs, \(answeredBefore) deletions between a page's answer and its arrival"
        )
        #expect(answeredBefore >= RandomRuns.count(60), "the runs deleted too rarely while a page was held")
    }

    /// One run; returns how many items were deleted while a page answered before was held.
    private func play(seed: UInt64, label: String) async throws -> Int {
        var random = SeededGenerator(seed: seed)
        let server = RankedItemServer(
            (0..<30).map { _ in
                (score: Int.random(in: 0..<40, using: &random), tag: MembershipModelTests.anyTag(&random))
            })
        let rules = Bool.random(using: &random)
        let client = server.client(rules: rules ? [RankedItemServer.rule] : [])
        var lists: [Pager<String, RankedItem>] = []
        for tag in MembershipModelTests.tags {
            let list = try RankedItemServer.list(
                client, tag: tag, pageSize: Int.random(in: 1...4, using: &random))
            _ = try await list.loadNext().value
            lists.append(list)
        }
        let label = "\(label) (\(rules ? "with" : "without") the rule)"
        var deleted: Set<String> = []
        var answeredBefore = 0
        for step in 0..<12 {
            let loading = lists.filter(\.hasNext)
            let ids = server.ids()
            guard !loading.isEmpty, !ids.isEmpty else { break }
            let list = loading[Int.random(in: 0..<loading.count, using: &random)]
            let doomed = Set(
                (0..<Int.random(in: 1...2, using: &random)).map { _ in
                    ids[Int.random(in: 0..<ids.count, using: &random)]
                })
            let held = Bool.random(using: &random)
            if held {
                // The page's answer is made as its request arrives, and held on its way.
                server.server.hold { $0.operationName != "DeleteItem" }
                let requests = server.requestCount
                let load = list.loadNext()
                await server.server.waitForRequests(requests + 1)
                for id in doomed { _ = try await client.send(RankedMutations.delete(id)) }
                server.server.release()
                _ = try await load.value
                answeredBefore += doomed.count
            } else {
                for id in doomed { _ = try await client.send(RankedMutations.delete(id)) }
                _ = try await list.loadNext().value
            }
            deleted.formUnion(doomed)
            for (list, tag) in zip(lists, MembershipModelTests.tags) {
                let shown = list.items.map(\.id).filter(deleted.contains)
                #expect(
                    shown.isEmpty,
                    "\(label), step \(step) (\(held ? "answered before" : "asked after")): list \(tag ?? "all") shows deleted \(shown)"
                )
            }
            let stored = deleted.filter { client.store?.record(for: CacheKey("Item:\($0)")) != nil }
            #expect(stored.isEmpty, "\(label), step \(step): the store holds deleted \(stored.sorted())")
        }
        return answeredBefore
    }
}
