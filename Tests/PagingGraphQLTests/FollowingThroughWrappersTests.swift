import Foundation
import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

/// A row of a list of launches, made of a followed launch, with its
/// identity: what `map` makes of the nodes in an app.
struct LaunchRow: Identifiable, Hashable, Sendable {
    var id: String
    var title: String
    var booked: Bool

    init(_ launch: FollowedLaunch) {
        id = launch.id
        title = "\(launch.site ?? "?") on \(launch.rocket.name)"
        booked = launch.isBooked
    }
}

/// A wrapper of an app's: it counts loads and passes each request on as it is.
struct CountingSource<Base: PageSource>: PageSource {
    let base: Base
    let loads = Recorder<String>()

    func load(_ request: PageRequest<Base.Key>) async throws -> Page<Base.Key, Base.Item> {
        loads.record(request.description)
        return try await base.load(request)
    }
}

/// A wrapper of an app's with keys of its own: it asks its base for the
/// position its key stands for, with `forwarded(to:)`.
struct TaggedKeySource<Base: PageSource>: PageSource where Base.Key == String {
    struct Tag: Hashable, Sendable {
        var cursor: String
    }

    let base: Base

    func load(_ request: PageRequest<Tag>) async throws -> Page<Tag, Base.Item> {
        let position: PageRequest<String>.Position =
            switch request.position {
            case .initial(let tag): .initial(tag?.cursor)
            case .next(let tag): .next(after: tag.cursor)
            case .previous(let tag): .previous(before: tag.cursor)
            }
        let page = try await base.load(request.forwarded(to: position))
        return Page(
            items: page.items, previousKey: page.previousKey.map(Tag.init),
            nextKey: page.nextKey.map(Tag.init))
    }
}

/// Following the store is kept for the pager, not for the source it is
/// made over: whatever wraps a store-backed source, the rows follow.
@Suite("Following the store through wrappers", .timeLimit(.minutes(HangLimit.minutes(1))))
struct FollowingThroughWrappersTests {
    typealias Fixture = PagerFollowsStoreTests

    static func connectionSource(_ client: GraphQLClient) throws -> ConnectionSource<FollowedLaunch> {
        ConnectionSource(
            client: client, document: try ConnectionDocument(Fixture.document), as: FollowedLaunch.self)
    }

    /// Loads two pages of three and books `id`; returns the changes the booking made.
    static func loadAndBook<Key, Item>(_ pager: Pager<Key, Item>, _ id: String, client: GraphQLClient)
        async throws -> [ListChange]
    {
        #expect(try await pager.loadNext().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.count == 6)
        return try await pager.changes {
            let response = try await client.send(FleetMutations.bookTrips([id]))
            #expect(response.storeError == nil)
        }
    }

    static let sixRows = Fixture.sixLaunches.map(LaunchRow.init)

    @Test("map to rows with the launches' identities: a booking updates its row, transformed again")
    func mapFollows() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = try Self.connectionSource(client).map(LaunchRow.init)
            .makePager(configuration: try Fixture.configuration(3))

        let changes = try await Self.loadAndBook(pager, "5", client: client)

