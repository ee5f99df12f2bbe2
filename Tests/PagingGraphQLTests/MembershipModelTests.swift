import Foundation
import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

/// Random creations, deletions (`@deleteRecord`, the item a list's next
/// page starts after among them), new scores and new tags of items, page
/// loads and refreshes, over three held lists of one ranked connection (tag `a`, tag
/// `b`, every tag) whose store has the connection's membership rule. After
/// every step each list holds exactly the server's items of its filter, in
/// the server's order, up to where its next page starts (all of them once
/// its end is reached): every record that came into its range is in once,
/// at its place; every one that left is out. And each mutation changed each
/// list in at most one snapshot.
///
/// The same steps run over lists without the rule, for the figure of what
/// the rule mends (items missing or extra at the end of a run).
///
/// Replay a failing run with
/// `PAGING_SEED=<seed> swift test --filter MembershipModel`; add
/// `PAGING_RUN=<run>` to play that run alone and print the lists and the
/// server after each step.
@Suite("Membership rules, model-based", .timeLimit(.minutes(HangLimit.minutes(3))))
struct MembershipModelTests {
    static let tags: [String?] = ["a", "b", nil]

    /// A tag an item gets: one of the two lists' or neither.
    static func anyTag(_ random: inout SeededGenerator) -> String {
        ["a", "b", "c"][Int.random(in: 0..<3, using: &random)]
    }

