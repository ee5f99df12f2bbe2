import Foundation
import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQLClient

/// A subscription's results go into the client's store as a mutation's answer does, mutation
/// directives included, so the lists that follow the store show them.
@Suite("Subscriptions write to the store", .timeLimit(.minutes(HangLimit.minutes(1))))
struct SubscriptionStoreTests {
    static let launchAdded = UntypedOperation(
        document: """
            subscription LaunchAdded {
              launchAdded {
                edge @prependEdge(connections: ["\(PagerFollowsStoreTests.key)"]) {
                  cursor node { \(FollowedLaunch.selection) }
                }
              }
            }
            """,
        operationName: "LaunchAdded")

    static func added(_ node: JSONValue) -> JSONValue {
        [
            "launchAdded": [
                "__typename": "LaunchAddedPayload",
                "edge": ["__typename": "LaunchEdge", "cursor": "cursor:new", "node": node],
            ]
        ]
    }

    static func node(_ id: String, site: String) -> JSONValue {
        [
            "__typename": "Launch", "id": .string(id), "site": .string(site), "isBooked": false,
            "rocket": ["__typename": "Rocket", "id": "falcon9", "name": "Falcon 9"],
        ]
    }

    @Test("a @prependEdge subscription puts the new launch at the head of a held list, once, with no request")
    func prependEdgeUpdatesAHeldList() async throws {
        let fleet = LaunchFleet(count: 9)
        let store = GraphQLStore()
        let harness = try SubscriptionHarness(store: store, transport: fleet.server)
        let pager = try await PagerFollowsStoreTests.loadedList(harness.client)
        #expect(pager.items.map(\.id) == ["1", "2", "3", "4", "5", "6"])
        let requests = fleet.requestCount

        var responses = harness.client.subscribe(Self.launchAdded).makeAsyncIterator()
        let socket = try await harness.connect()
        let subscribe = try await socket.nextMessage("subscribe")
        let query = try #require(subscribe["payload"]?["query"]?.stringValue)
        #expect(!query.contains("@prependEdge"), "the directive stays on the client: \(query)")
        #expect(query.contains("__typename"), "the store's rewrite is what is sent")

        let changes = try await pager.changes {
            socket.push(nextMessage("1", Self.added(Self.node("10", site: "Boca Chica"))))
            let response = try #require(try await responses.next())
            #expect(response.storeError == nil)
            #expect(response.data?["launchAdded"]?["edge"]?["node"]?["id"] == "10")
        }
        #expect(changes == [ListChange(inserted: [0..<1])])
        #expect(pager.items.map(\.id) == ["10", "1", "2", "3", "4", "5", "6"])
        #expect(pager.items.first?.site == "Boca Chica")

        // The same launch again (a resubscription's replay, say) is not shown twice.
        let repeated = try await pager.changes {
            socket.push(nextMessage("1", Self.added(Self.node("10", site: "Boca Chica, pad 39A"))))
            _ = try await responses.next()
        }
        #expect(pager.items.map(\.id) == ["10", "1", "2", "3", "4", "5", "6"])
        #expect(pager.items.first?.site == "Boca Chica, pad 39A")
        #expect(repeated.allSatisfy { $0.inserted.isEmpty })
        #expect(fleet.requestCount == requests, "the list made no request")
    }

    @Test("a result the store cannot take is delivered, with the store's error")
    func storeErrorIsReported() async throws {
        let store = GraphQLStore()
        let harness = try SubscriptionHarness(store: store)
        var responses = harness.client.subscribe(Self.launchAdded).makeAsyncIterator()
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        socket.push(
            nextMessage("1", ["launchAdded": ["__typename": "LaunchAddedPayload", "edge": ["cursor": "c"]]]))
        let response = try #require(try await responses.next())
        #expect(response.storeError != nil)
        #expect(response.data?["launchAdded"]?["edge"]?["cursor"] == "c")
    }
}
