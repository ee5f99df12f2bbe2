import Foundation
import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

/// Lists of a connection with a membership rule take the records the store
/// writes where the rule puts them: in at their place, out when they stop
/// matching, moved when their sort fields move them, with no request.
@Suite("Membership rules", .timeLimit(.minutes(HangLimit.minutes(1))))
struct MembershipRuleTests {
    /// Scores 90, 80, ... 10 (ids 1...9), tags alternating a, b, a, ...
    static func server() -> RankedItemServer {
        RankedItemServer((1...9).map { (score: 100 - 10 * $0, tag: $0 % 2 == 1 ? "a" : "b") })
    }

    static func load(_ pager: Pager<String, RankedItem>, pages: Int) async throws {
        for _ in 0..<pages { #expect(try await pager.loadNext().value == .loaded) }
    }

    @Test(
        "a created item that matches goes in at its place, as one inserted index; one that does not stays out"
    )
    func createdItemLandsInPlace() async throws {
        let server = Self.server()
        let client = server.client()
        let listA = try RankedItemServer.list(client, tag: "a")
        try await Self.load(listA, pages: 1)
        #expect(listA.items.map(\.id) == ["1", "3", "5"])
        let requests = server.requestCount

        let changes = try await listA.changes {
            // id 10, between 1 (90) and 3 (70)
            _ = try await client.send(RankedMutations.create(score: 75, tag: "a"))
        }
        #expect(changes == [ListChange(inserted: [1..<2])])
        #expect(listA.items.map(\.id) == ["1", "10", "3", "5"])
        #expect(listA.items[1] == RankedItem(id: "10", score: 75, tag: "a"))

        _ = try await client.send(RankedMutations.create(score: 85, tag: "b"))
        #expect(listA.items.map(\.id) == ["1", "10", "3", "5"], "a b item is not an a")
        #expect(server.requestCount == requests + 2, "the mutations were the only requests")
    }

    @Test("pages that load keep their items: the rule does not place a page's records again once it is in")
    func pagesKeepTheirItems() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client)
        let changes = Recorder<ListChange>()
        let handler = list.addChangeHandler { changes.record($0.change) }
        defer { list.removeChangeHandler(handler) }
        try await Self.load(list, pages: 3)

