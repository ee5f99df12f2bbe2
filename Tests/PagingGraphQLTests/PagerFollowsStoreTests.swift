import Foundation
import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

/// Pagers made over a client with a store follow it: a mutation's answer
/// turns into the engine's local edits of the rows that show what it
/// changed, with no request of their own.
@Suite("Pagers follow the client's store", .timeLimit(.minutes(HangLimit.minutes(1))))
struct PagerFollowsStoreTests {
    static let key = "Fleet_launches"

    /// The fleet's connection, keyed for mutation directives.
    static let document = """
        query Launches($first: Int, $after: String) {
          launchConnection(first: $first, after: $after) @connection(key: "Fleet_launches") {
            edges { node { \(FollowedLaunch.selection) } }
          }
        }
        """

    static func configuration(_ pageSize: Int) throws -> PagingConfiguration {
        try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0)
    }

    /// A typed list of the fleet, loaded `pages` pages of `pageSize` deep.
    static func loadedList(
        _ client: GraphQLClient, pageSize: Int = 3, pages: Int = 2, document: String = document
    ) async throws -> Pager<String, FollowedLaunch> {
        let source = ConnectionSource(
            client: client, document: try ConnectionDocument(document), as: FollowedLaunch.self)
        let pager = source.makePager(configuration: try configuration(pageSize))
        for _ in 0..<pages {
            #expect(try await pager.loadNext().value == .loaded)
        }
        return pager
    }

    static func launch(_ id: String, site: String? = nil, booked: Bool = false, rocketName: String? = nil)
        -> FollowedLaunch
    {
        let odd = (Int(id) ?? 0) % 2 == 1
        return FollowedLaunch(
            id: id, site: site ?? "Site \(id)", isBooked: booked,
            rocket: .init(
                id: odd ? "falcon1" : "falcon9", name: rocketName ?? (odd ? "Falcon 1" : "Falcon 9")))
    }

    static let sixLaunches = (1...6).map { launch(String($0)) }

    // MARK: Updates

    @Test(
        "booking a shown launch updates its row alone, as one updated index, with no request",
        arguments: [1, 2, 3, 4, 5, 6])
    func bookingUpdatesTheRow(number: Int) async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = try await Self.loadedList(client)
        #expect(Array(pager.items) == Self.sixLaunches)
        #expect(fleet.requestCount == 2)

        let changes = try await pager.changes {
            let response = try await client.send(FleetMutations.bookTrips(["\(number)"]))
            #expect(response.storeError == nil)
            #expect(response.data?["bookTrips"]?["success"] == true)
        }

        let index = number - 1
        #expect(changes == [ListChange(updated: [index..<index + 1])])
        #expect(pager.snapshot.change == ListChange(updated: [index..<index + 1]))
        var expected = Self.sixLaunches
        expected[index].isBooked = true
        #expect(Array(pager.items) == expected, "that row shows the booking; every other row is as loaded")
        #expect(fleet.requestCount == 3, "the mutation was the only request: no refetch")
    }

    @Test("a page larger than the rows held before it is followed too")
    func largerLaterPageIsFollowed() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = ConnectionSource(
            client: client, document: try ConnectionDocument(Self.document), as: FollowedLaunch.self
        ).makePager(
            configuration: try PagingConfiguration(pageSize: 5, initialLoadSize: 2, prefetchDistance: 0))
        #expect(try await pager.loadNext().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == ["1", "2", "3", "4", "5", "6", "7"])

        let changes = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["6"]))
        }

        #expect(changes == [ListChange(updated: [5..<6])])
        #expect(pager.items[5] == Self.launch("6", booked: true))
        #expect(fleet.requestCount == 3)
    }

    @Test("a list with a bounded window follows the rows of the page it loaded last")
    func boundedWindowFollowsItsNewestPage() async throws {
        let fleet = LaunchFleet(count: 20)
        let client = fleet.client(store: GraphQLStore())
        let pager = ConnectionSource(
            client: client, document: try ConnectionDocument(Self.document), as: FollowedLaunch.self
        ).makePager(
            configuration: try PagingConfiguration(pageSize: 2, prefetchDistance: 0, maximumHeld: .pages(2)))
        for _ in 0..<6 {
            #expect(try await pager.loadNext().value == .loaded)
        }
        #expect(pager.items.map(\.id) == ["9", "10", "11", "12"], "the window holds the last two pages")

        for (id, index) in [("12", 3), ("10", 1)] {
            let changes = try await pager.changes {
                _ = try await client.send(FleetMutations.bookTrips([id]))
            }
            #expect(changes == [ListChange(updated: [index..<index + 1])], "launch \(id)")
            #expect(pager.items[index] == Self.launch(id, booked: true))
        }
        #expect(fleet.requestCount == 8)
    }

    @Test("a list of JSON nodes updates the booked row to what a fresh load would show, cursor kept")
    func jsonNodesUpdate() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = ConnectionSource(
            client: client, document: try ConnectionDocument(Self.document), idKey: "id"
        )
        .makePager(configuration: try Self.configuration(3))
        #expect(try await pager.loadNext().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        let before = Array(pager.items)
        #expect(before.map(\.id) == ["1", "2", "3", "4", "5", "6"])

        let changes = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["5"]))
        }

        #expect(changes == [ListChange(updated: [4..<5])])
        let row = pager.items[4]
        #expect(row["isBooked"] == true)
        #expect(row["site"] == "Site 5")
        #expect(row.cursor == "cursor:5")
        #expect(row.id == "5")
        #expect(
            row.value == fleet.json(of: "5"),
            "the row holds what the server now sends for the launch, as the rows around it do")
        #expect(
            Set(row.value.objectValue?.keys ?? [:].keys)
                == Set(before[4].value.objectValue?.keys ?? [:].keys),
            "the row has the members it was loaded with")
        for index in [0, 1, 2, 3, 5] {
            #expect(pager.items[index] == before[index])
        }
        #expect(fleet.requestCount == 3)
    }

    @Test("writes that change no shown row publish no snapshot")
    func unrelatedWritesPublishNothing() async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let pager = try await Self.loadedList(client)
        let version = pager.snapshot.version

        // Launch 8 is not shown: the store takes the booking, the list does not move.
        let unshown = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["8"]))
        }
        #expect(unshown == [])
        #expect(store.record(for: "Launch:8")?["isBooked"] == .scalar(true))
        #expect(pager.snapshot.version == version)

        // Launch 5 is shown; booking it twice changes it once.
        _ = try await client.send(FleetMutations.bookTrips(["5"]))
        #expect(pager.snapshot.version == version + 1)
        let again = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["5"]))
        }
        #expect(again == [], "the second answer changed no field")
        #expect(pager.snapshot.version == version + 1)
        #expect(fleet.requestCount == 5)
    }

    @Test("renaming a rocket updates every row on that rocket, and no other, in one change")
    func nestedRecordUpdatesEveryRowShowingIt() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = try await Self.loadedList(client)

        let changes = try await pager.changes {
            _ = try await client.send(FleetMutations.renameRocket("falcon1", to: "Falcon One"))
        }

        #expect(changes == [ListChange(updated: [0..<1, 2..<3, 4..<5])], "one batch edit: one snapshot")
        let expected = (1...6).map { Self.launch(String($0), rocketName: $0 % 2 == 1 ? "Falcon One" : nil) }
        #expect(Array(pager.items) == expected)
        #expect(fleet.requestCount == 3)
    }

    @Test("two lists with different page sizes that show the same launch both update it")
    func twoListsUpdate() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let threes = try await Self.loadedList(client, pageSize: 3, pages: 2)
        let twos = try await Self.loadedList(client, pageSize: 2, pages: 3)
        #expect(twos.items.map(\.id) == ["1", "2", "3", "4", "5", "6"])

        _ = try await client.send(FleetMutations.bookTrips(["4"]))

        #expect(threes.snapshot.change == ListChange(updated: [3..<4]))
        #expect(twos.snapshot.change == ListChange(updated: [3..<4]))
        #expect(threes.items[3] == Self.launch("4", booked: true))
        #expect(twos.items[3] == Self.launch("4", booked: true))
        #expect(fleet.requestCount == 6)
    }

    // MARK: Connection edits

    @Test("@deleteRecord on the mutation's ID removes the row, as one removed index")
    func deleteRecordRemovesTheRow() async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let pager = try await Self.loadedList(client)

        let changes = try await pager.changes {
            let response = try await client.send(FleetMutations.deleteLaunch("4"))
            #expect(response.storeError == nil)
            #expect(response.data?["deleteLaunch"] == "4")
        }

        #expect(changes == [ListChange(removed: [3..<4])])
        #expect(pager.items.map(\.id) == ["1", "2", "3", "5", "6"])
        #expect(store.record(for: "Launch:4") == nil)
        #expect(fleet.requestCount == 3)
    }

    @Test("@appendNode naming the list's key adds the new launch at the end")
    func appendNodeAddsAtTheEnd() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = try await Self.loadedList(client)

        let changes = try await pager.changes {
            _ = try await client.send(
                FleetMutations.addLaunch(
                    site: "Boca Chica", rocketID: "falcon9", directive: "appendNode", connection: Self.key))
        }

        #expect(changes == [ListChange(inserted: [6..<7])])
        #expect(pager.items.map(\.id) == ["1", "2", "3", "4", "5", "6", "10"])
        #expect(pager.items.last == Self.launch("10", site: "Boca Chica"))
        #expect(fleet.requestCount == 3)
    }

    @Test("@prependNode naming the list's key adds the new launch at the start")
    func prependNodeAddsAtTheStart() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = try await Self.loadedList(client)

        let changes = try await pager.changes {
            _ = try await client.send(
                FleetMutations.addLaunch(
                    site: "Boca Chica", rocketID: "falcon9", directive: "prependNode", connection: Self.key))
        }

        #expect(changes == [ListChange(inserted: [0..<1])])
        #expect(pager.items.map(\.id) == ["10", "1", "2", "3", "4", "5", "6"])
        #expect(pager.items.first == Self.launch("10", site: "Boca Chica"))
        #expect(fleet.requestCount == 3)
    }

    @Test("a launch added by a mutation is followed like a loaded one")
    func addedRowIsFollowed() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = try await Self.loadedList(client)
        _ = try await client.send(
            FleetMutations.addLaunch(
                site: "Boca Chica", rocketID: "falcon9", directive: "prependNode", connection: Self.key))

        _ = try await client.send(FleetMutations.bookTrips(["10"]))
        #expect(pager.snapshot.change == ListChange(updated: [0..<1]))
        #expect(pager.items.first == Self.launch("10", site: "Boca Chica", booked: true))

        _ = try await client.send(FleetMutations.deleteLaunch("10"))
        #expect(pager.snapshot.change == ListChange(removed: [0..<1]))
        #expect(Array(pager.items) == Self.sixLaunches)
    }

    @Test("@deleteEdge naming the list's key removes the row and keeps the record")
    func deleteEdgeRemovesTheRow() async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let pager = try await Self.loadedList(client)

        let changes = try await pager.changes {
            _ = try await client.send(FleetMutations.hideLaunch("5", from: Self.key))
        }

        #expect(changes == [ListChange(removed: [4..<5])])
        #expect(pager.items.map(\.id) == ["1", "2", "3", "4", "6"])
        #expect(store.record(for: "Launch:5")?["site"] == .scalar("Site 5"))
        #expect(fleet.requestCount == 3)
    }

    @Test("edits naming another connection leave the list alone")
    func editsOfAnotherConnection() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = try await Self.loadedList(client)

        let changes = try await pager.changes {
            _ = try await client.send(
                FleetMutations.addLaunch(
                    site: "Boca Chica", rocketID: "falcon9", directive: "appendNode",
                    connection: "Other_launches"))
            _ = try await client.send(
                FleetMutations.addLaunch(
                    site: "Wallops", rocketID: "falcon1", directive: "prependNode",
                    connection: "Other_launches"))
            _ = try await client.send(FleetMutations.hideLaunch("2", from: "Other_launches"))
        }

        #expect(changes == [])
        #expect(Array(pager.items) == Self.sixLaunches)
        #expect(fleet.requestCount == 5)
    }

    @Test("a list whose @connection has no key takes edits that name its field")
    func keylessConnectionTakesItsFieldName() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = try await Self.loadedList(
            client,
            document: """
                query Launches($first: Int, $after: String) {
                  launchConnection(first: $first, after: $after) @connection {
                    edges { node { \(FollowedLaunch.selection) } }
                  }
                }
                """)

        _ = try await client.send(
            FleetMutations.addLaunch(
                site: "Boca Chica", rocketID: "falcon9", directive: "appendNode",
                connection: "launchConnection"))
        #expect(pager.snapshot.change == ListChange(inserted: [6..<7]))
        _ = try await client.send(FleetMutations.hideLaunch("5", from: "launchConnection"))
        #expect(pager.snapshot.change == ListChange(removed: [4..<5]))
        #expect(pager.items.map(\.id) == ["1", "2", "3", "4", "6", "10"])
    }

    // MARK: Other pagers

    typealias LaunchQueryPager = GraphQLQuerySource<
        FleetPageQuery, FleetPageQuery, CursorBasedPagination.Forward, FollowedLaunch
    >

    static func queryPager(_ client: GraphQLClient, pageSize: Int = 3) -> LaunchQueryPager {
        GraphQLQuerySource(
            client: client,
            initialQuery: FleetPageQuery(first: pageSize, after: nil),
            extractPageInfo: { data in
                CursorBasedPagination.Forward(
                    hasNext: data.launchConnection.pageInfo.hasNextPage,
                    endCursor: data.launchConnection.pageInfo.endCursor)
            },
            pageResolver: { page, direction in
                direction == .next ? FleetPageQuery(first: pageSize, after: page.endCursor) : nil
            },
            transform: { data in Array(data.launchConnection) })
    }

    /// The fleet's launches by pages of three, each page one item (a `QueryPage`, identified
    /// by the request that loaded it).
    static func wholePages(_ client: GraphQLClient) -> GraphQLQuerySource<
        FleetPageQuery, FleetPageQuery, CursorBasedPagination.Forward,
        QueryPage<FleetPageQuery, FleetPageQuery, CursorBasedPagination.Forward>
    > {
        GraphQLQuerySource(
            client: client,
            initialQuery: FleetPageQuery(first: 3, after: nil),
            extractPageInfo: { data in
                CursorBasedPagination.Forward(
                    hasNext: data.launchConnection.pageInfo.hasNextPage,
                    endCursor: data.launchConnection.pageInfo.endCursor)
            },
            pageResolver: { page, direction in
                direction == .next ? FleetPageQuery(first: 3, after: page.endCursor) : nil
            })
    }

    @Test("a GraphQLQuerySource over a store updates a booked row in place, on either page, with no request")
    func queryPagerUpdates() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = Self.queryPager(client).makePager()
        #expect(try await pager.loadNext().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(Array(pager.items) == Self.sixLaunches)

        let second = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["5"]))
        }
        #expect(second == [ListChange(updated: [4..<5])], "a row of the second page")

        let first = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["2"]))
        }
        #expect(first == [ListChange(updated: [1..<2])], "a row of the first page")

        var expected = Self.sixLaunches
        expected[1].isBooked = true
        expected[4].isBooked = true
        #expect(Array(pager.items) == expected)
        #expect(fleet.requestCount == 4)
    }

    @Test("a GraphQLQuerySource of whole pages publishes nothing for a write no page read")
    func queryPagerIgnoresUnrelatedRootFields() async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let pages = Self.wholePages(client).makePager()
        #expect(try await pages.loadNext().value == .loaded)
        #expect(try await pages.loadNext().value == .loaded)
        #expect(pages.items.count == 2)
        let version = pages.snapshot.version

        // A detail query of a launch no page shows: a new field of QUERY_ROOT, a new record.
        try store.write(
            data: ["launch": ["__typename": "Launch", "id": "9", "site": "Site 9", "isBooked": false]],
            for: StoreOperation(
                document: "query Launch($id: ID!) { launch(id: $id) { __typename id site isBooked } }",
                variables: ["id": "9"]))

        #expect(pages.snapshot.version == version, "no page read launch(id: \"9\") or Launch:9")

        // A change to a launch the second page read updates that page, and only it.
        _ = try await client.send(FleetMutations.bookTrips(["5"]))
        #expect(pages.snapshot.change == ListChange(updated: [1..<2]))
        #expect(pages.snapshot.version == version + 1)
        #expect(pages.items[1].value.launchConnection.map(\.isBooked) == [false, true, false])
    }

    static let fragmentDocument = """
        fragment LaunchList_user on User
          @refetchable(queryName: "LaunchListPaginationQuery")
          @argumentDefinitions(count: { type: "Int", defaultValue: 3 }, cursor: { type: "String" }) {
          trips(first: $count, after: $cursor) @connection(key: "LaunchList_trips") {
            edges { node { id ...LaunchRow_launch } }
          }
        }
        fragment LaunchRow_launch on Launch { site isBooked rocket { id name } }
        """

    @Test("a PaginationFragment's list updates a booked row and takes edits naming its connection")
    @MainActor
    func paginationFragmentFollows() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let list = try PaginationFragment(
            try PaginationFragmentDocument(Self.fragmentDocument), nodeID: "u1", client: client,
            as: FollowedLaunch.self
        ).makeList()
        #expect(try await list.loadNext(count: 3).value == .loaded)
        #expect(try await list.loadNext(count: 3).value == .loaded)
        await list.waitUntilCaughtUp()
        #expect(Array(list.items) == Self.sixLaunches)

        let changes = try await list.pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["5"]))
        }
        #expect(changes == [ListChange(updated: [4..<5])])
        await list.waitUntilCaughtUp()
        #expect(list.lastChange == ListChange(updated: [4..<5]))
        #expect(list.items[4] == Self.launch("5", booked: true))

        _ = try await client.send(FleetMutations.renameRocket("falcon9", to: "Falcon Nine"))
        await list.waitUntilCaughtUp()
        #expect(
            list.items.filter { $0.rocket.id == "falcon9" }.map(\.rocket.name)
                == Array(repeating: "Falcon Nine", count: 3))

        _ = try await client.send(
            FleetMutations.addLaunch(
                site: "Boca Chica", rocketID: "falcon9", directive: "appendNode",
                connection: "LaunchList_trips"))
        await list.waitUntilCaughtUp()
        #expect(list.lastChange == ListChange(inserted: [6..<7]))
        #expect(list.items.last == Self.launch("10", site: "Boca Chica", rocketName: "Falcon Nine"))
        #expect(fleet.requestCount == 5)
    }

    // MARK: However the pager is made

    /// How a test makes its pager over a store-backed source.
    enum Making: CaseIterable, Sendable, CustomTestStringConvertible {
        /// `Pager(source:)`, on the concrete source.
        case initializer
        /// `makePager()` in code that knows only a `some PageSource`.
        case genericCode

        var testDescription: String {
            switch self {
            case .initializer: "Pager(source:)"
            case .genericCode: "makePager() in generic code over some PageSource"
            }
        }
    }

    /// A pager made by code that knows only that its source is a page
    /// source, as a helper of an app's would be.
    static func pagerInGenericCode<Key, Item>(
        _ source: some PageSource<Key, Item>, configuration: PagingConfiguration
    ) -> Pager<Key, Item> {
        source.makePager(configuration: configuration)
    }

    /// A pager of pages of three over a source, made one way or the other.
    static func pager<Source: PageSource>(over source: Source, made making: Making) throws -> Pager<
        Source.Key, Source.Item
    > where Source.Item: Identifiable, Source.Item.ID: Sendable {
        let configuration = try Self.configuration(3)
        return switch making {
        case .initializer: Pager(source: source, configuration: configuration)
        case .genericCode: Self.pagerInGenericCode(source, configuration: configuration)
        }
    }

    /// Loads two pages of three, books launch 5, and checks that its row,
    /// and only it, shows the booking.
    static func expectBookingUpdatesTheRow<Key>(
        _ pager: Pager<Key, FollowedLaunch>, client: GraphQLClient, fleet: LaunchFleet
    ) async throws {
        #expect(try await pager.loadNext().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(Array(pager.items) == Self.sixLaunches)

        let changes = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["5"]))
        }

        #expect(changes == [ListChange(updated: [4..<5])])
        var expected = Self.sixLaunches
        expected[4].isBooked = true
        #expect(Array(pager.items) == expected)
        #expect(fleet.requestCount == 3, "the mutation was the only request: no refetch")
    }

    @Test("a pager over a ConnectionSource follows the store however it is made", arguments: Making.allCases)
    func connectionSourceFollowsHoweverMade(making: Making) async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let source = ConnectionSource(
            client: client, document: try ConnectionDocument(Self.document), as: FollowedLaunch.self)
        let pager = try Self.pager(over: source, made: making)
        try await Self.expectBookingUpdatesTheRow(pager, client: client, fleet: fleet)
    }

    @Test(
        "a pager over a PaginationFragment follows the store however it is made", arguments: Making.allCases)
    func paginationFragmentFollowsHoweverMade(making: Making) async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let fragment = try PaginationFragment(
            try PaginationFragmentDocument(Self.fragmentDocument), nodeID: "u1", client: client,
            as: FollowedLaunch.self)
        let pager = try Self.pager(over: fragment, made: making)
        try await Self.expectBookingUpdatesTheRow(pager, client: client, fleet: fleet)
    }

    @Test(
        "a pager over a GraphQLQuerySource follows the store however it is made", arguments: Making.allCases)
    func queryPagerFollowsHoweverMade(making: Making) async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let source = Self.queryPager(client)
        let pager = try Self.pager(over: source, made: making)
        try await Self.expectBookingUpdatesTheRow(pager, client: client, fleet: fleet)
    }

    // MARK: Loads at both ends

    /// The fleet's connection paged both ways, keyed for mutation directives.
    static let bothWaysDocument = """
        query Launches($first: Int, $after: String, $last: Int, $before: String) {
          launchConnection(first: $first, after: $after, last: $last, before: $before)
            @connection(key: "Fleet_launches") {
            edges { node { \(FollowedLaunch.selection) } }
          }
        }
        """

    /// Opens a list of eleven launches at launch 6 alone, then loads the
    /// five launches after it and the five before it at once, each page held
    /// between its source learning it and the pager taking it in, so that
    /// the page before is learned (and the follower sweeps) while the page
    /// after waits; then books a launch of each page.
    static func expectBothPagesFollow<Source: PageSource>(
        _ source: Source, initialKey: Source.Key?, client: GraphQLClient
    ) async throws where Source.Item == FollowedLaunch {
        let hold = PageHold(holding: [.next, .previous])
        let pager = Pager(
            source: HeldPageSource(base: source, hold: hold), initialKey: initialKey,
            configuration: try PagingConfiguration(pageSize: 5, initialLoadSize: 1, prefetchDistance: 0))
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == ["6"])

        let next = pager.loadNext()
        await hold.waitForPage(.next)
        let previous = pager.loadPrevious()
        await hold.waitForPage(.previous)
        #expect(pager.isLoadingNext && pager.isLoadingPrevious)
        hold.release(.next)
        #expect(try await next.value == .loaded)
        hold.release(.previous)
        #expect(try await previous.value == .loaded)
        try #require(pager.items.map(\.id) == (1...11).map(String.init))

        _ = try await client.send(FleetMutations.bookTrips(["3", "9"]))

        #expect(pager.items[2] == Self.launch("3", booked: true), "a row of the page loaded before")
        #expect(pager.items[8] == Self.launch("9", booked: true), "a row of the page loaded after")
    }

    @Test("with loads in flight at both ends, the rows of both pages of a ConnectionSource follow the store")
    func connectionSourceFollowsBothPendingPages() async throws {
        let fleet = LaunchFleet(count: 11)
        let client = fleet.client(store: GraphQLStore())
        let source = ConnectionSource(
            client: client, document: try ConnectionDocument(Self.bothWaysDocument), as: FollowedLaunch.self)
        try await Self.expectBothPagesFollow(source, initialKey: "cursor:5", client: client)
    }

    @Test(
        "with loads in flight at both ends, the rows of both pages of a GraphQLQuerySource follow the store")
    func queryPagerFollowsBothPendingPages() async throws {
        let fleet = LaunchFleet(count: 11)
        let client = fleet.client(store: GraphQLStore())
        let source = GraphQLQuerySource(
            client: client,
            initialQuery: FleetWindowQuery(first: 1, after: "cursor:5"),
            extractPageInfo: { data in
                let info = data.launchConnection.pageInfo
                return CursorBasedPagination.Bidirectional(
                    hasNext: info.hasNextPage, endCursor: info.endCursor,
                    hasPrevious: info.hasPreviousPage, startCursor: info.startCursor)
            },
            pageResolver: { page, direction in
                switch direction {
                case .next: page.endCursor.map { FleetWindowQuery(first: 5, after: $0) }
                case .previous: page.startCursor.map { FleetWindowQuery(last: 5, before: $0) }
                }
            },
            transform: { data in Array(data.launchConnection) })
        try await Self.expectBothPagesFollow(source, initialKey: nil, client: client)
    }

    // MARK: Across a refresh

    /// Loads two pages of three through a gate, refreshes with the gate
    /// closed so that the refresh's first page (launches 1...3) is learned
    /// from its response but not taken in, and books launch 2: its row on
    /// screen shows the booking at once, as one update, while the refresh
    /// goes on. Opens the gate: the refreshed rows, whose page was read
    /// before the booking, show it too. Then books launch 3: the row the
    /// refresh swapped in shows it.
    static func expectFollowsAcrossRefresh<Source: PageSource>(
        _ source: Source, policy: PagingConfiguration.RefreshPolicy, client: GraphQLClient,
        fleet: LaunchFleet
    ) async throws where Source.Item == FollowedLaunch {
        let gate = FetchGate<PageRequest<Source.Key>>()
        let pager = Pager(
            source: GatedPageSource(base: source, gate: gate),
            configuration: try PagingConfiguration(pageSize: 3, prefetchDistance: 0, refreshPolicy: policy))
        for _ in 0..<2 {
            let load = pager.loadNext()
            await gate.nextArrival().open()
            #expect(try await load.value == .loaded)
        }
        try #require(Array(pager.items) == Self.sixLaunches)

        let refresh = pager.refresh()
        let held = await gate.nextArrival()
        #expect(pager.loadStates.refresh == .loading)
        let during = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["2"]))
        }
        #expect(during == [ListChange(updated: [1..<2])], "the row on screen, while the refresh is in flight")
        #expect(pager.items[1] == Self.launch("2", booked: true))
        #expect(pager.loadStates.refresh == .loading, "the refresh goes on")

        held.open()
        // A refetch asks for the second page after the first, read after the booking.
        if policy == .refetchLoadedPages { await gate.nextArrival().open() }
        #expect(try await refresh.value == .loaded)
        let shown = policy == .restart ? 3 : 6
        #expect(pager.items.count == shown)
        #expect(
            pager.items[1] == Self.launch("2", booked: true),
            "the refreshed row was read before the booking, and shows it all the same")
        #expect(Array(pager.items) == (1...shown).map { fleet.launch(String($0)) })

        let after = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["3"]))
        }
        #expect(after == [ListChange(updated: [2..<3])], "a row the refresh swapped in")
        #expect(pager.items[2] == Self.launch("3", booked: true))
        #expect(Array(pager.items) == (1...shown).map { fleet.launch(String($0)) })
    }

    /// The two ways a follower tracks a list, and the source of each.
    enum Strategy: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case byRecord = "by record (ConnectionSource)"
        case byPage = "by page (GraphQLQuerySource)"

        var testDescription: String { rawValue }
    }

    /// The fleet's connection as a typed ConnectionSource.
    static func connectionSource(_ client: GraphQLClient) throws -> ConnectionSource<FollowedLaunch> {
        ConnectionSource(
            client: client, document: try ConnectionDocument(Self.document), as: FollowedLaunch.self)
    }

    @Test(
        "rows follow the store while a refresh is in flight, and after it swapped in",
        arguments: Strategy.allCases, [PagingConfiguration.RefreshPolicy.restart, .refetchLoadedPages])
    func followsAcrossRefresh(strategy: Strategy, policy: PagingConfiguration.RefreshPolicy) async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        switch strategy {
        case .byRecord:
            try await Self.expectFollowsAcrossRefresh(
                try Self.connectionSource(client), policy: policy, client: client, fleet: fleet)
        case .byPage:
            try await Self.expectFollowsAcrossRefresh(
                Self.queryPager(client), policy: policy, client: client, fleet: fleet)
        }
    }

    /// Loads a page of three, then refreshes it while the server has booked
    /// launch 1 behind the store's back: the refresh's response changes the
    /// store, and a write that an observer makes as it hears that change
    /// (setting launch 2's site) lands after the response was written and
    /// before the follower learns the page. The row the refresh swaps in
    /// shows it all the same.
    static func expectChangeBeforeLearningFollows<Source: PageSource>(
        _ source: Source, client: GraphQLClient, store: GraphQLStore, fleet: LaunchFleet
    ) async throws where Source.Item == FollowedLaunch {
        let pager = Pager(source: source, configuration: try Self.configuration(3))
        #expect(try await pager.loadNext().value == .loaded)
        let storeless = GraphQLClient(endpoint: testEndpoint, transport: fleet.server)
        _ = try await storeless.send(FleetMutations.bookTrips(["1"]))
        let written = Recorder<StoreChange>()
        let observation = store.observe { change in
            guard change.records.contains("Launch:1"), written.recorded.isEmpty else { return }
            written.record(
                (try? Self.setSite("2", to: "Vandenberg", in: store)) ?? StoreChange())
        }
        defer { observation.cancel() }

        #expect(try await pager.refresh().value == .loaded)

        #expect(written.recorded.count == 1, "the write landed while the refresh loaded")
        #expect(pager.items[0] == Self.launch("1", booked: true))
        #expect(pager.items[1] == Self.launch("2", site: "Vandenberg"), "the page was read before the write")
        #expect(pager.items[2] == Self.launch("3"))
    }

    /// Writes a launch's site to the store, as a mutation's answer would.
    @discardableResult
    static func setSite(_ id: String, to site: String, in store: GraphQLStore) throws -> StoreChange {
        try store.write(
            data: ["setSite": ["__typename": "Launch", "id": .string(id), "site": .string(site)]],
            for: StoreOperation(
                document:
                    "mutation SetSite($id: ID!, $site: String!) { setSite(id: $id, site: $site) { __typename id site } }",
                variables: ["id": .string(id), "site": .string(site)]))
    }

    @Test(
        "a refreshed page follows a write that lands between its response and its learning",
        arguments: Strategy.allCases)
    func followsWriteBeforeLearning(strategy: Strategy) async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        switch strategy {
        case .byRecord:
            try await Self.expectChangeBeforeLearningFollows(
                try Self.connectionSource(client), client: client, store: store, fleet: fleet)
        case .byPage:
            try await Self.expectChangeBeforeLearningFollows(
                Self.queryPager(client), client: client, store: store, fleet: fleet)
        }
    }

    // MARK: Taken out while a page waits

    /// How a test takes a launch out of the store or of the list.
    enum Removal: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case deleteRecordMutation = "a mutation with @deleteRecord"
        case storeDelete = "GraphQLStore.delete"
        case deleteEdgeMutation = "a mutation with @deleteEdge"

        var testDescription: String { rawValue }

        func remove(_ id: String, client: GraphQLClient, store: GraphQLStore) async throws {
            switch self {
            case .deleteRecordMutation: _ = try await client.send(FleetMutations.deleteLaunch(id))
            case .storeDelete: store.delete(record: CacheKey("Launch:\(id)"))
            case .deleteEdgeMutation: _ = try await client.send(FleetMutations.hideLaunch(id, from: Self.key))
            }
        }

        static let key = PagerFollowsStoreTests.key
    }

    @Test(
        "a launch taken out while the page that shows it waits to be taken in is not shown when it lands",
        arguments: Removal.allCases, [1, 2])
    func removedWhilePageWaits(removal: Removal, page: Int) async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let gate = FetchGate<PageRequest<String>>()
        let pager = Pager(
            source: GatedPageSource(base: try Self.connectionSource(client), gate: gate),
            configuration: try Self.configuration(3))
        if page == 2 {
            let first = pager.loadNext()
            await gate.nextArrival().open()
            #expect(try await first.value == .loaded)
        }
        let load = pager.loadNext()
        let held = await gate.nextArrival()  // learned by the follower, not taken in
        let removed = String(3 * page - 1)  // the middle launch of the page
        try await removal.remove(removed, client: client, store: store)
        held.open()
        #expect(try await load.value == .loaded)

        let expected = (1...(3 * page)).map(String.init).filter { $0 != removed }
        #expect(pager.items.map(\.id) == expected, "launch \(removed) is not shown")
        // The rows that landed follow the store as any other.
        let booked = String(3 * page)
        let booking = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips([booked]))
        }
        #expect(booking == [ListChange(updated: [(expected.count - 1)..<expected.count])])
        #expect(pager.items.last == Self.launch(booked, booked: true))
    }

    @Test(
        "a launch deleted while its page is in flight, the server having answered before the deletion, stays deleted and is not shown when the page lands",
        arguments: [Removal.deleteRecordMutation, .storeDelete])
    func deletedAfterItsPageWasAnswered(removal: Removal) async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let pager = Pager(source: try Self.connectionSource(client), configuration: try Self.configuration(3))
        #expect(try await pager.loadNext().value == .loaded)
        // The page's answer is made when its request arrives (launches 4...6), and held on its way.
        fleet.server.hold { $0.operationName != "DeleteLaunch" }
        let requests = fleet.server.received.count
        let load = pager.loadNext()
        await fleet.server.waitForRequests(requests + 1)
        try await removal.remove("5", client: client, store: store)
        fleet.server.release()
        #expect(try await load.value == .loaded)

        #expect(store.record(for: "Launch:5") == nil, "the page's write did not bring the record back")
        #expect(pager.items.map(\.id) == ["1", "2", "3", "4", "6"], "launch 5 is not shown")
        // The rows that landed follow the store as any other.
        let booking = try await pager.changes { _ = try await client.send(FleetMutations.bookTrips(["6"])) }
        #expect(booking == [ListChange(updated: [4..<5])])
    }

    @Test(
        "a launch taken out while a refetching refresh is in flight is removed at once and stays out when it swaps in",
        arguments: Removal.allCases)
    func removedDuringRefetch(removal: Removal) async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let gate = FetchGate<PageRequest<String>>()
        let pager = Pager(
            source: GatedPageSource(base: try Self.connectionSource(client), gate: gate),
            configuration: try PagingConfiguration(
                pageSize: 3, prefetchDistance: 0, refreshPolicy: .refetchLoadedPages))
        for _ in 0..<2 {
            let load = pager.loadNext()
            await gate.nextArrival().open()
            #expect(try await load.value == .loaded)
        }

        let refresh = pager.refresh()
        let firstPage = await gate.nextArrival()  // launches 1...3, learned, not taken in
        let during = try await pager.changes { try await removal.remove("2", client: client, store: store) }
        #expect(during == [ListChange(removed: [1..<2])], "the row on screen goes at once")
        firstPage.open()
        await gate.nextArrival().open()  // launches 4...6, read after the removal
        #expect(try await refresh.value == .loaded)

        #expect(
            pager.items.map(\.id) == ["1", "3", "4", "5", "6"], "the refreshed page brings launch 2 back")
        let booking = try await pager.changes { _ = try await client.send(FleetMutations.bookTrips(["3"])) }
        #expect(booking == [ListChange(updated: [1..<2])])
    }

    @Test("items that cannot be compared get no update of their own when a page loads or a refresh swaps in")
    func incomparableItemsOnlyFollowChanges() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = ConnectionSource(
            client: client, document: try ConnectionDocument(Self.document), as: OpaqueLaunch.self
        ).makePager(configuration: try Self.configuration(3))
        #expect(try await pager.loadNext().value == .loaded)

        let loading = try await pager.changes { _ = try await pager.loadNext().value }
        #expect(loading.filter { !$0.isEmpty } == [ListChange(inserted: [3..<6])])
        let refreshing = try await pager.changes { _ = try await pager.refresh().value }
        #expect(refreshing.filter { !$0.isEmpty } == [ListChange(removed: [0..<6], inserted: [0..<3])])
        let booking = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["2"]))
        }
        #expect(booking == [ListChange(updated: [1..<2])])
        #expect(pager.items.map(\.isBooked) == [false, true, false])
    }

    // MARK: One batch per change

    @Test("one store change that edits a row, adds a launch and takes one out is one snapshot")
    func mixedChangeIsOneSnapshot() async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let pager = try await Self.loadedList(client)
        let mutation = """
            mutation Mixed {
              setSite(id: "2", site: "Wallops") { __typename id site }
              addLaunch(site: "Boca Chica", rocketId: "falcon9") @appendNode(connections: ["\(Self.key)"]) {
                __typename \(FollowedLaunch.selection)
              }
              hideLaunch(id: "5") @deleteEdge(connections: ["\(Self.key)"], typename: "Launch")
            }
            """

        let changes = try await pager.changes {
            try store.write(
                data: [
                    "setSite": ["__typename": "Launch", "id": "2", "site": "Wallops"],
                    "addLaunch": [
                        "__typename": "Launch", "id": "10", "site": "Boca Chica", "isBooked": false,
                        "rocket": ["__typename": "Rocket", "id": "falcon9", "name": "Falcon 9"],
                    ],
                    "hideLaunch": "5",
                ],
                for: StoreOperation(document: mutation))
        }

        #expect(changes == [ListChange(removed: [4..<5], inserted: [5..<6], updated: [1..<2])])
        #expect(pager.items.map(\.id) == ["1", "2", "3", "4", "6", "10"])
        #expect(pager.items[1] == Self.launch("2", site: "Wallops"))
        #expect(pager.items[5] == Self.launch("10", site: "Boca Chica"))
        #expect(fleet.requestCount == 2)
    }

    @Test(
        "writes from many tasks at once, while pages load and the list refreshes, leave each row as the store holds it",
        arguments: Strategy.allCases)
    func concurrentWritesConverge(strategy: Strategy) async throws {
        let seed = SeededGenerator.testSeed()
        print("PagerFollowsStoreTests.concurrentWritesConverge seed \(seed) (PAGING_SEED=\(seed) replays it)")
        let fleet = LaunchFleet(count: 30)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let configuration = try PagingConfiguration(
            pageSize: 3, prefetchDistance: 0, refreshPolicy: .refetchLoadedPages)
        switch strategy {
        case .byRecord:
            try await Self.expectConcurrentWritesConverge(
                try Self.connectionSource(client).makePager(configuration: configuration), store: store,
                seed: seed)
        case .byPage:
            try await Self.expectConcurrentWritesConverge(
                Self.queryPager(client).makePager(configuration: configuration), store: store, seed: seed)
        }
    }

    /// Loads a first page, then runs four writers of launch sites (each
    /// write a store change) and a loader that loads pages and refreshes,
    /// all at once; then checks that each row is what the store holds.
    static func expectConcurrentWritesConverge<Key>(
        _ pager: Pager<Key, FollowedLaunch>, store: GraphQLStore, seed: UInt64
    ) async throws {
        #expect(try await pager.loadNext().value == .loaded)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    var random = SeededGenerator(seed: seed &+ UInt64(writer))
                    for step in 0..<25 {
                        let id = String(Int.random(in: 1...15, using: &random))
                        try Self.setSite(id, to: "Site \(id) by \(writer) at \(step)", in: store)
                        await Task.yield()
                    }
                }
            }
            group.addTask {
                for round in 0..<5 {
                    _ = try await (round % 2 == 0 ? pager.loadNext() : pager.refresh()).value
                }
            }
            try await group.waitForAll()
        }
        try Self.expectRowsMatchStore(Array(pager.items), store: store, seed: seed)
    }

    /// Checks that each row is what the store holds for its launch.
    static func expectRowsMatchStore(_ rows: [FollowedLaunch], store: GraphQLStore, seed: UInt64) throws {
        let row = try StoreFragment(document: "fragment Row on Launch { \(FollowedLaunch.selection) }")
        #expect(!rows.isEmpty)
        for item in rows {
            let stored = try store.read(row, at: CacheKey("Launch:\(item.id)")).data.map {
                try $0.decode(FollowedLaunch.self)
            }
            #expect(stored == item, "seed \(seed): row \(item.id)")
        }
    }

    // MARK: Lifetime and memory

    @Test(
        "the follower goes with its pager: its observer is removed, its records released, and later writes are safe"
    )
    func followerDiesWithThePager() async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        #expect(store.state.withLock { $0.observers.count } == 0)

        weak var released: Pager<String, FollowedLaunch>?
        do {
            let pager = try await Self.loadedList(client)
            released = pager
            #expect(released != nil)
            #expect(store.state.withLock { $0.observers.count } == 1)
            #expect(!store.state.withLock { $0.retainedKeys.isEmpty })
        }

        #expect(released == nil, "nothing but the caller held the pager")
        #expect(store.state.withLock { $0.observers.count } == 0)
        #expect(store.state.withLock { $0.retainedKeys.isEmpty && $0.retainedQueries.isEmpty })

        let response = try await client.send(FleetMutations.bookTrips(["2"]))
        #expect(response.storeError == nil)
        #expect(store.record(for: "Launch:2")?["isBooked"] == .scalar(true))
        let collected = store.gc()
        #expect(collected.removedRecords.contains("Launch:2"), "no list keeps the launches any more")
    }

    @Test("a GraphQLQuerySource's follower goes with its pager too")
    func queryPagerFollowerDiesWithThePager() async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)

        weak var released: Pager<CursorBasedPagination.Forward, FollowedLaunch>?
        do {
            let pager = Self.queryPager(client).makePager()
            #expect(try await pager.loadNext().value == .loaded)
            released = pager
            #expect(store.state.withLock { $0.observers.count } == 1)
        }

        #expect(released == nil)
        #expect(store.state.withLock { $0.observers.count } == 0)
        #expect(store.state.withLock { $0.retainedQueries.isEmpty })
        _ = try await client.send(FleetMutations.bookTrips(["2"]))
    }

    @Test("a garbage collection while a list lives keeps the record of every row it shows")
    func gcKeepsShownRows() async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let pager = try await Self.loadedList(client)
        // A launch no list shows, which the collection may take.
        _ = try await client.send(FleetMutations.bookTrips(["8"]))

        let collected = store.gc()

        let shown: Set<CacheKey> = Set((1...6).map { CacheKey("Launch:\($0)") })
        #expect(collected.removedRecords.intersection(shown).isEmpty)
        #expect(collected.removedRecords.contains("Launch:8"))
        #expect(Array(pager.items) == Self.sixLaunches)
        // And the rows still follow the store.
        _ = try await client.send(FleetMutations.bookTrips(["1"]))
        #expect(pager.snapshot.change == ListChange(updated: [0..<1]))
        #expect(pager.items[0] == Self.launch("1", booked: true))
    }

    // MARK: Randomized

    @Test("randomized: after every load and write, each row equals the store's record of its launch")
    func randomizedFollowing() async throws {
        let seed = SeededGenerator.testSeed()
        print("PagerFollowsStoreTests.randomizedFollowing seed \(seed) (PAGING_SEED=\(seed) replays it)")
        var random = SeededGenerator(seed: seed)
        let count = 24
        let fleet = LaunchFleet(count: count)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let pageSize = Int.random(in: 1...5, using: &random)
        let initialLoadSize = Int.random(in: 1...6, using: &random)
        // Half the runs hold a bounded window, which drops far pages as new ones load.
        let window: PagingConfiguration.HeldLimit? =
            Bool.random(using: &random) ? .pages(Int.random(in: 2...4, using: &random)) : nil
        let pager = ConnectionSource(
            client: client, document: try ConnectionDocument(Self.document), as: FollowedLaunch.self
        ).makePager(
            configuration: try PagingConfiguration(
                pageSize: pageSize, initialLoadSize: initialLoadSize, prefetchDistance: 0, maximumHeld: window
            ))
        let row = try StoreFragment(document: "fragment Row on Launch { \(FollowedLaunch.selection) }")
        let launchQuery = "query Launch($id: ID!) { launch(id: $id) { __typename id site isBooked } }"
        let siteMutation =
            "mutation SetSite($id: ID!, $site: String!) { setSite(id: $id, site: $site) { __typename id site } }"
        let rocketQuery = "query Rocket($id: ID!) { rocket(id: $id) { __typename id name } }"
        let sites = ["Site A", "Site B", "Kwajalein Atoll", "Vandenberg", "Cape Canaveral"]
        let rocketNames = ["Falcon 1", "Falcon One", "Falcon 9", "Falcon Nine", "F9"]

        #expect(try await pager.loadNext().value == .loaded)
        for step in 0..<80 {
            let id = String(Int.random(in: 1...count, using: &random))
            let site = sites[Int.random(in: 0..<sites.count, using: &random)]
            let booked = Bool.random(using: &random)
            let action: String
            switch Int.random(in: 0..<7, using: &random) {
            case 0, 1:
                action = "load the next page"
                if pager.hasNext { _ = try await pager.loadNext().value }
            case 2:
                action = "store.write launch \(id): site \(site), isBooked \(booked)"
                try store.write(
                    data: [
                        "launch": [
                            "__typename": "Launch", "id": .string(id), "site": .string(site),
                            "isBooked": .bool(booked),
                        ]
                    ],
                    for: StoreOperation(document: launchQuery, variables: ["id": .string(id)]))
            case 3:
                action = "store.write setSite \(id): \(site)"
                try store.write(
                    data: ["setSite": ["__typename": "Launch", "id": .string(id), "site": .string(site)]],
                    for: StoreOperation(
                        document: siteMutation, variables: ["id": .string(id), "site": .string(site)]))
            case 4:
                let rocket = Bool.random(using: &random) ? "falcon1" : "falcon9"
                let name = rocketNames[Int.random(in: 0..<rocketNames.count, using: &random)]
                action = "store.write rocket \(rocket): \(name)"
                try store.write(
                    data: ["rocket": ["__typename": "Rocket", "id": .string(rocket), "name": .string(name)]],
                    for: StoreOperation(document: rocketQuery, variables: ["id": .string(rocket)]))
            case 5:
                action = booked ? "send bookTrips \(id)" : "send cancelTrip \(id)"
                _ = try await client.send(
                    booked ? FleetMutations.bookTrips([id]) : FleetMutations.cancelTrip(id))
            default:
                action = "send renameRocket falcon9: \(site)"
                _ = try await client.send(FleetMutations.renameRocket("falcon9", to: site))
            }

            var mismatches: [String] = []
            for item in pager.items {
                let read = store.read(row, at: CacheKey("Launch:\(item.id)"))
                let stored = try read.data.map { try $0.decode(FollowedLaunch.self) }
                if stored != item {
                    mismatches.append(
                        "row \(item) but the store holds \(stored.map { "\($0)" } ?? "no launch")")
                }
            }
            #expect(
                mismatches.isEmpty,
                """
                seed \(seed) (pageSize \(pageSize), initialLoadSize \(initialLoadSize), window \(String(describing: window))), \
                step \(step) (\(action)): \
                \(mismatches.joined(separator: "; "))
                """)
            if !mismatches.isEmpty { break }
        }
        let ids = pager.items.map(\.id)
        #expect(
            ids == Array(fleet.ids.drop { $0 != ids.first }.prefix(ids.count)),
            "the rows are a run of the list")
    }
}