        #expect(changes == [ListChange(updated: [4..<5])])
        var expected = Self.sixRows
        expected[4].booked = true
        #expect(Array(pager.items) == expected)
        #expect(fleet.requestCount == 3, "the mutation was the only request: no refetch")
    }

    @Test("map over a GraphQLQuerySource follows the store as the source does")
    func mapOverQuerySourceFollows() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = Fixture.queryPager(client).map(LaunchRow.init)
            .makePager(configuration: try Fixture.configuration(3))

        let changes = try await Self.loadAndBook(pager, "2", client: client)

        #expect(changes == [ListChange(updated: [1..<2])])
        #expect(pager.items[1] == LaunchRow(Fixture.launch("2", booked: true)))
        #expect(fleet.requestCount == 3)
    }

    @Test("a change the transform does not show edits no row and publishes nothing")
    func mapLeavesUnchangedRowsAlone() async throws {
        let fleet = LaunchFleet(count: 9)
        // The row shows the id and the site: a booking changes nothing of it.
        struct SiteRow: Identifiable, Hashable, Sendable {
            var id: String
            var site: String?
        }
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let pager = try Self.connectionSource(client).map { SiteRow(id: $0.id, site: $0.site) }
            .makePager(configuration: try Fixture.configuration(3))
        #expect(try await pager.loadNext().value == .loaded)
        let version = pager.snapshot.version

        _ = try await client.send(FleetMutations.bookTrips(["2"]))

        #expect(pager.snapshot.version == version)
        #expect(pager.items.map(\.id) == ["1", "2", "3"])
        // A change the row shows is followed, through the same transform.
        _ = try Fixture.setSite("2", to: "Site 2b", in: store)
        #expect(pager.snapshot.version == version + 1)
        #expect(pager.items[1] == SiteRow(id: "2", site: "Site 2b"))
    }

    @Test("filter: a launch that stops passing leaves the list, as one removed index")
    func filterRemovesWhatStopsPassing() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = try Self.connectionSource(client).filter { !$0.isBooked }
            .makePager(configuration: try Fixture.configuration(3))

        let changes = try await Self.loadAndBook(pager, "3", client: client)

        #expect(changes == [ListChange(removed: [2..<3])])
        #expect(pager.items.map(\.id) == ["1", "2", "4", "5", "6"])
    }

    @Test("compactMap: a changed launch transformed again, to a row or to nothing")
    func compactMapFollows() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        // Rows for launches on Falcon 9 only (the even ones); a rename of
        // the rocket reaches every row on it.
        let pager = try Self.connectionSource(client)
            .compactMap { $0.rocket.id == "falcon9" ? LaunchRow($0) : nil }
            .makePager(configuration: try Fixture.configuration(3))
        #expect(try await pager.loadNext().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.map(\.id) == ["2", "4", "6"])

        let changes = try await pager.changes {
            _ = try await client.send(FleetMutations.renameRocket("falcon9", to: "Falcon Nine"))
        }

        #expect(changes == [ListChange(updated: [0..<3])])
        #expect(
            pager.items.map(\.title) == [
                "Site 2 on Falcon Nine", "Site 4 on Falcon Nine", "Site 6 on Falcon Nine",
            ])
    }

    @Test("a wrapper of an app's that passes requests on keeps the following")
    func passingWrapperFollows() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let source = CountingSource(base: try Self.connectionSource(client))
        let pager = source.makePager(configuration: try Fixture.configuration(3))

        let changes = try await Self.loadAndBook(pager, "5", client: client)

        #expect(changes == [ListChange(updated: [4..<5])])
        #expect(pager.items[4] == Fixture.launch("5", booked: true))
        #expect(source.loads.recorded.count == 2)
    }

    @Test("a wrapper with keys of its own keeps the following through forwarded(to:)")
    func forwardingWrapperFollows() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = TaggedKeySource(base: try Self.connectionSource(client).map(LaunchRow.init))
            .makePager(configuration: try Fixture.configuration(3))

        let changes = try await Self.loadAndBook(pager, "6", client: client)

        #expect(changes == [ListChange(updated: [5..<6])])
        #expect(pager.items[5] == LaunchRow(Fixture.launch("6", booked: true)))
    }

    @Test("through map, a bounded window follows the rows of the pages it holds")
    func mapWithWindowFollows() async throws {
        let fleet = LaunchFleet(count: 20)
        let client = fleet.client(store: GraphQLStore())
        let pager = try Self.connectionSource(client).map(LaunchRow.init).makePager(
            configuration: try PagingConfiguration(pageSize: 2, prefetchDistance: 0, maximumHeld: .pages(2)))
        for _ in 0..<6 {
            #expect(try await pager.loadNext().value == .loaded)
        }
        #expect(pager.items.map(\.id) == ["9", "10", "11", "12"])

        let changes = try await pager.changes {
            _ = try await client.send(FleetMutations.bookTrips(["11"]))
        }

        #expect(changes == [ListChange(updated: [2..<3])])
        #expect(pager.items[2].booked)
    }

    @Test("two pagers over one mapped source follow each on its own, and a gone pager's follower goes")
    func eachPagerHasItsFollower() async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let client = fleet.client(store: store)
        let source = try Self.connectionSource(client).map(LaunchRow.init)
        let first = source.makePager(configuration: try Fixture.configuration(3))
        let second = source.makePager(configuration: try Fixture.configuration(2))
        #expect(try await first.loadNext().value == .loaded)
        #expect(try await second.loadNext().value == .loaded)
        weak var weakThird: Pager<String, LaunchRow>?
        do {
            let third = source.makePager(configuration: try Fixture.configuration(3))
            #expect(try await third.loadNext().value == .loaded)
            weakThird = third
        }
        #expect(weakThird == nil, "the follower does not keep its pager")
        #expect(
            await LifetimeTests.eventually { store.state.withLock { $0.observers.count } == 2 },
            "the gone pager's follower went with it; the two others follow")

        _ = try await client.send(FleetMutations.bookTrips(["2"]))

        #expect(first.items[1].booked)
        #expect(second.items[1].booked)
    }

    @Test("a page that keeps its request (a QueryPage) keeps neither follower nor store once its pager goes")
    func requestKeptInAnItemKeepsNothing() async throws {
        let fleet = LaunchFleet(count: 9)
        weak var weakPager: AnyObject?
        weak var weakStore: GraphQLStore?
        do {
            let store = GraphQLStore()
            let client = fleet.client(store: store)
            // Whole pages: each item is identified by the request that loaded it.
            let pager = Fixture.wholePages(client).makePager()
            #expect(try await pager.loadNext().value == .loaded)
            _ = try await client.send(FleetMutations.bookTrips(["2"]))
            #expect(pager.items[0].value.launchConnection.map(\.isBooked) == [false, true, false])
            weakPager = pager
            weakStore = store
        }
        #expect(weakPager == nil)
        #expect(weakStore == nil, "the follower, kept for the pager, went with it, and so did the store")
    }

    @Test("a transform of whole pages loads its rows but does not follow the store")
    func mapPagesDoesNotFollow() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let pager = try Self.connectionSource(client).mapPages { $0.map(LaunchRow.init) }
            .makePager(configuration: try Fixture.configuration(3))
        #expect(try await pager.loadNext().value == .loaded)
        let version = pager.snapshot.version

        _ = try await client.send(FleetMutations.bookTrips(["2"]))

        #expect(pager.snapshot.version == version, "its rows cannot be told from the base's items")
        #expect(Array(pager.items) == Array(Self.sixRows.prefix(3)))
    }
}

extension FollowingThroughWrappersTests {
    @MainActor
    @Test(
        "the lists a QueryList keeps follow the store: a booking made while another query shows is there on going back, with no request"
    )
    func queryListKeptListsFollow() async throws {
        let fleet = LaunchFleet(count: 9)
        let client = fleet.client(store: GraphQLStore())
        let source = try Self.connectionSource(client)
        let search = QueryList<String, String, FollowedLaunch>(
            query: "a", onReturn: .keep, configuration: try Fixture.configuration(3)
        ) { _ in source }
        #expect(try await search.list.loadNext().value == .loaded)
        #expect(try await search.switchTo("b").value == .loaded)
        #expect(search.query == "b")
        let requests = fleet.requestCount

        let response = try await client.send(FleetMutations.bookTrips(["2"]))
        #expect(response.storeError == nil)
        _ = try await search.switchTo("a").value
        #expect(search.query == "a")
        #expect(search.list.pager.items.map(\.id) == ["1", "2", "3"])
        #expect(search.list.pager.items[1].isBooked, "followed while kept")
        #expect(fleet.requestCount == requests + 1, "the mutation was the only request")
    }
}
