import Paging
import PagingTesting
import Testing

@testable import PagingCLI

/// The list screen's selection while items arrive around it (the live demo's launches coming in at
/// the top): it stays on the item picked, on its screen line.
@Suite("the list screen's selection follows its item")
struct ListScreenSelectionTests {
    static func launch(_ id: Int) -> TutorialLaunch {
        TutorialLaunch(
            id: String(id), site: nil, mission: .init(name: "Mission \(id)", missionPatch: nil), rocket: nil,
            isBooked: false, launchDate: nil)
    }

    /// A pager over launches 0…29, ten to a page, loading only when told.
    static func pager() throws -> Pager<Int, TutorialLaunch> {
        Pager(
            source: ClosurePageSource { request in
                let start = request.key ?? 0
                let end = min(start + 10, 30)
                return Page(items: (start..<end).map(launch), nextKey: end < 30 ? end : nil)
            },
            configuration: try PagingConfiguration(pageSize: 10, prefetchDistance: 0))
    }

    @Test(
        "launches arriving above the selection push it down with its launch, on the same screen line; Enter opens it"
    )
    func followsArrivals() async throws {
        let pager = try Self.pager()
        var screen = ListScreen<TutorialLaunch>(
            title: "Launches", noun: "launches", canBook: false, size: ScreenSize(rows: 8, columns: 80))
        _ = try await pager.loadNext().value
        _ = screen.apply(pager.snapshot)
        for _ in 0..<3 { _ = screen.handle(key: .down) }
        #expect(screen.selectedItem?.id == "3")
        // At the top, an arrival shows: the view stays at the top, the selection goes down with
        // its launch.
        #expect(pager.insert(Self.launch(99), at: .first))
        _ = screen.apply(pager.snapshot)
        #expect(screen.top == 0 && screen.selectedItem?.id == "3" && screen.selection == 4)
        // Scrolled down, the selected row keeps its screen line as launches arrive above.
        for _ in 0..<6 { _ = screen.handle(key: .down) }
        #expect(screen.top > 0)
        let picked = try #require(screen.selectedItem?.id)
        let line = screen.selectedRow - screen.top

        // One arrival, applied as its snapshot: the change says where the launch went.
        #expect(pager.insert(Self.launch(100), at: .first))
        _ = screen.apply(pager.snapshot)
        #expect(screen.selectedItem?.id == picked)
        #expect(screen.selection == 11)
        #expect(screen.selectedRow - screen.top == line, "the selected row stays on its screen line")

        // Two more at once, the screen seeing only the second snapshot: the launch is looked up.
        #expect(pager.insert(Self.launch(101), at: .first))
        #expect(pager.insert(Self.launch(102), at: .first))
        _ = screen.apply(pager.snapshot)
        #expect(screen.selectedItem?.id == picked)
        #expect(screen.selectedRow - screen.top == line)
        let effects = screen.handle(key: .enter)
        #expect(
            effects.contains { if case .openDetails(let item) = $0 { item.id == picked } else { false } },
            "Enter opens the launch picked: \(effects)")

        // The selected launch removed: the one that took its place is selected.
        let selection = screen.selection
        #expect(pager.remove(id: picked) != nil)
        _ = screen.apply(pager.snapshot)
        #expect(screen.selectedItem?.id == pager.items[min(selection, pager.items.count - 1)].id)
    }

    @Test(
        "random arrivals, removals and moves of the selection, with snapshots skipped: the selection stays on its launch while it is held"
    )
    func randomArrivals() async throws {
        let seed = SeededGenerator.testSeed()
        print("List screen selection seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for run in 0..<50 {
            let pager = try Self.pager()
            var screen = ListScreen<TutorialLaunch>(
                title: "Launches", noun: "launches", canBook: false,
                size: ScreenSize(rows: Int.random(in: 5...12, using: &random), columns: 80))
            _ = try await pager.loadNext().value
            _ = screen.apply(pager.snapshot)
            var next = 1_000
            for step in 0..<40 {
                let label = "seed \(seed), run \(run), step \(step)"
                switch Int.random(in: 0..<6, using: &random) {
                case 0: _ = screen.handle(key: Bool.random(using: &random) ? .down : .up)
                case 1 where !pager.items.isEmpty:
                    // One held launch taken out, not the one selected.
                    let id = pager.items[Int.random(in: 0..<pager.items.count, using: &random)].id
                    if id != screen.selectedItem?.id { pager.remove(id: id) }
                default:
                    // Launches arriving, at the top or anywhere.
                    for _ in 0..<Int.random(in: 1...3, using: &random) {
                        let at: InsertPosition<String> =
                            Bool.random(using: &random) || pager.items.isEmpty
                            ? .first
                            : .before(pager.items[Int.random(in: 0..<pager.items.count, using: &random)].id)
                        pager.insert(Self.launch(next), at: at)
                        next += 1
                    }
                }
                let selected = screen.selectedItem?.id
                let line = screen.selectedRow - screen.top
                let scrolled = screen.top > 0
                // Now and then a snapshot is not seen: the next one skips its version.
                if Int.random(in: 0..<3, using: &random) > 0 { _ = screen.apply(pager.snapshot) }
                // A launch the screen showed may have gone meanwhile (the screen skipped a snapshot).
                guard let selected, pager.items.contains(where: { $0.id == selected }) else { continue }
                #expect(
                    screen.selectedItem?.id == selected,
                    "\(label): the selection left its launch; screen \(screen.items.map(\.id)), pager \(pager.items.map(\.id)), change \(pager.snapshot.change)"
                )
                let fits =
                    screen.selectedRow - line >= 0
                    && screen.selectedRow - line + screen.bodyHeight <= screen.rowCount
                if fits, scrolled {
                    #expect(
                        screen.selectedRow - screen.top == line, "\(label): the selected row moved on screen")
                }
            }
        }
    }
}
