import PagingTestSupport
import PagingTesting
import Testing

@testable import Paging

/// Random removals (`Pager.remove(id:)`, `PagerEdit.remove(id:if:)`) while a page is in flight
/// at an end, the page answered before them and holding some of the ids removed: held ones, ones
/// not held yet, and an overlap with the held page. Seeded.
///
/// After every page lands: no id removed while it was in flight is held, unless a page asked for
/// after the removal brought it (a later page's overlap); a conditional removal whose item was not
/// held does not count; every other id of the page is held once.
///
/// Replay with `PAGING_SEED=<seed> swift test --filter RemovedWhileLoadingModel`.
@Suite("Pager, removals while a page is in flight, model-based")
struct RemovedWhileLoadingModelTests {
    @Test("an id removed while a page that holds it is in flight is not held once the page lands")
    func randomRuns() async throws {
        let seed = SeededGenerator.testSeed()
        print("Removed while loading model-based test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for run in 0..<RandomRuns.count(200) {
            try await play(seed: random.next(), label: "seed \(seed), run \(run)")
        }
    }

    private func play(seed: UInt64, label: String) async throws {
        var random = SeededGenerator(seed: seed)
        let source = ScriptedSource<Int, TestItem>()
        let size = Int.random(in: 1...5, using: &random)
        let pager = Pager(source: source, configuration: try .testing(pageSize: size))
        // The server's list: ids 0…, pages of `size` after a key, each overlapping the one before by
        // up to one item (a feed whose items shift).
        // The first page, with nothing removed while it loads (a first load is a refresh, whose
        // pages replace local edits).
        let first = pager.loadNext()
        await source.nextCall().succeed(with: Page(items: (0..<size).map { TestItem(id: $0) }, nextKey: size))
        _ = try await first.value
        var next = size
        for step in 0..<10 {
            let load = pager.loadNext()
            let call = await source.nextCall()
            let overlap = Bool.random(using: &random) ? 1 : 0
            let page = Array((next - overlap)..<(next + size))
            // Removed while it is in flight: held ids, ids of the page, any id; some conditionally.
            var removed: Set<Int> = []
            let candidates = Array(pager.items.ids) + page
            for _ in 0..<Int.random(in: 0...2, using: &random) where !candidates.isEmpty {
                let id = candidates[Int.random(in: 0..<candidates.count, using: &random)]
                if Bool.random(using: &random) {
                    pager.remove(id: id)
                    removed.insert(id)
                } else {
                    let held = pager.items.ids.contains(id)
                    let outcome = pager.apply([.remove(id: id, if: .matching { _ in true })])
                    // A conditional removal counts when it applied: of a held item.
                    #expect(outcome == [held ? .applied : .notHeld], "\(label), step \(step)")
                    if held { removed.insert(id) }
                }
            }
            call.succeed(with: Page(items: page.map { TestItem(id: $0) }, nextKey: next + size))
            _ = try await load.value
            next += size
            let ids = pager.items.ids
            #expect(Set(ids).count == ids.count, "\(label), step \(step): an id twice in \(ids)")
            let violations = pager.invariantViolations
            #expect(violations.isEmpty, "\(label), step \(step): the pager's invariants broke: \(violations)")
            let back = ids.filter(removed.contains)
            #expect(back.isEmpty, "\(label), step \(step): removed \(back.sorted()) came back with the page")
            let missing = page.filter { !removed.contains($0) && !ids.contains($0) }
            #expect(missing.isEmpty, "\(label), step \(step): the page's \(missing) are not held")
        }
    }
}
