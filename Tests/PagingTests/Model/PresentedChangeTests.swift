import PagingTesting
import Testing

@testable import Paging

/// ``PresentedChange``: the change of the rows a screen with placeholders draws, made from the
/// change of the items held and the placeholder counts around them.
@Suite("PresentedChange")
struct PresentedChangeTests {
    /// A row: an item (its id and version) or a placeholder (`nil`).
    private typealias Row = Int?

    /// One random event on a held list: its new held items, the held change, and the new counts.
    private struct Event {
        var held: [Int]
        var change: ListChange
        var before: Int
        var after: Int
        /// Whether every item kept stays at its position in the whole list (a positional change).
        var positional: Bool
    }

    @Test(
        "random events: the change turns the old rows into the new; a load that agrees with the counts only updates"
    )
    func randomEvents() throws {
        let seed = SeededGenerator.testSeed()
        print("PresentedChange test seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var nextID = 1_000
        for trial in 0..<4_000 {
            let held = (0..<Int.random(in: 0...8, using: &random)).map { $0 * 10 }
            let before = Int.random(in: 0...5, using: &random)
            let after = Int.random(in: 0...5, using: &random)
            let event = Self.event(on: held, before: before, after: after, nextID: &nextID, using: &random)
            let old: [Row] = Array(repeating: nil, count: before) + held + Array(repeating: nil, count: after)
            let new: [Row] =
                Array(repeating: nil, count: event.before) + event.held
                + Array(repeating: nil, count: event.after)
            let change = PresentedChange.make(
                from: .init(before: before, held: held.count, after: after),
                to: .init(before: event.before, held: event.held.count, after: event.after),
                held: event.change)
            let context =
                "seed \(seed), trial \(trial): \(old) → \(new) by \(event.change), presented \(change)"
            var rows = old
            try change.checkedApply(to: &rows, from: new)
            #expect(rows == new, "\(context)")
            if event.positional {
                // Rows are only added or taken at the end, and exactly the rows that differ, or
                // whose held item was updated, are updated.
                let common = min(old.count, new.count)
                #expect(change.removed.allSatisfy { $0.lowerBound >= common }, "\(context)")
                #expect(change.inserted.allSatisfy { $0.lowerBound >= common }, "\(context)")
                let heldUpdated = Set(event.change.updated.flatMap { $0 }.map { $0 + event.before })
                let differing = Set((0..<common).filter { old[$0] != new[$0] || heldUpdated.contains($0) })
                #expect(Set(change.updated.flatMap { $0 }) == differing, "\(context)")
            }
        }
    }

    @Test("with no placeholder on either side, a page appended is inserted; items edited in place are")
    func noPlaceholders() {
        let appended = ListChange(inserted: [6..<9])
        #expect(PresentedChange.make(from: .init(held: 6), to: .init(held: 9), held: appended) == appended)
        let edited = ListChange(removed: [0..<2], inserted: [3..<5])
        #expect(PresentedChange.make(from: .init(held: 6), to: .init(held: 6), held: edited) == edited)
    }

    @Test("a page appended into placeholders with a page dropped at the front: updates only")
    func appendWithDrop() {
        // 10 placeholders, items 10..<20, 80 placeholders; page 20..<30 appended, 10..<20 dropped.
        let change = PresentedChange.make(
            from: .init(before: 10, held: 10, after: 80), to: .init(before: 20, held: 10, after: 70),
            held: ListChange(removed: [0..<10], inserted: [0..<10]))
        #expect(change == ListChange(updated: [10..<30]))
    }

    @Test("a jump: the old held rows and the new ones are updated, the count kept")
    func jump() {
        let change = PresentedChange.make(
            from: .init(before: 0, held: 20, after: 980), to: .init(before: 900, held: 60, after: 40),
            held: ListChange(removed: [0..<20], inserted: [0..<60]))
        #expect(change == ListChange(updated: [0..<20, 900..<960]))
    }

    /// A random event on `held`, with placeholder counts that agree with it (the whole list's
    /// count stays) in most draws, and random ones otherwise.
    private static func event(
        on held: [Int], before: Int, after: Int, nextID: inout Int, using random: inout SeededGenerator
    ) -> Event {
        func fresh(_ count: Int) -> [Int] {
            defer { nextID += count }
            return Array(nextID..<nextID + count)
        }
        let agree = Int.random(in: 0..<4, using: &random) != 0
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1:
            // A page at an end, the window dropping some items at the other.
            let atEnd = Bool.random(using: &random)
            let loaded = fresh(Int.random(in: 0...4, using: &random))
            let dropped = Int.random(in: 0...held.count, using: &random)
            let kept = atEnd ? Array(held.dropFirst(dropped)) : Array(held.dropLast(dropped))
            let newHeld = atEnd ? kept + loaded : loaded + kept
            let change =
                atEnd
                ? ListChange(
                    removed: dropped > 0 ? [0..<dropped] : [],
                    inserted: loaded.isEmpty ? [] : [kept.count..<newHeld.count])
                : ListChange(
                    removed: dropped > 0 ? [held.count - dropped..<held.count] : [],
                    inserted: loaded.isEmpty ? [] : [0..<loaded.count])
            let filled = atEnd ? min(loaded.count, after) : min(loaded.count, before)
            let newBefore =
                agree ? (atEnd ? before + dropped : before - filled) : Int.random(in: 0...5, using: &random)
            let newAfter =
                agree ? (atEnd ? after - filled : after + dropped) : Int.random(in: 0...5, using: &random)
            // Positional when the counts agree and the load did not push past the placeholders.
            let positional = newBefore + (atEnd ? 0 : loaded.count) == before + (atEnd ? dropped : 0)
            return Event(
                held: newHeld, change: change, before: max(0, newBefore), after: max(0, newAfter),
                positional: positional && newBefore >= 0 && newAfter >= 0)
        case 2 where !held.isEmpty:
            // An item updated in place (a new version: a new id here, at the same index).
            let index = Int.random(in: 0..<held.count, using: &random)
            var newHeld = held
            newHeld[index] = fresh(1)[0]
            return Event(
                held: newHeld, change: ListChange(updated: [index..<index + 1]), before: before, after: after,
                positional: true)
        case 3:
            // An item inserted among those held.
            let index = Int.random(in: 0...held.count, using: &random)
            var newHeld = held
            newHeld.insert(fresh(1)[0], at: index)
            return Event(
                held: newHeld, change: ListChange(inserted: [index..<index + 1]), before: before,
                after: after,
                positional: index == held.count)
        case 4 where !held.isEmpty:
            // An item removed.
            let index = Int.random(in: 0..<held.count, using: &random)
            var newHeld = held
            newHeld.remove(at: index)
            return Event(
                held: newHeld, change: ListChange(removed: [index..<index + 1]), before: before, after: after,
                positional: index == held.count - 1)
        default:
            // Everything replaced: a restart or a jump.
            let newHeld = fresh(Int.random(in: 0...8, using: &random))
            return Event(
                held: newHeld,
                change: ListChange(
                    removed: held.isEmpty ? [] : [0..<held.count],
                    inserted: newHeld.isEmpty ? [] : [0..<newHeld.count]),
                before: Int.random(in: 0...5, using: &random), after: Int.random(in: 0...5, using: &random),
                positional: true)
        }
    }
}