    @Test(
        "after random creations, deletions, moves, retags, loads and refreshes, every list is the server's, up to its next page"
    )
    func randomSteps() async throws {
        let seed = SeededGenerator.testSeed()
        print("Membership model-based test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var totals = Totals()
        let only = ProcessInfo.processInfo.environment["PAGING_RUN"].flatMap { Int($0) }
        let runs = try await RandomRuns.play(200, until: { only == nil && totals.wrongWithout > 0 }) { run in
            let runSeed = random.next()
            if let only, run != only { return }
            let label = "seed \(seed), run \(run)"
            let withRule = try await play(seed: runSeed, rules: true, label: label)
            let without = try await play(seed: runSeed, rules: false, label: label)
            totals.add(withRule, without)
        }
        print(
            "Membership model: \(runs) runs, \(totals.steps) steps, \(totals.mutations) mutations; "
                + "at the end of the runs, items missing or extra: \(totals.wrongWith) with the rule, "
                + "\(totals.wrongWithout) without")
        #expect(totals.wrongWith == 0)
        #expect(only != nil || totals.steps == runs * 40)
        #expect(totals.wrongWithout > 0, "the steps do move items across the lists' ranges")
    }

    struct Totals {
        var steps = 0
        var mutations = 0
        var wrongWith = 0
        var wrongWithout = 0

        mutating func add(_ with: Outcome, _ without: Outcome) {
            steps += with.steps
            mutations += with.mutations
            wrongWith += with.wrong
            wrongWithout += without.wrong
        }
    }

    struct Outcome {
        var steps = 0
        var mutations = 0
        /// Items missing or extra in the lists at the end of the run.
        var wrong = 0
    }

    /// One run: a server of random items, three lists, 40 random steps. With
    /// the rule, each list is checked after every step.
    private func play(seed: UInt64, rules: Bool, label: String) async throws -> Outcome {
        var random = SeededGenerator(seed: seed)
        let server = RankedItemServer(
            (0..<Int.random(in: 4...14, using: &random)).map { _ in
                (
                    score: Int.random(in: 0..<40, using: &random),
                    tag: Self.anyTag(&random)
                )
            })
        let client = server.client(rules: rules ? [RankedItemServer.rule] : [])
        var lists: [Pager<String, RankedItem>] = []
        for tag in Self.tags {
            let list = try RankedItemServer.list(
                client, tag: tag, pageSize: Int.random(in: 1...4, using: &random))
            _ = try await list.loadNext().value
            lists.append(list)
        }
        var outcome = Outcome()
        for step in 0..<40 {
            outcome.steps += 1
            let ids = server.ids()
            // With no item left, a creation.
            let choice = ids.isEmpty ? 5 : Int.random(in: 0..<12, using: &random)
            let versions = lists.map(\.snapshot.version)
            var mutated = true
            switch choice {
            case 0..<3:
                _ = try await client.send(
                    RankedMutations.set(
                        ids[Int.random(in: 0..<ids.count, using: &random)],
                        score: Int.random(in: 0..<40, using: &random)))
            case 3..<5:
                _ = try await client.send(
                    RankedMutations.set(
                        ids[Int.random(in: 0..<ids.count, using: &random)],
                        tag: Self.anyTag(&random)))
            case 9:
                // Two or three items at once, in one response: one store change.
                let changes = (0..<Int.random(in: 2...3, using: &random)).map { _ in
                    (
                        id: ids[Int.random(in: 0..<ids.count, using: &random)],
                        score: Bool.random(using: &random) ? Int.random(in: 0..<40, using: &random) : nil,
                        tag: Bool.random(using: &random) ? Self.anyTag(&random) : nil
                    )
                }
                _ = try await client.send(RankedMutations.setMany(changes))
            case 5..<6:
                _ = try await client.send(
                    RankedMutations.create(
                        score: Int.random(in: 0..<40, using: &random),
                        tag: Self.anyTag(&random)))
            case 11:
                // Half the time the item a list's next page starts after (its boundary).
                let ends = Self.tags.compactMap { tag -> String? in
                    guard case .some(.some(let end)) = server.lastPageEnd(tag: tag) else { return nil }
                    return ids.contains(String(end.id)) ? String(end.id) : nil
                }
                let id =
                    !ends.isEmpty && Bool.random(using: &random)
                    ? ends[Int.random(in: 0..<ends.count, using: &random)]
                    : ids[Int.random(in: 0..<ids.count, using: &random)]
                _ = try await client.send(RankedMutations.delete(id))
            case 6..<9:
                mutated = false
                _ = try await lists[Int.random(in: 0..<lists.count, using: &random)].loadNext().value
            default:
                mutated = false
                _ = try await lists[Int.random(in: 0..<lists.count, using: &random)].refresh().value
            }
            if ProcessInfo.processInfo.environment["PAGING_RUN"] != nil, rules {
                print(
                    "step \(step) choice \(choice): "
                        + zip(lists, Self.tags).map { "\($1 ?? "all")=\($0.items.map(\.id))" }.joined(
                            separator: " ")
                        + " server \(server.rows().map { "\($0.id):\($0.score)\($0.tag)" })"
                        + " last \(server.server.received.last?.variables ?? [:])")
            }
            if mutated {
                outcome.mutations += 1
                if rules {
                    for (list, version) in zip(lists, versions) {
                        #expect(
                            list.snapshot.version <= version + 1,
                            "\(label), step \(step): one snapshot a mutation")
                    }
                }
            }
            guard rules else { continue }
            for (list, tag) in zip(lists, Self.tags) {
                let expected = expectedIDs(server, tag: tag)
                let held = list.items.map(\.id)
                guard held == expected else {
                    Issue.record(
                        "\(label), step \(step) (choice \(choice)), list \(tag ?? "all"): holds \(held), expected \(expected); server \(server.rows())"
                    )
                    return outcome
                }
            }
        }
        for (list, tag) in zip(lists, Self.tags) {
            let expected = Set(expectedIDs(server, tag: tag))
            let held = Set(list.items.map(\.id))
            outcome.wrong += expected.symmetricDifference(held).count
        }
        return outcome
    }

    /// The ids a list of a tag should hold: the server's, up to where its
    /// next page starts.
    private func expectedIDs(_ server: RankedItemServer, tag: String?) -> [String] {
        let rows = server.rows(tag: tag)
        guard case .some(.some(let end)) = server.lastPageEnd(tag: tag) else {
            return rows.map { String($0.id) }
        }
        return rows.filter { RankedItemServer.precedes($0, end) || $0.id == end.id && $0.score == end.score }
            .map {
                String($0.id)
            }
    }
}