        #expect((0..<list.items.pageCount).map { list.items.page(at: $0).items.count } == [3, 3, 3])
        #expect(list.items.map(\.id) == server.ids())
        #expect(
            changes.recorded.filter { !$0.isEmpty }
                == [
                    ListChange(inserted: [0..<3]), ListChange(inserted: [3..<6]),
                    ListChange(inserted: [6..<9]),
                ],
            "each page one insertion; nothing moved after")
    }

    @Test(
        "after a head refresh, where the next page starts is still where the last page stopped, not the head's"
    )
    func headRefreshKeepsTheEndBoundary() async throws {
        let server = RankedItemServer((1...12).map { (score: 200 - 10 * $0, tag: "a") })
        let client = server.client()
        let list = try RankedItemServer.list(client, tag: "a")
        try await Self.load(list, pages: 2)
        _ = try await client.send(RankedMutations.create(score: 195, tag: "a"))  // 13, at the top
        #expect(list.items.map(\.id) == ["13", "1", "2", "3", "4", "5", "6"])
        #expect(try await list.refreshHead().value == .loaded)
        #expect(list.items.map(\.id) == ["13", "1", "2", "3", "4", "5", "6"])

        // The last item changes but stays in place: it stays.
        _ = try await client.send(RankedMutations.set("6", score: 141))
        #expect(list.items.map(\.id) == ["13", "1", "2", "3", "4", "5", "6"])
        // It leaves; one placed between 5 and where the next page starts (6's place as
        // loaded) goes in: that page starts after it.
        _ = try await client.send(RankedMutations.set("6", tag: "b"))
        #expect(list.items.map(\.id) == ["13", "1", "2", "3", "4", "5"])
        _ = try await client.send(RankedMutations.create(score: 145, tag: "a"))  // 14
        #expect(list.items.map(\.id) == ["13", "1", "2", "3", "4", "5", "14"])
        try await Self.load(list, pages: 2)
        #expect(list.items.map(\.id) == server.ids(tag: "a"))
    }

    @Test("changing the tag moves an item out of one list and into the other, in order, one change each")
    func retaggedItemMovesBetweenLists() async throws {
        let server = Self.server()
        let client = server.client()
        let listA = try RankedItemServer.list(client, tag: "a")
        let listB = try RankedItemServer.list(client, tag: "b")
        try await Self.load(listA, pages: 2)
        try await Self.load(listB, pages: 2)
        #expect(listA.items.map(\.id) == ["1", "3", "5", "7", "9"])
        #expect(listB.items.map(\.id) == ["2", "4", "6", "8"])
        let requests = server.requestCount

        let changesA = Recorder<ListChange>()
        let changesB = Recorder<ListChange>()
        let handlerA = listA.addChangeHandler { changesA.record($0.change) }
        let handlerB = listB.addChangeHandler { changesB.record($0.change) }
        defer {
            listA.removeChangeHandler(handlerA)
            listB.removeChangeHandler(handlerB)
        }
        _ = try await client.send(RankedMutations.set("5", tag: "b"))

        #expect(listA.items.map(\.id) == ["1", "3", "7", "9"])
        #expect(listB.items.map(\.id) == ["2", "4", "5", "6", "8"])
        #expect(listB.items[2].tag == "b")
        #expect(changesA.recorded == [ListChange(removed: [2..<3])])
        #expect(changesB.recorded == [ListChange(inserted: [2..<3])])
        #expect(listA.items.map(\.id) == server.ids(tag: "a"))
        #expect(listB.items.map(\.id) == server.ids(tag: "b"))
        #expect(server.requestCount == requests + 1)
    }

    @Test("a new score moves the item to its new place, as one removal and one insertion in one change")
    func rescoredItemMoves() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client)
        try await Self.load(list, pages: 3)
        #expect(list.items.map(\.id) == (1...9).map(String.init))

        let changes = try await list.changes {
            _ = try await client.send(RankedMutations.set("7", score: 65))
        }
        #expect(changes == [ListChange(removed: [6..<7], inserted: [3..<4])])
        #expect(list.items.map(\.id) == ["1", "2", "3", "7", "4", "5", "6", "8", "9"])
        #expect(list.items[3].score == 65)

        let same = try await list.changes {
            _ = try await client.send(RankedMutations.set("7", score: 61))
        }
        #expect(same == [ListChange(updated: [3..<4])], "still between its neighbours: updated in place")
        #expect(list.items.map(\.id) == server.ids())
    }

    @Test("several items moved by one change land in order, in one snapshot, side by side or not")
    func severalItemsMovedByOneChange() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client)
        try await Self.load(list, pages: 3)

        let changes = try await list.changes {
            // 1 and 2 both go between 5 (50) and 6 (40); 9 goes first; 7 stays.
            _ = try await client.send(
                RankedMutations.setMany([
                    ("1", 45, nil), ("2", 48, nil), ("9", 95, nil), ("7", 31, nil),
                ]))
        }
        #expect(changes.count == 1, "one snapshot")
        #expect(list.items.map(\.id) == ["9", "3", "4", "5", "2", "1", "6", "7", "8"])
        #expect(list.items.map(\.id) == server.ids())
        #expect(list.items.first { $0.id == "7" }?.score == 31)

        // Two neighbours that swap places.
        _ = try await client.send(RankedMutations.setMany([("3", 55, nil), ("4", 65, nil)]))
        #expect(list.items.map(\.id) == server.ids())
    }

    @Test("a place beyond the last item held while more pages exist is left to the page that brings it, once")
    func placeBeyondTheEndWaitsForItsPage() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client)
        try await Self.load(list, pages: 1)
        #expect(list.items.map(\.id) == ["1", "2", "3"])

        let changes = try await list.changes {
            _ = try await client.send(RankedMutations.create(score: 45, tag: "a"))  // id 10, after 5 (50)
            _ = try await client.send(RankedMutations.set("2", score: 15))  // item 2 moves beyond the end
        }
        #expect(changes == [ListChange(removed: [1..<2])], "nothing inserted; item 2 goes out")
        #expect(list.items.map(\.id) == ["1", "3"])

        try await Self.load(list, pages: 3)
        #expect(list.items.map(\.id) == server.ids(), "every item once, in order")
        #expect(list.loadStates.next == .endReached)
    }

    @Test(
        "the last item held, moved beyond where the next page starts, goes out and comes back with that page")
    func lastItemMovedOutComesBackWithTheNextPage() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client)
        try await Self.load(list, pages: 1)
        #expect(list.items.map(\.id) == ["1", "2", "3"])

        _ = try await client.send(RankedMutations.set("3", score: 65))  // after item 3's place as loaded (70)
        #expect(list.items.map(\.id) == ["1", "2"])
        try await Self.load(list, pages: 1)
        #expect(list.items.map(\.id) == ["1", "2", "3", "4", "5"])
        try await Self.load(list, pages: 2)
        #expect(list.items.map(\.id) == server.ids())
    }

    @Test(
        "a record created while the next page is in flight, answered before it, is placed once the page is in"
    )
    func recordCreatedWhileAPageIsInFlight() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client)
        try await Self.load(list, pages: 1)
        #expect(list.items.map(\.id) == ["1", "2", "3"])

        server.server.hold { $0.operationName == "Items" }
        let requests = server.requestCount
        let load = list.loadNext()
        await server.server.waitForRequests(requests + 1)  // the page's answer is made: 4, 5, 6
        // Between 3 (70) and 4 (60): in the page's range, which was answered before it existed.
        _ = try await client.send(RankedMutations.create(score: 65, tag: "a"))
        #expect(
            list.items.map(\.id) == ["1", "2", "3"],
            "not after the last item while the page may start before it")
        server.server.release()
        #expect(try await load.value == .loaded)
        #expect(list.items.map(\.id) == ["1", "2", "3", "10", "4", "5", "6"])
        try await Self.load(list, pages: 1)
        #expect(list.items.map(\.id) == server.ids())
    }

    @Test("a record created while a page waits to be taken in lands at its place once it is")
    func recordCreatedWhileAPageWaitsToBeTakenIn() async throws {
        let server = Self.server()
        let client = server.client()
        let gate = FetchGate<PageRequest<String>>()
        let source = ConnectionSource(
            client: client, document: try ConnectionDocument(RankedItemServer.document), as: RankedItem.self)
        let list = Pager(
            source: GatedPageSource(base: source, gate: gate),
            configuration: try PagingConfiguration(pageSize: 3, prefetchDistance: 0))
        let first = list.loadNext()
        await gate.nextArrival().open()
        #expect(try await first.value == .loaded)

        let load = list.loadNext()
        let call = await gate.nextArrival()  // loaded and followed, not taken in
        _ = try await client.send(RankedMutations.create(score: 55, tag: "a"))  // between 4 (60) and 5 (50)
        #expect(list.items.map(\.id) == ["1", "2", "3"])
        call.open()
        #expect(try await load.value == .loaded)
        #expect(list.items.map(\.id) == ["1", "2", "3", "4", "10", "5", "6"])
    }

    @Test("a record created while the list refreshes, answered before it, is placed once the refresh is in")
    func recordCreatedWhileTheListRefreshes() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client, tag: "a")
        try await Self.load(list, pages: 1)
        #expect(list.items.map(\.id) == ["1", "3", "5"])

        server.server.hold { $0.operationName == "Items" }
        let requests = server.requestCount
        let refresh = list.refresh()
        await server.server.waitForRequests(requests + 1)
        _ = try await client.send(RankedMutations.create(score: 85, tag: "a"))
        server.server.release()
        #expect(try await refresh.value == .loaded)
        #expect(list.items.map(\.id) == ["1", "10", "3", "5"])
    }

    @Test("once the end is reached, a record placed after the last item goes in after it")
    func placeAfterTheEndOnceReached() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client, tag: "b", pageSize: 5)
        try await Self.load(list, pages: 1)
        #expect(list.items.map(\.id) == ["2", "4", "6", "8"])
        #expect(list.loadStates.next == .endReached)

        _ = try await client.send(RankedMutations.create(score: 5, tag: "b"))
        #expect(list.items.map(\.id) == ["2", "4", "6", "8", "10"])
        _ = try await client.send(RankedMutations.create(score: 95, tag: "b"))
        #expect(list.items.map(\.id) == ["11", "2", "4", "6", "8", "10"], "the start is reached too")
        #expect(list.items.map(\.id) == server.ids(tag: "b"))
    }

    @Test("when the last item held leaves, a record placed before where the next page starts still goes in")
    func boundaryOfTheLastPageHolds() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client)
        try await Self.load(list, pages: 1)
        #expect(list.items.map(\.id) == ["1", "2", "3"])

        _ = try await client.send(RankedMutations.set("3", score: 5))  // moves beyond the end: out
        #expect(list.items.map(\.id) == ["1", "2"])
        // Between item 2 (80) and where the next page starts (70, item 3's place as loaded).
        _ = try await client.send(RankedMutations.create(score: 75, tag: "c"))
        #expect(list.items.map(\.id) == ["1", "2", "10"])

        try await Self.load(list, pages: 3)
        #expect(list.items.map(\.id) == server.ids())
    }

    @Test(
        "when the last item held is deleted, a record placed before where the next page starts still goes in, and the next page starts there"
    )
    func boundaryOfADeletedItemHolds() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client)
        try await Self.load(list, pages: 1)
        #expect(list.items.map(\.id) == ["1", "2", "3"])

        _ = try await client.send(RankedMutations.delete("3"))
        #expect(list.items.map(\.id) == ["1", "2"])
        // Between item 2 (80) and where the next page starts (70, item 3's place as loaded).
        _ = try await client.send(RankedMutations.create(score: 75, tag: "c"))
        #expect(list.items.map(\.id) == ["1", "2", "10"])

        while list.hasNext { _ = try await list.loadNext().value }
        #expect(list.items.map(\.id) == ["1", "2", "10", "4", "5", "6", "7", "8", "9"])
        #expect(list.items.map(\.id) == server.ids())
    }

    @Test("an empty list whose ends are both reached takes a matching record")
    func emptyListTakesARecord() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client, tag: "c")
        try await Self.load(list, pages: 1)
        #expect(list.items.isEmpty)

        _ = try await client.send(RankedMutations.create(score: 50, tag: "c"))
        #expect(list.items.map(\.id) == ["10"])
    }

    @Test("a sort field the store lacks leaves held records where they are, however many a change reaches")
    func missingSortFieldLeavesRecordsAlone() async throws {
        let server = Self.server()
        // The lists' document does not select `rank`: no record has it.
        let rule = ConnectionMembershipRule(
            connection: RankedItemServer.connection, typename: "Item",
            filter: .field("tag", equalsArgument: "tag"),
            order: [.ascending("rank")])
        let client = server.client(rules: [rule])
        let list = try RankedItemServer.list(client, tag: "a")
        try await Self.load(list, pages: 1)
        #expect(list.items.map(\.id) == ["1", "3", "5"])

        _ = try await client.send(RankedMutations.setMany([("1", 5, nil), ("3", 95, nil)]))
        #expect(list.items.map(\.id) == ["1", "3", "5"], "no order to tell: nothing moves")
        #expect(list.items.map(\.score) == [5, 95, 50], "the rows follow their records")
        _ = try await client.send(RankedMutations.set("3", tag: "b"))
        #expect(list.items.map(\.id) == ["1", "5"], "the filter still holds")
        _ = try await client.send(RankedMutations.create(score: 99, tag: "a"))
        #expect(list.items.map(\.id) == ["1", "5"], "no place to put it")
    }

    @Test("a list sent with an argument its rule does not cover follows no rule")
    func uncoveredArgumentMeansNoRule() async throws {
        let server = Self.server()
        let client = server.client()
        let search = try RankedItemServer.list(client, search: "a")
        try await Self.load(search, pages: 1)
        #expect(search.items.map(\.id) == ["1", "3", "5"])

        _ = try await client.send(RankedMutations.create(score: 85, tag: "zzz"))
        _ = try await client.send(RankedMutations.set("3", tag: "b"))
        #expect(search.items.map(\.id) == ["1", "3", "5"], "no rule: inserts and removals are the server's")
        #expect(search.items[1].tag == "b", "the row still follows its record")
    }

    @Test("the rule naming the most arguments applies; a null argument matches one left out")
    func ruleSelection() {
        let base = ConnectionMembershipRule(connection: "c", typename: "T", order: [.ascending("a")])
        let byOrder = ConnectionMembershipRule(
            connection: "c", typename: "T", arguments: ["orderBy": .null], order: [.ascending("b")])
        let byName = ConnectionMembershipRule(
            connection: "c", typename: "T", arguments: ["orderBy": "NAME"], order: [.ascending("name")])
        let rules = [base, byOrder, byName]
        func chosen(_ arguments: [String: JSONValue]) -> [[String]]? {
            ConnectionMembershipRule.rule(among: rules, for: ["c"], arguments: arguments)?.order.map(\.path)
        }
        #expect(chosen([:]) == [["b"]])
        #expect(chosen(["orderBy": .null]) == [["b"]])
        #expect(chosen(["orderBy": "NAME"]) == [["name"]])
        #expect(
            chosen(["orderBy": "OTHER"]) == nil, "no rule names that order, and the base does not cover it")
        #expect(chosen(["tag": "x"]) == nil)
        #expect(ConnectionMembershipRule.rule(among: rules, for: ["d"], arguments: [:]) == nil)
    }

    @Test("filters compare fields through references; a missing field leaves the record undecided")
    func filterEvaluation() throws {
        let filter = MembershipFilter.allOf([
            .field("isBooked", equalsArgument: "booked"),
            .field("mission", "name", containsArgument: "search"),
            .not(.field("site", equals: "LC-39")),
        ])
        let rule = ConnectionMembershipRule(connection: "c", typename: "Launch", filter: filter, order: [])
        let values: [[String]: JSONValue] = [
            ["__typename"]: "Launch", ["isBooked"]: true, ["mission", "name"]: "Starlink 4",
            ["site"]: "SLC-40",
        ]
        #expect(rule.matches(values, arguments: [:]) == true)
        #expect(rule.matches(values, arguments: ["booked": false]) == false)
        #expect(rule.matches(values, arguments: ["booked": true, "search": "STAR"]) == true)
        #expect(rule.matches(values, arguments: ["search": "crew"]) == false)
        var missing = values
        missing[["mission", "name"]] = nil
        #expect(rule.matches(missing, arguments: ["search": "x"]) == nil)
        #expect(rule.matches(missing, arguments: [:]) == true, "no search: the field is not needed")
        var other = values
        other[["__typename"]] = "Rocket"
        #expect(rule.matches(other, arguments: [:]) == nil)

        let store = GraphQLStore()
        try store.write(
            data: [
                "launch": [
                    "__typename": "Launch", "id": "1", "isBooked": true, "site": "SLC-40",
                    "mission": ["name": "Starlink 4"],
                    "rocket": ["__typename": "Rocket", "id": "f9", "name": "Falcon 9"],
                ]
            ],
            for: StoreOperation(
                document:
                    "{ launch { __typename id isBooked site mission { name } rocket { __typename id name } } }"
            ))
        let read = store.values(
            of: ["Launch:1", "Launch:2"],
            at: [["mission", "name"], ["rocket", "name"], ["isBooked"], ["nope"]])
        #expect(read.count == 2)
        #expect(
            read[0] == [
                ["mission", "name"]: "Starlink 4", ["rocket", "name"]: "Falcon 9", ["isBooked"]: true,
            ])
        #expect(read[1] == nil)
    }

    @Test("sort keys: numbers by value, text by UTF-8 bytes, numeric text by value, null first")
    func sortKeyComparison() {
        let rule = ConnectionMembershipRule(
            connection: "c", typename: "T",
            order: [.descending("name"), .ascending("id", comparison: .numericText)])
        func values(_ name: JSONValue, _ id: String) -> [[String]: JSONValue] {
            [["name"]: name, ["id"]: .string(id)]
        }
        #expect(rule.areInIncreasingOrder(values("b", "1"), values("a", "1")) == true, "descending")
        #expect(rule.areInIncreasingOrder(values("Crew", "1"), values("CRS", "1")) == true, "bytes: r > R")
        #expect(
            rule.areInIncreasingOrder(values("a", "9"), values("a", "10")) == true, "9 before 10 by value")
        #expect(rule.areInIncreasingOrder(values("a", "10"), values("a", "10")) == false)
        #expect(
            rule.areInIncreasingOrder(values(.null, "1"), values("a", "1")) == false, "null last, descending")
        #expect(rule.areInIncreasingOrder([["name"]: "a"], values("a", "1")) == nil, "a missing key")
        let numbers = ConnectionMembershipRule(connection: "c", typename: "T", order: [.ascending("n")])
        #expect(numbers.areInIncreasingOrder([["n"]: 2], [["n"]: 10.5]) == true)
    }

    @Test("a refresh replaces what the rule inserted by the server's list")
    func refreshReplacesRuleInsertedItems() async throws {
        let server = Self.server()
        let client = server.client()
        let list = try RankedItemServer.list(client, tag: "a")
        try await Self.load(list, pages: 1)
        // Another query writes an item the server's list does not have.
        let store = try #require(client.store)
        try store.write(
            data: ["item": ["__typename": "Item", "id": "99", "score": 85, "tag": "a"]],
            for: StoreOperation(document: "{ item { __typename id score tag } }"))
        #expect(list.items.map(\.id) == ["1", "99", "3", "5"])

        #expect(try await list.refresh().value == .loaded)
        #expect(list.items.map(\.id) == ["1", "3", "5"])
    }
}
