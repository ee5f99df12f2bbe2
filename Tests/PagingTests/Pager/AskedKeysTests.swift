import Testing

@testable import Paging

/// The keys asked for: what stops a source whose keys come round again.
@Suite("AskedKeys")
struct AskedKeysTests {
    @Test("a page that names the key it was asked with, or one asked before, leads back")
    func leadsBack() {
        var asked = AskedKeys<Int>()
        asked.remember(PageRequest(.next(after: 1), count: 1))
        asked.remember(PageRequest(.initial(9), count: 1))
        #expect(asked.next == [1] && asked.previous.isEmpty)
        let request = PageRequest<Int>(.next(after: 2), count: 1)
        #expect(asked.leadsBack(Page<Int, TestItem>(items: [], nextKey: 2), from: request))
        #expect(asked.leadsBack(Page<Int, TestItem>(items: [], nextKey: 1), from: request))
        #expect(!asked.leadsBack(Page<Int, TestItem>(items: [], nextKey: 3), from: request))
        #expect(!asked.leadsBack(Page<Int, TestItem>(items: [], nextKey: nil), from: request))
        // The other direction's keys do not count.
        #expect(
            !asked.leadsBack(
                Page<Int, TestItem>(items: [], previousKey: 1), from: .init(.previous(before: 5), count: 1)))
        #expect(
            !asked.leadsBack(Page<Int, TestItem>(items: [], nextKey: 1), from: .init(.initial(1), count: 1)))
        asked.removeAll()
        #expect(!asked.leadsBack(Page<Int, TestItem>(items: [], nextKey: 1), from: request))
    }

    @Test("a key forgotten is gone once forgotten as often as it was remembered")
    func forget() {
        var asked = AskedKeys<Int>()
        let twice = PageRequest<Int>(.next(after: 1), count: 1)
        asked.remember(twice)
        asked.remember(twice)
        asked.remember(PageRequest(.previous(before: 1), count: 1))
        asked.forget(twice)
        #expect(asked.next == [1])
        asked.forget(twice)
        #expect(asked.next.isEmpty && asked.previous == [1])
        // Not remembered, or an initial request: nothing to forget.
        asked.forget(twice)
        asked.forget(PageRequest(.initial(1), count: 1))
        #expect(asked.next.isEmpty && asked.previous == [1])
        asked.remember(twice)
        #expect(asked.next == [1])
    }
}
