import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import Testing

/// RelaySwiftUI's `@PaginationFragment`: a fragment on `Rocket` with `@refetchable` and a
/// `@connection` over `Rocket.launches`, paged through its refetch query
/// (`node(id:) { ...Fragment }`) and shown by the engine's `PagedList`, against the server on
/// loopback. Requests are held at the server with a gate, so that the loading flags are read
/// while a load is certainly in flight.
@MainActor
@Suite("Relay pagination fragments through PagedList, end to end", .timeLimit(.minutes(30)))
struct PaginationFragmentEndToEndTests {
    static let fragmentText = """
        fragment RocketLaunches_rocket on Rocket
          @refetchable(queryName: "RocketLaunchesPaginationQuery")
          @argumentDefinitions(
            count: { type: "Int", defaultValue: 5 }
            cursor: { type: "String" }
            last: { type: "Int" }
            before: { type: "String" }
          ) {
          name
          launches(first: $count, after: $cursor, last: $last, before: $before)
            @connection(key: "RocketLaunches_launches") {
            edges { node { \(Launch.selection) } }
          }
        }
        """

    /// The Falcon 9 launches, newest first.
    static func falcon9() throws -> [String] {
        try ReferenceLaunches.newestFirst().filter { $0.rocket_id == "falcon9" }.map(\.id)
    }

    @Test("The refetch query finds the rocket with node(id:) and pages its launches")
    func refetchQuery() throws {
        let fragment = try PaginationFragmentDocument(Self.fragmentText)
        #expect(fragment.queryName == "RocketLaunchesPaginationQuery")
        #expect(fragment.root == .node)
        #expect(fragment.refetchQuery.connectionPath == [.key("node"), .key("launches")])
        #expect(fragment.refetchQuery.variables.pagesForward)
        #expect(fragment.refetchQuery.variables.pagesBackward)
    }

    @Test("loadNext(count:) pages to the end, with isRefreshing, isLoadingNext and hasNext as Relay's")
    func loadNextToTheEnd() async throws {
        let expected = try Self.falcon9()
        let fragment = try PaginationFragmentDocument(Self.fragmentText)
        let gate = RequestGate()
        try await withLaunchServer(gate: gate) { server in
            let list = try PaginationFragment(
                fragment, nodeID: "falcon9", client: server.client, as: Launch.self
            )
            .makeList()
            #expect(list.items.isEmpty)
            #expect(list.hasNext)
            #expect(!list.isLoadingNext && !list.isLoadingPrevious && !list.isRefreshing)

            gate.close()
            let first = list.loadNext(count: 5)
            // The first load replaces the list, so it shows as a refresh.
            #expect(list.isRefreshing)
            gate.open()
            #expect(try await first.value == .loaded)
            #expect(!list.isRefreshing)
            #expect(list.items.ids == Array(expected.prefix(5)))
            #expect(list.hasNext)
            #expect(!list.hasPrevious)

            gate.close()
            let second = list.loadNext(count: 10)
            #expect(list.isLoadingNext)
            #expect(!list.isLoadingPrevious)
            gate.open()
            #expect(try await second.value == .loaded)
            #expect(!list.isLoadingNext)
            #expect(list.items.ids == Array(expected.prefix(15)))

            while list.hasNext, !Task.isCancelled {
                #expect(try await list.loadNext(count: 10).value == .loaded)
            }
            #expect(list.items.ids == expected)
            #expect(list.loadStates.next == .endReached)
            #expect(!list.hasPrevious)
        }
    }

    @Test(
        "Opened at a cursor, loadPrevious(count:) and loadNext(count:) page to both ends with isLoadingPrevious and hasPrevious"
    )
    func loadPreviousFromTheMiddle() async throws {
        let expected = try Self.falcon9()
        let fragment = try PaginationFragmentDocument(Self.fragmentText)
        let gate = RequestGate()
        try await withLaunchServer(gate: gate) { server in
            let client = server.client
            // The cursor of the 20th Falcon 9 launch, as a deep link would carry it.
            let probe = try await client.send(
                UntypedOperation(
                    document: """
                        query { node(id: "falcon9") { ... on Rocket { launches(first: 20) { edges { cursor } } } } }
                        """))
            let cursor = try #require(probe.data?["node"]?["launches"]?["edges"]?[19]?["cursor"]?.stringValue)

            let list = try PaginationFragment(fragment, nodeID: "falcon9", client: client, as: Launch.self)
                .makeList(initialKey: cursor)
            #expect(try await list.loadNext(count: 5).value == .loaded)
            #expect(list.items.ids == Array(expected[20..<25]))
            #expect(list.hasPrevious)
            #expect(list.hasNext)

            gate.close()
            let previous = list.loadPrevious(count: 5)
            #expect(list.isLoadingPrevious)
            #expect(!list.isLoadingNext)
            gate.open()
            #expect(try await previous.value == .loaded)
            #expect(!list.isLoadingPrevious)
            #expect(list.items.ids == Array(expected[15..<25]))

            while list.hasPrevious, !Task.isCancelled {
                #expect(try await list.loadPrevious(count: 6).value == .loaded)
            }
            #expect(list.loadStates.previous == .endReached)
            #expect(list.items.ids == Array(expected.prefix(25)))
            while list.hasNext, !Task.isCancelled {
                #expect(try await list.loadNext(count: 8).value == .loaded)
            }
            #expect(list.items.ids == expected)
            #expect(!list.hasNext && !list.hasPrevious)
        }
    }

    @Test("A booked trip shows at once as a local edit of its row, without a refetch")
    func mutationShownByLocalEdit() async throws {
        let expected = try Self.falcon9()
        let fragment = try PaginationFragmentDocument(Self.fragmentText)
        try await withLaunchServer { server in
            let client = server.client
            let list = try PaginationFragment(fragment, nodeID: "falcon9", client: client, as: Launch.self)
                .makeList()
            #expect(try await list.loadNext(count: 10).value == .loaded)
            let target = list.items[3]
            #expect(target.isBooked == false)
            let response = try await client.send(BookTripsMutation(launchIds: [target.id]))
            let booked = try #require(response.data?.bookTrips.launches?.first)
            #expect(booked.id == target.id && booked.isBooked == true)
            // No normalized store watches the records, so the app applies the result itself.
            #expect(list.update(booked))
            #expect(list.items[3].isBooked == true)
            #expect(list.lastChange.updated == [3..<4])
            #expect(list.items.ids == Array(expected.prefix(10)))
        }
    }
}
