import Foundation
import LaunchServer
import Paging
import Testing

/// Makestagram's `MGPaginationHelper` over Firebase: `InclusiveBoundarySource` over the
/// server's `GET /timeline.json?orderBy="$key"&limitToLast=N&endAt="KEY"`, on URLSession.
@Suite("The Makestagram timeline over Firebase REST queries, end to end", .timeLimit(.minutes(30)))
struct TimelineEndToEndTests {
    static func source(_ rest: RESTClient) -> InclusiveBoundarySource<String, RESTLaunch> {
        InclusiveBoundarySource { limitToLast, endAt in
            try await rest.timeline(limitToLast: limitToLast, endAt: endAt)
        }
    }

    @Test(
        "Paging the timeline drops each repeated boundary post, ends on a short page, and shows every post once",
        arguments: [1, 7, 10, 25])
    func pagesEveryPostOnce(pageSize: Int) async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let pager = Self.source(server.rest).makePager(
                configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0))
            var pageSizes: [Int] = []
            var before = 0
            while pager.hasNext, !Task.isCancelled {
                #expect(try await pager.loadNext().value == .loaded)
                pageSizes.append(pager.items.count - before)
                before = pager.items.count
            }
            #expect(pager.items.ids == expected)
            #expect(Set(pager.items.ids).count == expected.count)
            #expect(pager.snapshot.duplicatesDropped == 0)
            // Every page but the last is full; the last is the short one (empty when the
            // posts divide into pages: only the boundary came back).
            #expect(pageSizes.dropLast().allSatisfy { $0 == pageSize })
            #expect(try #require(pageSizes.last) < pageSize)
            #expect(pager.loadStates.next == .endReached)
            #expect(pager.items.last?.missionName == "FalconSat")
        }
    }

    @Test("Reporting the rows that appear loads the next page by itself, as the table view did")
    func appearingRowsLoadMore() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let pager = Self.source(server.rest).makePager(
                configuration: try PagingConfiguration(pageSize: 10, prefetchDistance: 0))
            #expect(try await pager.loadNext().value == .loaded)
            // The last row appears: the next page loads; wait for it through the snapshots.
            var snapshots = pager.snapshots.makeAsyncIterator()
            pager.itemAppeared(at: 9)
            while let snapshot = await snapshots.next(), snapshot.items.count < 20 {}
            #expect(pager.items.ids == Array(expected.prefix(20)))
        }
    }

    @Test("A refresh starts over with the first page, as reloadData did, and shows a post added meanwhile")
    func refreshStartsOver() async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let pager = Self.source(server.rest).makePager(
                configuration: try PagingConfiguration(pageSize: 10, prefetchDistance: 0))
            try await Drive.toEnd(pager)
            #expect(pager.items.count == expected.count)

            let added = try await server.client.addLaunch("Timeline refresh")
            #expect(try await pager.refresh().value == .loaded)
            #expect(pager.items.ids == [added.id] + expected.prefix(9))
            #expect(pager.hasNext)
            #expect(
                pager.loadStates == LoadStates(refresh: .notLoading, previous: .endReached, next: .notLoading)
            )

            try await Drive.toEnd(pager)
            #expect(pager.items.ids == [added.id] + expected)
        }
    }
}
