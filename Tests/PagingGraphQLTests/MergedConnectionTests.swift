import PagingGraphQL
import Testing

@Suite("Relay merge rules")
struct MergedConnectionTests {
    struct Item: Identifiable, Equatable, Sendable { var id: Int }

    @Test("the rule: after the end cursor appends, before the start cursor prepends, anything else replaces")
    func rules() {
        let held = PageInfo(startCursor: "s", endCursor: "e")
        #expect(ConnectionMergeRule.rule(after: "e", before: nil, held: held) == .append)
        #expect(ConnectionMergeRule.rule(after: nil, before: "s", held: held) == .prepend)
        #expect(ConnectionMergeRule.rule(after: "x", before: nil, held: held) == .replace)
        #expect(ConnectionMergeRule.rule(after: nil, before: nil, held: held) == .replace)
        #expect(ConnectionMergeRule.rule(after: "e", before: nil, held: nil) == .replace)
    }

    @Test("appends, prepends and replaces, keeping each end's page info")
    func merges() {
        var merged = MergedConnection<Item, Int>()
        #expect(
            merged.merge(
                [Item(id: 3), Item(id: 4)],
                pageInfo: PageInfo(
                    hasNextPage: true, hasPreviousPage: true, startCursor: "c3", endCursor: "c4"), after: nil,
                before: nil) == .replace)
        #expect(
            merged.merge(
                [Item(id: 5)],
                pageInfo: PageInfo(
                    hasNextPage: false, hasPreviousPage: true, startCursor: "c5", endCursor: "c5"),
                after: "c4", before: nil) == .append)
        #expect(
            merged.merge(
                [Item(id: 1), Item(id: 2)],
                pageInfo: PageInfo(
                    hasNextPage: true, hasPreviousPage: false, startCursor: "c1", endCursor: "c2"),
                after: nil, before: "c3") == .prepend)
        #expect(merged.nodes.map(\.id) == [1, 2, 3, 4, 5])
        #expect(
            merged.pageInfo
                == PageInfo(hasNextPage: false, hasPreviousPage: false, startCursor: "c1", endCursor: "c5"))
        #expect(
            merged.merge([Item(id: 9)], pageInfo: PageInfo(endCursor: "c9"), after: nil, before: nil)
                == .replace)
        #expect(merged.nodes.map(\.id) == [9])
    }

    @Test("drops nodes whose id is already held, within a page too")
    func deduplicates() {
        var merged = MergedConnection<JSONValue, JSONValue>()
        merged.merge(
            [["id": 1], ["id": 2], ["id": 2]], pageInfo: PageInfo(endCursor: "a"), after: nil, before: nil)
        merged.merge(
            [["id": 2], ["id": 3], ["name": "no id"]], pageInfo: PageInfo(endCursor: "b"), after: "a",
            before: nil)
        #expect(merged.nodes == [["id": 1], ["id": 2], ["id": 3], ["name": "no id"]])
    }
}
