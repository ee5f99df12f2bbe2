import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Membership rules, against the launch server on loopback: lists of `launchConnection`
/// filtered by `booked` (and `site`) and sorted by `orderBy`, over a client whose store has a
/// rule for each order, take the launches that `bookTrips` and `cancelTrip` (sent through the
/// same client) move in or out of them, at their place in the server's order, with no request
/// but the mutation's; a list sent with `search`, which no rule covers, keeps the server's
/// answer.
///
/// What every list must show is computed here, from the server's whole list fetched apart
/// (by a client without a store) and filtered and sorted by the test: the launches that pass
/// the list's filters now, in its order, up to where its next page starts (the last launch of
/// the last page it loaded), or all of them once its end is reached. The sort is checked
/// against the server's own filtered lists first, so that the expectations are the server's.
@Suite(
    "Membership rules place booked launches in the lists they belong to, end to end", .timeLimit(.minutes(30))
)
struct MembershipEndToEndTests {
    // MARK: Rows, orders, filters

    /// A row of the lists: a launch with the fields the rules read, and its rocket (a record of
    /// its own).
    struct Row: Decodable, Identifiable, Hashable, Sendable {
        struct Mission: Decodable, Hashable, Sendable {
            var name: String
        }
        struct Rocket: Decodable, Hashable, Sendable {
            var id: String
            var name: String
        }

        var id: String
        var site: String?
        var isBooked: Bool
        var launchDate: String
        var mission: Mission
        var rocket: Rocket

        static let selection = "id site isBooked launchDate mission { name } rocket { id name }"
    }

    /// The orders of the lists, as the lists ask for them.
    enum Order: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// `orderBy` left out: the server's default, newest first.
        case newestFirstByDefault
        /// `orderBy: NEWEST_FIRST`.
        case newestFirst
        /// `orderBy: MISSION_NAME`.
        case missionName

        var testDescription: String { rawValue }

        /// The value of `orderBy`, `nil` when it is left out.
        var argument: String? {
            switch self {
            case .newestFirstByDefault: nil
            case .newestFirst: "NEWEST_FIRST"
            case .missionName: "MISSION_NAME"
            }
        }

