import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import Testing
import ToolsLock

/// The Apollo iOS tutorial's "Paginate results": `launches(pageSize:after:)` through
/// `HasMoreCursorSource` and `GraphQLClient`, against the server on loopback.
@Suite("The Apollo tutorial's launch list, end to end", .timeLimit(.minutes(30)))
struct TutorialEndToEndTests {
    /// The tutorial's source: one `LaunchList` query per page.
    static func source(
        _ client: GraphQLClient, cursorInTransit: @escaping @Sendable (String?) -> String? = { $0 }
    ) -> HasMoreCursorSource<String, Launch> {
        HasMoreCursorSource { pageSize, cursor in
            let query = LaunchListQuery(pageSize: pageSize, after: cursorInTransit(cursor))
            guard let launches = try await client.send(query).data?.launches else {
                throw UnexpectedResponse("LaunchList returned no launches")
            }
            return HasMorePage(items: Array(launches), cursor: launches.cursor, hasMore: launches.hasMore)
        }
    }

    @Test(
        "Loading more until hasMore is false shows every launch once, newest first, ending at FalconSat on Kwajalein Atoll",
        arguments: [1, 7, 20, 100])
    func loadsEveryLaunchOnce(pageSize: Int) async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let pager = Self.source(server.client).makePager(
                configuration: try PagingConfiguration(pageSize: pageSize))
            var pages = 0
            while pager.hasNext, !Task.isCancelled {
                #expect(try await pager.loadNext().value == .loaded)
                pages += 1
            }
            #expect(pager.items.ids == expected)
            #expect(Set(pager.items.ids).count == pager.items.count)
            #expect(pages == (expected.count + pageSize - 1) / pageSize)
            #expect(pager.loadStates.next == .endReached)
            #expect(try await pager.loadNext().value == .endReached)
            let last = try #require(pager.items.last)
            #expect(last.mission?.name == "FalconSat")
            #expect(last.site == "Kwajalein Atoll")
        }
    }

    @Test("The footer goes from the first load to Tap to load more, Loading... and the end")
    func footerStates() async throws {
        let gate = RequestGate()
        try await withLaunchServer(gate: gate) { server in
            let pager = Self.source(server.client).makePager(
                configuration: try PagingConfiguration(pageSize: 40))
            gate.close()
            let first = pager.loadNext()
            // The first load is reported as a refresh; the request is held at the server.
            #expect(pager.loadStates.refresh == .loading)
            #expect(pager.items.isEmpty)
            gate.open()
            #expect(try await first.value == .loaded)
            // "Tap to load more". (The tutorial's list pages forward only: its start is reached.)
            #expect(
                pager.loadStates == LoadStates(refresh: .notLoading, previous: .endReached, next: .notLoading)
            )
            #expect(pager.items.count == 40)

            gate.close()
            let second = pager.loadNext()
            #expect(pager.loadStates.next == .loading)  // "Loading..."
            // A second tap while loading joins the load in flight.
            let tappedAgain = pager.loadNext()
            gate.open()
            #expect(try await second.value == .loaded)
            #expect(try await tappedAgain.value == .loaded)
            #expect(pager.items.count == 80)
            #expect(pager.loadStates.next == .notLoading)

            #expect(try await pager.loadNext().value == .loaded)
            #expect(pager.items.count == 100)
            #expect(pager.loadStates.next == .endReached)
            #expect(!pager.hasNext)
        }
    }

    @Test(
        "A cursor the server cannot decode is a GraphQL error naming `after`; the launches loaded stay and retry goes on"
    )
    func badCursorIsAGraphQLError() async throws {
        let expected = try ReferenceLaunches.ids()
        let mangles = Locked(false)
        try await withLaunchServer { server in
            let source = Self.source(server.client) { cursor in
                // A cursor damaged in transit while `mangles` is set.
                mangles.withLock { $0 } ? cursor.map { String($0.dropLast(3)) + "%%%" } : cursor
            }
            let pager = source.makePager(configuration: try PagingConfiguration(pageSize: 20))
            #expect(try await pager.loadNext().value == .loaded)
            mangles.withLock { $0 = true }
            let error = await #expect(throws: PagingError.self) { try await pager.loadNext().value }
            let clientError = try #require(error?.underlyingError as? GraphQLClientError)
            #expect(clientError.code == .graphQLErrors)
            let graphQLError = try #require(clientError.graphQLErrors.first)
            #expect(graphQLError.message.contains("after"))
            #expect(graphQLError.extensions?["code"] == .string("BAD_USER_INPUT"))
            #expect(pager.items.ids == Array(expected.prefix(20)))
            #expect(pager.loadStates.next.error != nil)

            mangles.withLock { $0 = false }
            #expect(try await pager.retry().value == .loaded)
            #expect(pager.items.ids == Array(expected.prefix(40)))
        }
    }

    @Test("A stopped server is a transport error, told apart from a GraphQL error; the launches loaded stay")
    func stoppedServerIsATransportError() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let pager = Self.source(server.client).makePager(
                configuration: try PagingConfiguration(pageSize: 20))
            #expect(try await pager.loadNext().value == .loaded)
            await server.stop()
            let error = await #expect(throws: PagingError.self) { try await pager.loadNext().value }
            let clientError = try #require(error?.underlyingError as? GraphQLClientError)
            #expect(clientError.code == .transport)
            #expect(clientError.graphQLErrors.isEmpty)
            #expect(pager.items.ids == Array(expected.prefix(20)))
            #expect(pager.loadStates.next.error == error)
        }
    }

    @Test(
        "A refresh while the next page is held at the server cancels that load, and its answer is never applied"
    )
    func refreshCancelsTheLoadInFlight() async throws {
        let expected = try ReferenceLaunches.ids()
        let gate = RequestGate()
        try await withLaunchServer(gate: gate) { server in
            let pager = Self.source(server.client).makePager(
                configuration: try PagingConfiguration(pageSize: 10))
            #expect(try await pager.loadNext().value == .loaded)
            gate.close()
            let next = pager.loadNext()
            #expect(pager.loadStates.next == .loading)
            let refresh = pager.refresh()
            #expect(try await next.value == .cancelled)
            gate.open()
            #expect(try await refresh.value == .loaded)
            #expect(pager.items.ids == Array(expected.prefix(10)))
            #expect(pager.loadStates.next == .notLoading)
            // The list goes on from the refreshed page.
            #expect(try await pager.loadNext().value == .loaded)
            #expect(pager.items.ids == Array(expected.prefix(20)))
        }
    }
}
