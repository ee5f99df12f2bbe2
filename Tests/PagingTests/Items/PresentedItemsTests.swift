import Testing

@testable import Paging

/// ``PresentedItems``: the index math between the whole list's positions and the items held.
@Suite("PresentedItems")
struct PresentedItemsTests {
    @Test("positions map to held items and placeholders, for every split of a list of 30 with 10 held")
    func positions() {
        let held = PagedItems(pages: [Array(100..<105), Array(105..<110)])
        for before in 0...20 {
            let presented = PresentedItems(
                items: held, placeholdersBefore: before, placeholdersAfter: 20 - before)
            #expect(presented.count == 30)
            #expect(presented.heldRange == before..<(before + 10))
            for position in 0..<30 {
                let isHeld = position >= before && position < before + 10
                #expect(presented.isPlaceholder(at: position) == !isHeld)
                #expect(presented[position] == (isHeld ? 100 + position - before : nil))
                #expect(presented.heldIndex(forPresented: position) == (isHeld ? position - before : nil))
                let distance =
                    isHeld ? 0 : position < before ? before - position : position - (before + 10) + 1
                #expect(presented.distanceFromHeld(position) == distance)
            }
            for index in 0..<10 {
                #expect(presented[presented.presentedIndex(forHeld: index)] == 100 + index)
            }
            #expect(!presented.isPlaceholder(at: -1) && !presented.isPlaceholder(at: 30))
            #expect(presented.heldIndex(forPresented: 30) == nil)
        }
    }

    @Test("no total known: the held items alone; negative counts are none; an empty list of placeholders")
    func edges() {
        let plain = PresentedItems(items: PagedItems(pages: [[1, 2, 3]]))
        #expect(Array(plain) == [1, 2, 3])
        let clamped = PresentedItems(
            items: PagedItems(pages: [[1]]), placeholdersBefore: -4, placeholdersAfter: -1)
        #expect(clamped.count == 1 && clamped.placeholdersBefore == 0 && clamped.placeholdersAfter == 0)
        let skeleton = PresentedItems<Int>(items: PagedItems(), placeholdersBefore: 0, placeholdersAfter: 5)
        #expect(skeleton.count == 5)
        #expect(skeleton.allSatisfy { $0 == nil })
        #expect((0..<5).allSatisfy(skeleton.isPlaceholder(at:)))
        #expect(skeleton.distanceFromHeld(4) == 5)
        #expect(PresentedItems<Int>().isEmpty)
    }
}