        /// The server's order, as its documentation states it: newest launch date first, then
        /// the greater id as a number; or mission name by UTF-8 bytes, then the smaller id.
        func areInIncreasingOrder(_ lhs: Row, _ rhs: Row) throws -> Bool {
            let left = try #require(Int(lhs.id))
            let right = try #require(Int(rhs.id))
            switch self {
            case .newestFirstByDefault, .newestFirst:
                let leftDate = try Date(lhs.launchDate, strategy: .iso8601)
                let rightDate = try Date(rhs.launchDate, strategy: .iso8601)
                return leftDate != rightDate ? leftDate > rightDate : left > right
            case .missionName:
                let leftName = lhs.mission.name.utf8
                let rightName = rhs.mission.name.utf8
                if leftName.elementsEqual(rightName) { return left < right }
                return leftName.lexicographicallyPrecedes(rightName)
            }
        }
    }

    /// The filter arguments of a list.
    struct Filter: Hashable, Sendable, CustomStringConvertible {
        var booked: Bool?
        var site: String?
        var search: String?

        var description: String {
            "booked: \(booked.map(String.init) ?? "-"), site: \(site ?? "-"), search: \(search ?? "-")"
        }

        /// The list's variables beyond the pagination ones.
        func variables(_ order: Order) -> [String: JSONValue] {
            var variables: [String: JSONValue] = [:]
            if let booked { variables["booked"] = .bool(booked) }
            if let site { variables["site"] = .string(site) }
            if let search { variables["search"] = .string(search) }
            if let orderBy = order.argument { variables["orderBy"] = .string(orderBy) }
            return variables
        }

        /// Whether a launch passes the filters, as the server's documentation states them.
        func admits(_ row: Row) -> Bool {
            if let booked, row.isBooked != booked { return false }
            if let site, row.site != site { return false }
            if let search, !search.isEmpty {
                return row.mission.name.lowercased().contains(search.lowercased())
            }
            return true
        }
    }

    // MARK: Client, rules and lists

    static let connection = "launchConnection"

    /// The rules of the store: newest first (for `orderBy` left out, and for `NEWEST_FIRST`)
    /// and by mission name, each filtered by `booked` and `site`.
    static let rules: [ConnectionMembershipRule] = {
        let filter = MembershipFilter.allOf([
            .field("isBooked", equalsArgument: "booked"), .field("site", equalsArgument: "site"),
        ])
        let newestFirst: [MembershipSortKey] = [
            .descending("launchDate"), .descending("id", comparison: .numericText),
        ]
        let missionName: [MembershipSortKey] = [
            .ascending("mission", "name"), .ascending("id", comparison: .numericText),
        ]
        return [
            ConnectionMembershipRule(
                connection: connection, typename: "Launch", arguments: ["orderBy": .null], filter: filter,
                order: newestFirst),
            ConnectionMembershipRule(
                connection: connection, typename: "Launch", arguments: ["orderBy": "NEWEST_FIRST"],
                filter: filter, order: newestFirst),
            ConnectionMembershipRule(
                connection: connection, typename: "Launch", arguments: ["orderBy": "MISSION_NAME"],
                filter: filter, order: missionName),
        ]
    }()

    /// The lists' document: every filter and the order as variables, paged forward.
    static let document = """
        query MembershipLaunches(
          $first: Int, $after: String, $booked: Boolean, $site: String, $search: String, $orderBy: LaunchOrder
        ) {
          launchConnection(
            first: $first, after: $after, booked: $booked, site: $site, search: $search, orderBy: $orderBy
          ) @connection(key: "Membership_launches") {
            edges { node { \(Row.selection) } }
          }
        }
        """

    /// A client of the server whose store has the rules, on the tests' one session, that counts
    /// its requests.
    static func storeClient(_ server: LaunchServer) -> (GraphQLClient, CountingTransport) {
        var configuration = GraphQLStore.Configuration()
        configuration.membershipRules = rules
        let transport = CountingTransport(wrapping: TestSession.transport)
        let client = GraphQLClient(
            endpoint: server.graphQLURL, timeout: patience, transport: transport,
            store: GraphQLStore(configuration: configuration))
        return (client, transport)
    }

    /// A list over a client, with where its next page starts: after the last launch of the
    /// last page it loaded.
    final class HeldList {
        let pager: Pager<String, Row>
        let filter: Filter
        let order: Order
        /// The id of the last launch of the last page loaded.
        private(set) var boundary: String?

        init(_ client: GraphQLClient, _ filter: Filter, _ order: Order, pageSize: Int) throws {
            self.filter = filter
            self.order = order
            pager = ConnectionSource(
                client: client, document: try ConnectionDocument(MembershipEndToEndTests.document),
                variables: filter.variables(order), as: Row.self
            ).makePager(configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0))
        }

        /// Loads the next page, and notes where the page after it starts.
        func loadNext() async throws -> LoadOutcome {
            let countBefore = pager.items.count
            let result = try await pager.loadNext().value
            if result == .loaded, pager.items.count > countBefore { boundary = pager.items.last?.id }
            return result
        }

        /// Loads `count` pages, each expected to load.
        func load(pages count: Int) async throws {
            for _ in 0..<count {
                #expect(try await loadNext() == .loaded, "\(filter)")
            }
        }

        /// Loads pages until the end is reached.
        func loadToEnd() async throws {
            var pages = 0
            while pager.hasNext, !Task.isCancelled {
                let result = try await loadNext()
                guard result == .loaded else {
                    #expect(result == .endReached)
                    break
                }
                pages += 1
                try #require(pages < 100, "the list never reached its end")
            }
            #expect(pager.loadStates.next == .endReached)
        }

        /// The ids held.
        var ids: [String] { pager.items.ids }
    }

    // MARK: The server's word

    /// `launchConnection` with every argument, for the whole list and the server's filtered
    /// lists, sent by a client without a store.
    struct LaunchesQuery: GraphQLOperation {
        struct Variables: Encodable, Sendable {
            var first = 100
            var after: String?
            var booked: Bool?
            var site: String?
            var search: String?
            var orderBy: String?
        }
        struct Edge: Decodable, Sendable {
            var node: Row
        }
        struct PageInfo: Decodable, Sendable {
            var hasNextPage: Bool
            var endCursor: String?
        }
        struct Connection: Decodable, Sendable {
            var edges: [Edge]
            var pageInfo: PageInfo
        }
        struct Data: Decodable, Sendable {
            var launchConnection: Connection
        }

        var variables: Variables
        var document: String {
            """
            query MembershipServerList(
              $first: Int, $after: String, $booked: Boolean, $site: String, $search: String, $orderBy: LaunchOrder
            ) {
              launchConnection(
                first: $first, after: $after, booked: $booked, site: $site, search: $search, orderBy: $orderBy
              ) {
                edges { node { \(Row.selection) } }
                pageInfo { hasNextPage endCursor }
              }
            }
            """
        }
        var operationName: String? { "MembershipServerList" }
    }

    /// Every launch the server's list with some filters holds, in its order, fetched whole.
    static func serverList(_ server: LaunchServer, _ filter: Filter = Filter(), _ order: Order) async throws
        -> [Row]
    {
        var rows: [Row] = []
        var after: String?
        repeat {
            let response = try await server.client.send(
                LaunchesQuery(
                    variables: .init(
                        after: after, booked: filter.booked, site: filter.site, search: filter.search,
                        orderBy: order.argument)))
            #expect(response.errors.isEmpty, "\(response.errors)")
            let connection = try #require(response.data?.launchConnection)
            rows += connection.edges.map(\.node)
            after = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : nil
            try #require(rows.count <= 1_000)
        } while after != nil
        return rows
    }

    /// The server's whole list as it is now, and what each list must show of it.
    struct Oracle {
        /// Every launch, as the server has it now.
        let launches: [Row]

        /// Fetches the whole list.
        static func fetch(_ server: LaunchServer) async throws -> Oracle {
            let launches = try await serverList(server, Filter(), .newestFirstByDefault)
            #expect(launches.count == Set(launches.map(\.id)).count, "every launch once")
            return Oracle(launches: launches)
        }

        /// Every launch, sorted by the test.
        func sorted(_ order: Order) throws -> [Row] {
            var failure: (any Error)?
            let sorted = launches.sorted { lhs, rhs in
                do { return try order.areInIncreasingOrder(lhs, rhs) } catch {
                    failure = error
                    return false
                }
            }
            if let failure { throw failure }
            return sorted
        }

        /// The launches that pass a list's filters, in its order.
        func all(_ filter: Filter, _ order: Order) throws -> [Row] {
            try sorted(order).filter(filter.admits)
        }

        /// What a list must show: the launches that pass its filters, in its order, up to and
        /// with where its next page starts (the place of the last launch of its last page;
        /// sort fields never change in these tests), or all of them when its end is reached.
        func expected(_ list: HeldList) throws -> [Row] {
            let all = try all(list.filter, list.order)
            guard list.pager.hasNext else { return all }
            let boundary = try #require(list.boundary, "a list with a page loaded")
            let order = try sorted(list.order)
            let limit = try #require(order.firstIndex { $0.id == boundary })
            let within = Set(order[...limit].map(\.id))
            return all.filter { within.contains($0.id) }
        }

        /// The launch at an index of the whole list in an order.
        func launch(at index: Int, _ order: Order) throws -> Row {
            try sorted(order)[index]
        }
    }

    /// Checks that a list shows what the server's list says it must: the same launches in the
    /// same order, with their fields as they are now.
    static func expectFollows(
        _ list: HeldList, _ oracle: Oracle, _ comment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let expected = try oracle.expected(list)
        #expect(
            list.ids == expected.map(\.id), "\(comment): list \(list.filter), \(list.order)",
            sourceLocation: sourceLocation)
        if list.ids == expected.map(\.id) {
            #expect(
                Array(list.pager.items) == expected, "\(comment): rows of \(list.filter)",
                sourceLocation: sourceLocation)
        }
    }

    /// Checks that the test's sort is the server's, for the filters of some lists.
    static func expectServerOrder(_ server: LaunchServer, _ oracle: Oracle, _ lists: [HeldList]) async throws
    {
        for list in lists {
            let served = try await serverList(server, list.filter, list.order)
            #expect(
                served.map(\.id) == (try oracle.all(list.filter, list.order)).map(\.id),
                "the test sorts and filters as the server does: \(list.filter), \(list.order)")
        }
    }

    // MARK: Mutations

    /// The fields of a launch a mutation's answer brings: only what it changed.
    static let changedFields = "id isBooked"

    static func book(_ ids: [String], selection: String = changedFields) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation MembershipBook($launchIds: [ID]!) {
                  bookTrips(launchIds: $launchIds) { success message launches { \(selection) } }
                }
                """,
            operationName: "MembershipBook", variables: ["launchIds": .array(ids.map(JSONValue.string))])
    }

    static func cancel(_ id: String, selection: String = changedFields) -> UntypedOperation {
        UntypedOperation(
            document: """
                mutation MembershipCancel($launchId: ID!) {
                  cancelTrip(launchId: $launchId) { success message launches { \(selection) } }
                }
                """,
            operationName: "MembershipCancel", variables: ["launchId": .string(id)])
    }

    /// Sends a mutation and checks that the server did it and the store took its answer.
    static func send(_ client: GraphQLClient, _ mutation: UntypedOperation) async throws {
        let response = try await client.send(mutation)
        #expect(response.errors.isEmpty, "\(response.errors)")
        #expect(response.storeError == nil)
        let field = mutation.operationName == "MembershipBook" ? "bookTrips" : "cancelTrip"
        #expect(response.data?[field]?["success"] == true, "\(response.data?[field]?["message"] ?? nil)")
    }

    /// Books launches through a client without a store, as another user would: the lists of
    /// the tests' client know nothing of it.
    static func bookElsewhere(_ server: LaunchServer, _ ids: [String]) async throws {
        try await send(server.client, book(ids))
    }

    // MARK: Tests

    @Test(
        "Booking a launch moves it from the unbooked list into the booked list at its place, and cancelling moves it back, with no request but the mutations",
        arguments: Order.allCases)
    func bookingMovesALaunchBetweenLists(order: Order) async throws {
        try await withLaunchServer { server in
            let start = try await Oracle.fetch(server)
            // Booked launches all along the order, so that the booked list has pages of its own.
            let prebooked = try [2, 5, 9, 13, 17, 21, 25, 33, 45, 60, 75, 90].map {
                try start.launch(at: $0, order).id
            }
            try await Self.bookElsewhere(server, prebooked)

            let (client, transport) = Self.storeClient(server)
            let unbooked = try HeldList(client, Filter(booked: false), order, pageSize: 6)
            let booked = try HeldList(client, Filter(booked: true), order, pageSize: 3)
            try await unbooked.load(pages: 2)
            try await booked.load(pages: 2)
            #expect(transport.count == 4)
            var oracle = try await Oracle.fetch(server)
            try await Self.expectServerOrder(server, oracle, [unbooked, booked])
            #expect(booked.ids == Array(prebooked.prefix(6)))
            try Self.expectFollows(unbooked, oracle, "as loaded")
            try Self.expectFollows(booked, oracle, "as loaded")

            // Between the booked list's 3rd and 4th launches, held by the unbooked list; and one
            // far beyond what either list holds, whose fields the answer brings.
            let target = try oracle.launch(at: 11, order)
            let far = try oracle.launch(at: 80, order)
            let unbookedIndex = try #require(unbooked.ids.firstIndex(of: target.id))
            #expect(!unbooked.ids.contains(far.id))
            let unbookedVersion = unbooked.pager.snapshot.version
            let bookedVersion = booked.pager.snapshot.version

            try await Self.send(client, Self.book([target.id]))
            try await Self.send(client, Self.book([far.id], selection: Row.selection))

            #expect(transport.count == 6, "the mutations were the only requests")
            #expect(transport.operationNames.suffix(2) == ["MembershipBook", "MembershipBook"])
            oracle = try await Oracle.fetch(server)
            #expect(oracle.launches.first { $0.id == target.id }?.isBooked == true)
            try Self.expectFollows(unbooked, oracle, "after the booking")
            try Self.expectFollows(booked, oracle, "after the booking")
            let bookedIndex = try #require(booked.ids.firstIndex(of: target.id), "the booked list took it")
            #expect(bookedIndex == 3)
            #expect(!unbooked.ids.contains(target.id))
            #expect(!booked.ids.contains(far.id), "its place is beyond the booked list's next page")
            #expect(unbooked.pager.snapshot.version > unbookedVersion)
            #expect(booked.pager.snapshot.version > bookedVersion)
            // The far launch changed no list: the last change of each is the target's.
            #expect(
                unbooked.pager.snapshot.change == ListChange(removed: [unbookedIndex..<unbookedIndex + 1]))
            #expect(booked.pager.snapshot.change == ListChange(inserted: [bookedIndex..<bookedIndex + 1]))
            #expect(booked.pager.items[bookedIndex].isBooked)

            try await Self.send(client, Self.cancel(target.id))

            #expect(transport.count == 7)
            oracle = try await Oracle.fetch(server)
            try Self.expectFollows(unbooked, oracle, "after the cancellation")
            try Self.expectFollows(booked, oracle, "after the cancellation")
            #expect(unbooked.ids.firstIndex(of: target.id) == unbookedIndex, "back at its place")
            #expect(!booked.ids.contains(target.id))
            #expect(
                unbooked.pager.snapshot.change == ListChange(inserted: [unbookedIndex..<unbookedIndex + 1]))
            #expect(booked.pager.snapshot.change == ListChange(removed: [bookedIndex..<bookedIndex + 1]))
            #expect(booked.ids == Array(prebooked.prefix(6)))

            // The pages after bring the far launch once, where the server has it.
            try await unbooked.loadToEnd()
            try await booked.loadToEnd()
            oracle = try await Oracle.fetch(server)
            try Self.expectFollows(unbooked, oracle, "loaded to the end")
            try Self.expectFollows(booked, oracle, "loaded to the end")
            #expect(booked.ids.filter { $0 == far.id }.count == 1)
        }
    }

    @Test(
        "Bookings and cancellations in a row keep each list what the server holds up to its next page; the remaining pages complete it",
        arguments: Order.allCases)
    func bookingsInARowThenTheRemainingPages(order: Order) async throws {
        try await withLaunchServer { server in
            let start = try await Oracle.fetch(server)
            func id(_ index: Int) throws -> String { try start.launch(at: index, order).id }
            try await Self.bookElsewhere(server, try [3, 8, 20, 40, 70].map(id))

            let (client, transport) = Self.storeClient(server)
            let unbooked = try HeldList(client, Filter(booked: false), order, pageSize: 5)
            let booked = try HeldList(client, Filter(booked: true), order, pageSize: 2)
            try await unbooked.load(pages: 2)
            try await booked.load(pages: 1)
            try await Self.expectServerOrder(server, try await Oracle.fetch(server), [unbooked, booked])
            #expect(booked.ids == (try [3, 8].map(id)))

            // (mutation, what it does to the lists, by the launch's index in the whole list)
            let steps: [(UntypedOperation, String)] = [
                (Self.book([try id(5)]), "held unbooked; in the booked list between 3 and 8"),
                (Self.book([try id(1)]), "held unbooked; first in the booked list, whose start is reached"),
                (Self.cancel(try id(3)), "out of the booked list; into the unbooked list between 2 and 4"),
                (
                    Self.book([try id(30)], selection: Row.selection),
                    "beyond both lists: neither takes it"
                ),
                (Self.cancel(try id(20)), "held by neither; beyond the unbooked list's next page"),
                (
                    Self.book([try id(9), try id(12)]),
                    "9 out of the unbooked list, beyond the booked one; 12 unseen"
                ),
                (Self.cancel(try id(8)), "the booked list's last launch goes; into the unbooked list at 8"),
                (
                    Self.book([try id(0), try id(6)]),
                    "two at once: both out of the unbooked list, into the booked"
                ),
                (Self.cancel(try id(5)), "back out of the booked list, into the unbooked"),
                (
                    Self.book([try id(7)], selection: Row.selection),
                    "into the booked list, before where it ends"
                ),
            ]
            var requests = transport.count
            for (mutation, what) in steps {
                try await Self.send(client, mutation)
                requests += 1
                #expect(transport.count == requests, "\(what): the mutation was the only request")
                let oracle = try await Oracle.fetch(server)
                try Self.expectFollows(unbooked, oracle, what)
                try Self.expectFollows(booked, oracle, what)
            }
            #expect(booked.ids == (try [0, 1, 6, 7].map(id)))

            try await unbooked.loadToEnd()
            try await booked.loadToEnd()
            let oracle = try await Oracle.fetch(server)
            #expect(unbooked.ids == (try oracle.all(unbooked.filter, order)).map(\.id), "every launch once")
            #expect(booked.ids == (try oracle.all(booked.filter, order)).map(\.id), "every launch once")
            #expect(Array(unbooked.pager.items) == (try oracle.all(unbooked.filter, order)))
            #expect(Array(booked.pager.items) == (try oracle.all(booked.filter, order)))
            #expect(
                Set(unbooked.ids).union(booked.ids).count == oracle.launches.count,
                "every launch in exactly one of the two lists")
        }
    }

    @Test(
        "A booked list that starts empty, with its end reached, takes booked launches at their places",
        arguments: Order.allCases)
    func emptyBookedListTakesLaunches(order: Order) async throws {
        try await withLaunchServer { server in
            let (client, transport) = Self.storeClient(server)
            let booked = try HeldList(client, Filter(booked: true), order, pageSize: 5)
            let unbooked = try HeldList(client, Filter(booked: false), order, pageSize: 5)
            try await booked.load(pages: 1)
            try await unbooked.load(pages: 1)
            #expect(booked.ids.isEmpty, "no trip is booked yet")
            #expect(booked.pager.loadStates.next == .endReached)
            #expect(!booked.pager.hasNext)
            var oracle = try await Oracle.fetch(server)
            #expect(oracle.launches.allSatisfy { !$0.isBooked })
            try await Self.expectServerOrder(server, oracle, [unbooked])
            let requests = transport.count

            // Held by the unbooked list: the store has its fields, the answer only `isBooked`.
            let held = try oracle.launch(at: 3, order)
            try await Self.send(client, Self.book([held.id]))
            #expect(booked.ids == [held.id])
            #expect(booked.pager.snapshot.change == ListChange(inserted: [0..<1]))
            #expect(!unbooked.ids.contains(held.id))

            // Never loaded: the answer brings its fields. It sorts after the first.
            let unseen = try oracle.launch(at: 50, order)
            try await Self.send(client, Self.book([unseen.id], selection: Row.selection))
            #expect(booked.ids == [held.id, unseen.id])
            #expect(booked.pager.snapshot.change == ListChange(inserted: [1..<2]))

            // The first of the order (held by the unbooked list), sorting before both.
            let first = try oracle.launch(at: 0, order)
            try await Self.send(client, Self.book([first.id], selection: Row.selection))
            #expect(booked.ids == [first.id, held.id, unseen.id])
            #expect(booked.pager.snapshot.change == ListChange(inserted: [0..<1]))

            #expect(transport.count == requests + 3, "the mutations were the only requests")
            oracle = try await Oracle.fetch(server)
            try Self.expectFollows(booked, oracle, "after three bookings")
            try Self.expectFollows(unbooked, oracle, "after three bookings")
            #expect(booked.pager.items.allSatisfy { $0.isBooked })

            // Cancelling them all empties it again.
            for id in [held.id, first.id, unseen.id] { try await Self.send(client, Self.cancel(id)) }
            #expect(booked.ids.isEmpty)
            oracle = try await Oracle.fetch(server)
            try Self.expectFollows(unbooked, oracle, "after the cancellations")
        }
    }

    @Test(
        "Lists filtered by site take only their site's launches; a list with a search follows no rule and keeps the server's answer",
        arguments: [Order.newestFirstByDefault, .missionName])
    func siteListsFollowAndSearchListDoesNot(order: Order) async throws {
        try await withLaunchServer { server in
            let site = "KSC LC 39A"
            let start = try await Oracle.fetch(server)
            let atSite = try start.sorted(order).filter { $0.site == site }
            // Elsewhere, and not a CRS mission, so that the search list does not hold it either.
            let elsewhere = try start.sorted(order).filter {
                $0.site != nil && $0.site != site && !$0.mission.name.lowercased().contains("crs")
            }
            try #require(atSite.count >= 12)
            // The search list: CRS missions, unbooked.
            let search = Filter(booked: false, search: "crs")
            let crs = try start.all(search, order)
            try #require(crs.count >= 8)
            // Booked before the lists load: a CRS launch the search list will hold, and two at the site.
            let crsCancelled = crs[2]
            try await Self.bookElsewhere(server, [crsCancelled.id, atSite[1].id, atSite[9].id])

            let (client, transport) = Self.storeClient(server)
            let siteUnbooked = try HeldList(client, Filter(booked: false, site: site), order, pageSize: 4)
            let siteBooked = try HeldList(client, Filter(booked: true, site: site), order, pageSize: 1)
            let siteAll = try HeldList(client, Filter(site: site), order, pageSize: 4)
            let searchList = try HeldList(client, search, order, pageSize: 5)
            try await siteUnbooked.load(pages: 2)
            try await siteBooked.load(pages: 1)
            try await siteAll.load(pages: 2)
            try await searchList.load(pages: 1)
            var oracle = try await Oracle.fetch(server)
            try await Self.expectServerOrder(server, oracle, [siteUnbooked, siteBooked, siteAll, searchList])
            for list in [siteUnbooked, siteBooked, siteAll, searchList] {
                try Self.expectFollows(list, oracle, "as loaded")
            }
            #expect(siteBooked.ids == [atSite[1].id])
            #expect(siteBooked.pager.hasNext)
            let served = searchList.ids
            #expect(!served.contains(crsCancelled.id))
            let requests = transport.count

            // A launch at the site, held by the unbooked site list: it moves to the booked one,
            // before where that list's next page starts (its one launch, atSite[1]), only if it
            // sorts before it: atSite[0] does.
            try await Self.send(client, Self.book([atSite[0].id]))
            oracle = try await Oracle.fetch(server)
            for list in [siteUnbooked, siteBooked, siteAll] {
                try Self.expectFollows(list, oracle, "booked at the site")
            }
            #expect(siteBooked.ids == [atSite[0].id, atSite[1].id])
            #expect(!siteUnbooked.ids.contains(atSite[0].id))
            #expect(siteAll.ids.contains(atSite[0].id), "booked or not, it stays in the site's list")
            let siteAllIndex = try #require(siteAll.ids.firstIndex(of: atSite[0].id))
            #expect(siteAll.pager.snapshot.change == ListChange(updated: [siteAllIndex..<siteAllIndex + 1]))
            #expect(siteAll.pager.items[siteAllIndex].isBooked, "updated in place")

            // A launch elsewhere changes no site list.
            let siteVersions = [siteUnbooked, siteBooked, siteAll].map(\.pager.snapshot.version)
            try await Self.send(client, Self.book([elsewhere[0].id], selection: Row.selection))
            #expect([siteUnbooked, siteBooked, siteAll].map(\.pager.snapshot.version) == siteVersions)

            // The search list holds CRS launches that are not booked. Booking one it holds
            // would take it out under a rule; with none, the row stays and shows it booked.
            let bookedCRS = crs[1]
            let index = try #require(searchList.ids.firstIndex(of: bookedCRS.id))
            try await Self.send(client, Self.book([bookedCRS.id], selection: Row.selection))
            #expect(searchList.ids == served, "no rule: the server's answer stays")
            #expect(searchList.pager.items[index].isBooked, "the row follows its record")
            #expect(searchList.pager.snapshot.change == ListChange(updated: [index..<index + 1]))

            // Cancelling a CRS launch whose place is within the list would insert it under a
            // rule; with none, the list does not take it, though the store has its fields.
            try await Self.send(client, Self.cancel(crsCancelled.id, selection: Row.selection))
            #expect(searchList.ids == served, "no rule: nothing goes in")
            #expect(transport.count == requests + 4, "the mutations were the only requests")

            oracle = try await Oracle.fetch(server)
            let now = Dictionary(uniqueKeysWithValues: oracle.launches.map { ($0.id, $0) })
            #expect(
                Array(searchList.pager.items) == served.compactMap { now[$0] },
                "rows as the server has them now")
            for list in [siteUnbooked, siteBooked, siteAll] {
                try Self.expectFollows(list, oracle, "at the end")
            }

            // A refresh gives the server's word: the booked launch goes, the cancelled one comes.
            #expect(try await searchList.pager.refresh().value == .loaded)
            #expect(searchList.ids.count >= 3)
            #expect(searchList.ids == (try oracle.all(search, order)).prefix(searchList.ids.count).map(\.id))
            #expect(!searchList.ids.contains(bookedCRS.id))
            #expect(searchList.ids.contains(crsCancelled.id))
        }
    }

    @Test(
        "A launch that leaves a list at where its next page starts, and comes back, is shown again",
        arguments: Order.allCases)
    func launchAtTheBoundaryComesBack(order: Order) async throws {
        try await withLaunchServer { server in
            let (client, transport) = Self.storeClient(server)
            let unbooked = try HeldList(client, Filter(booked: false), order, pageSize: 5)
            try await unbooked.load(pages: 1)
            var oracle = try await Oracle.fetch(server)
            try await Self.expectServerOrder(server, oracle, [unbooked])
            try Self.expectFollows(unbooked, oracle, "as loaded")
            // The last launch of the page: the next page starts right after its place.
            let last = try #require(unbooked.pager.items.last)
            #expect(unbooked.boundary == last.id)

            try await Self.send(client, Self.book([last.id]))
            #expect(unbooked.ids == (try oracle.sorted(order)).prefix(4).map(\.id), "it left")

            try await Self.send(client, Self.cancel(last.id))
            #expect(transport.count == 3, "the mutations were the only requests")
            oracle = try await Oracle.fetch(server)
            #expect(oracle.launches.allSatisfy { !$0.isBooked })
            // The next page starts after it, so no page brings it: only the rule can.
            try Self.expectFollows(unbooked, oracle, "after it came back")
            #expect(unbooked.ids.last == last.id, "back at its place, the last")
            try await unbooked.loadToEnd()
            #expect(unbooked.ids == (try oracle.all(unbooked.filter, order)).map(\.id), "every launch once")
        }
    }
}