/// A launch of a type that is not `Equatable`: a list of it cannot tell a
/// row that would not change from one that would.
struct OpaqueLaunch: Decodable, Identifiable, Sendable {
    var id: String
    var site: String?
    var isBooked: Bool
    var rocket: FollowedLaunch.Rocket
}

/// A page of the fleet's connection, typed, for the query pager.
struct FleetPageQuery: GraphQLOperation {
    struct Variables: Encodable, Sendable {
        var first: Int
        var after: String?
    }
    struct Data: Decodable, Sendable {
        var launchConnection: Connection<FollowedLaunch>
    }

    let document = """
        query Launches($first: Int, $after: String) {
          launchConnection(first: $first, after: $after) {
            edges { cursor node { \(FollowedLaunch.selection) } }
            pageInfo { hasNextPage endCursor }
          }
        }
        """
    var operationName: String? { "Launches" }
    var variables: Variables

    init(first: Int, after: String?) {
        variables = Variables(first: first, after: after)
    }
}

/// A page of the fleet's connection either way, typed, for the query pager
/// that pages both ways.
struct FleetWindowQuery: GraphQLOperation {
    struct Variables: Encodable, Sendable {
        var first: Int?
        var after: String?
        var last: Int?
        var before: String?
    }
    struct Data: Decodable, Sendable {
        var launchConnection: Connection<FollowedLaunch>
    }

    let document = """
        query Launches($first: Int, $after: String, $last: Int, $before: String) {
          launchConnection(first: $first, after: $after, last: $last, before: $before) {
            edges { cursor node { \(FollowedLaunch.selection) } }
            pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
          }
        }
        """
    var operationName: String? { "Launches" }
    var variables: Variables

    init(first: Int, after: String) {
        variables = Variables(first: first, after: after)
    }

    init(last: Int, before: String) {
        variables = Variables(last: last, before: before)
    }
}
