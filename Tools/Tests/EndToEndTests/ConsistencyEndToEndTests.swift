import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import Testing

/// Paging while the data changes: launches added at the head (`addLaunch`) and launches
/// deleted (`deleteLaunch`) between the pages a client loads.
@Suite("Paging while the list changes, end to end", .timeLimit(.minutes(30)))
struct ConsistencyEndToEndTests {
    /// A forward Relay source over `launchConnection`.
    static func relaySource(_ client: GraphQLClient) -> RelayCursorSource<Launch> {
        RelayCursorSource(.bidirectional) { arguments in
            let query = LaunchConnectionQuery(
                first: arguments.first, after: arguments.after, last: arguments.last, before: arguments.before
            )
            guard let connection = try await client.send(query).data?.launchConnection else {
                throw UnexpectedResponse("launchConnection returned no connection")
            }
            let info = connection.pageInfo
            return RelayPage(
                items: Array(connection),
                pageInfo: PageInfo(
                    hasNextPage: info.hasNextPage, hasPreviousPage: info.hasPreviousPage,
                    startCursor: info.startCursor, endCursor: info.endCursor))
        }
    }

    @Test(
        "Launches added at the head while a cursor pager pages forward: no original launch skipped or shown twice"
    )
    func headInsertionsWithCursors() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let client = server.client
            let relay = Self.relaySource(client).makePager(
                configuration: try PagingConfiguration(pageSize: 10))
            let tutorial = TutorialEndToEndTests.source(client).makePager(
                configuration: try PagingConfiguration(pageSize: 10))
            #expect(try await relay.loadNext().value == .loaded)
            #expect(try await tutorial.loadNext().value == .loaded)
            var added: [String] = []
            for round in 0..<3 {
                for number in 0..<(round + 1) {
                    added.append(try await client.addLaunch("Head \(round)-\(number)").id)
                }
                #expect(try await relay.loadNext().value == .loaded)
                #expect(try await tutorial.loadNext().value == .loaded)
            }
            try await Drive.toEnd(relay)
            try await Drive.toEnd(tutorial)
            #expect(relay.items.ids == expected)
            #expect(tutorial.items.ids == expected)
            #expect(Set(relay.items.ids).isDisjoint(with: added))

            // The added launches are at the head: paging backward from the first page finds them.
            #expect(relay.hasPrevious == false)  // the first page said no launch preceded it then
            let refreshed = try await relay.refresh().value
            #expect(refreshed == .loaded)
            #expect(relay.items.ids == Array((added.reversed() + expected).prefix(10)))
        }
    }

    @Test(
        "Launches added at the head while an offset pager pages forward move its offsets: the drift check starts the next page right after the launches held, with no repeat"
    )
    func headInsertionsWithOffsets() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let client = server.client
            let source = OffsetSource<Launch>(.forward) { offset, limit in
                guard
                    let page = try await client.send(LaunchPageQuery(offset: offset, limit: limit)).data?
                        .launchPage
                else { throw UnexpectedResponse("launchPage returned no page") }
                return OffsetPage(items: page.launches, totalCount: page.totalCount)
            }
            let pager = source.makePager(configuration: try PagingConfiguration(pageSize: 10))
            #expect(try await pager.loadNext().value == .loaded)
            for number in 0..<3 {
                _ = try await client.addLaunch("Head \(number)")
            }
            #expect(try await pager.loadNext().value == .loaded)
            // Offsets shifted by three: the second page would start with the last three of the first;
            // the check finds the last held launch three further on and starts after it.
            #expect(pager.snapshot.duplicatesDropped == 0)
            #expect(pager.snapshot.drift == PageDrift(direction: .next, shift: 3, resynchronized: true))
            #expect(pager.items.count > 10)
            #expect(pager.items.ids == Array(expected.prefix(pager.items.count)))
            try await Drive.toEnd(pager)
            #expect(pager.items.ids == expected)
        }
    }

    @Test("An end cursor whose launch was deleted still continues forward")
    func deletedCursorContinues() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let client = server.client
            let pager = Self.relaySource(client).makePager(
                configuration: try PagingConfiguration(pageSize: 10))
            #expect(try await pager.loadNext().value == .loaded)
            // Delete the launch of the end cursor and the first launch of the next page.
            try await client.deleteLaunch(id: expected[9])
            try await client.deleteLaunch(id: expected[10])
            #expect(try await pager.loadNext().value == .loaded)
            #expect(pager.items.ids == Array(expected[0..<10] + expected[11..<21]))
            try await Drive.toEnd(pager)
            #expect(pager.items.ids == expected.filter { $0 != expected[10] })
        }
    }

    @Test("A start cursor whose launch was deleted still continues backward")
    func deletedStartCursorContinues() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let client = server.client
            let (cursor, _) = try await client.cursor(ofLaunchAt: 59)
            let pager = Self.relaySource(client).makePager(
                initialKey: cursor, configuration: try PagingConfiguration(pageSize: 10))
            #expect(try await pager.loadNext().value == .loaded)
            #expect(pager.items.ids == Array(expected[60..<70]))
            // Delete the launch of the start cursor and the one before it.
            try await client.deleteLaunch(id: expected[60])
            try await client.deleteLaunch(id: expected[59])
            #expect(try await pager.loadPrevious().value == .loaded)
            #expect(pager.items.ids == Array(expected[49..<59] + expected[60..<70]))
            try await Drive.toEnd(pager, .previous)
            try await Drive.toEnd(pager, .next)
            #expect(pager.items.ids == expected.filter { $0 != expected[59] })
        }
    }

    @Test("Launches that share their launch second are each paged once, even one per page")
    func launchesSharingASecond() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let client = server.client
            var twins: [String] = []
            for number in 0..<3 {
                let added = try await client.send(
                    AddLaunchMutation(missionName: "Twin \(number)", launchDate: "2030-01-01T00:00:00Z"))
                twins.append(try #require(added.data?.addLaunch.id))
            }
            // Same second: the list orders them by id, newest (greatest) first.
            let head = twins.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
            let relay = Self.relaySource(client).makePager(
                configuration: try PagingConfiguration(pageSize: 1))
            let tutorial = TutorialEndToEndTests.source(client).makePager(
                configuration: try PagingConfiguration(pageSize: 1))
            try await Drive.toEnd(relay)
            try await Drive.toEnd(tutorial)
            #expect(relay.items.ids == head + expected)
            #expect(tutorial.items.ids == head + expected)
        }
    }
}
