import Foundation
import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQLClient

/// `LiveList`: a paged list kept live by a subscription, caught up by a head refresh each time
/// the subscription is in place, so that no item is missed across a reconnection and none shows
/// twice.
@Suite("Live lists", .timeLimit(.minutes(HangLimit.minutes(1))))
struct LiveListTests {
    /// Adds a launch at the top of the fleet's table, as another client would.
    @discardableResult
    static func addLaunch(_ fleet: LaunchFleet, site: String) async throws -> String {
        let other = GraphQLClient(endpoint: testEndpoint, transport: fleet.server)
        let response = try await other.send(
            FleetMutations.addLaunch(
                site: site, rocketID: "falcon9", directive: "prependNode", connection: "none"))
        return try #require(response.data?["addLaunch"]?["id"]?.stringValue)
    }

    /// The `next` message announcing a launch of the fleet.
    static func announce(_ fleet: LaunchFleet, _ id: String) throws -> JSONValue {
        nextMessage("1", SubscriptionStoreTests.added(try #require(fleet.json(of: id))))
    }

    /// Accepts a connection and plays the server's side up to the subscription in place: the
    /// `subscribe`, then the `pong` for the client's `ping`.
    static func subscribed(_ harness: SubscriptionHarness) async throws -> ScriptedSocket {
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        _ = try await socket.nextMessage("ping")
        socket.push(["type": "pong"])
        return socket
    }

    @Test(
        "items added before the subscription, while disconnected and during the catch-up show once, in order")
    func noGapAcrossAReconnection() async throws {
        let fleet = LaunchFleet(count: 9)
        let harness = try SubscriptionHarness(
            store: GraphQLStore(), transport: fleet.server, answersPings: false)
        let pager = try await PagerFollowsStoreTests.loadedList(harness.client)
        #expect(pager.items.map(\.id) == ["1", "2", "3", "4", "5", "6"])
        // Added after the list loaded, before any subscription: only a catch-up brings it.
        let early = try await Self.addLaunch(fleet, site: "Early")
        let live = LiveList(
            pager: pager, client: harness.client, subscription: SubscriptionStoreTests.launchAdded)
        let running = Task { try await live.run() }
        defer { running.cancel() }

        var socket = try await Self.subscribed(harness)
        var snapshot = await pager.until { $0.items.first?.id == early && !$0.loadStates.refresh.isLoading }
        #expect(snapshot?.items.map(\.id) == [early, "1", "2", "3", "4", "5", "6"])

        // Live: an event puts its launch at the top, with no request.
        let requests = fleet.requestCount
        let live1 = try await Self.addLaunch(fleet, site: "Live")
        socket.push(try Self.announce(fleet, live1))
        snapshot = await pager.until { $0.items.first?.id == live1 }
        #expect(fleet.requestCount == requests + 1, "only the other client's mutation")

        // The connection drops; four launches are added while it is down, more than a page.
        socket.drop()
        await harness.sleeps.nextArrival().open()
        var missed: [String] = []
        for name in ["A", "B", "C", "D"] {
            missed.append(try await Self.addLaunch(fleet, site: "Missed \(name)"))
        }
        // Back: a launch is announced before the pong, so before the catch-up starts. It is on the
        // catch-up's first page, but is no place to splice it: the missed launches lie below it.
        socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        _ = try await socket.nextMessage("ping")
        let early2 = try await Self.addLaunch(fleet, site: "Before the pong")
        socket.push(try Self.announce(fleet, early2))
        snapshot = await pager.until { $0.items.first?.id == early2 }
        // The catch-up's pages are answered as asked and held; a launch announced meanwhile must
        // survive the splice of pages that do not have it.
        fleet.server.hold { $0.operationName == "Launches" }
        let before = fleet.requestCount
        socket.push(["type": "pong"])
        await fleet.server.waitForRequests(before + 1)
        let during = try await Self.addLaunch(fleet, site: "During")
        socket.push(try Self.announce(fleet, during))
        snapshot = await pager.until { $0.items.first?.id == during }
        // The pages after the first go through at once.
        fleet.server.release()
        snapshot = await pager.until { !$0.loadStates.refresh.isLoading }

        let expected = [during, early2] + missed.reversed() + [live1, early, "1", "2", "3", "4", "5", "6"]
        #expect(snapshot?.items.map(\.id) == expected)
        #expect(Array(fleet.ids.prefix(expected.count)) == expected, "the server's order")
        #expect(Set(pager.items.map(\.id)).count == pager.items.count, "each launch once")
    }

    @Test("a list that does not follow the store takes each event's edits, and they outlive a catch-up")
    func editsWithoutAStore() async throws {
        let fleet = LaunchFleet(count: 9)
        let harness = try SubscriptionHarness(transport: fleet.server, answersPings: false)
        let pager = try await PagerFollowsStoreTests.loadedList(harness.client)
        let live = LiveList(
            pager: pager, client: harness.client, subscription: SubscriptionStoreTests.launchAdded,
            edits: { response in
                guard let node = response.data?["launchAdded"]?["edge"]?["node"],
                    let launch = try? node.decode(FollowedLaunch.self)
                else { return [] }
                return [.insert(launch, at: .first)]
            })
        fleet.server.hold { $0.operationName == "Launches" }
        let running = Task { try await live.run() }
        defer { running.cancel() }
        let socket = try await Self.subscribed(harness)
        // The first catch-up is held, answered before the launch below was added.
        await fleet.server.waitForRequests(3)
        let added = try await Self.addLaunch(fleet, site: "Announced")
        socket.push(try Self.announce(fleet, added))
        _ = await pager.until { $0.items.first?.id == added }
        fleet.server.release()
        let snapshot = await pager.until { !$0.loadStates.refresh.isLoading }
        #expect(snapshot?.items.map(\.id) == [added, "1", "2", "3", "4", "5", "6"])
    }

    @Test("the server's complete ends run(); its error ends it with the error")
    func runEnds() async throws {
        let harness = try SubscriptionHarness(
            store: GraphQLStore(), transport: LaunchFleet(count: 3).server, answersPings: false)
        let pager = try await PagerFollowsStoreTests.loadedList(harness.client, pages: 1)
        let live = LiveList(
            pager: pager, client: harness.client, subscription: SubscriptionStoreTests.launchAdded)
        let running = Task { try await live.run() }
        let socket = try await Self.subscribed(harness)
        socket.push(["type": "complete", "id": "1"])
        try await running.value

        // The client closed the connection after its last subscription: a new one opens.
        let failing = Task { try await live.run() }
        let next = try await harness.connect()
        _ = try await next.nextMessage("subscribe")
        next.push(["type": "error", "id": "1", "payload": [["message": "no such field"]]])
        await #expect(throws: GraphQLSubscriptionError.self) { try await failing.value }
    }
}

extension Pager {
    /// The first snapshot, from the current one on, that satisfies a condition.
    func until(_ condition: @Sendable (PagingSnapshot<Item>) -> Bool) async -> PagingSnapshot<Item>? {
        for await snapshot in snapshots where condition(snapshot) { return snapshot }
        return nil
    }
}
