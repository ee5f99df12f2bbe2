import GraphQL
import PagingTesting
import Testing

@testable import LaunchServer

/// `launchConnection` against the GraphQL Cursor Connections Specification, on the 100 real
/// launches (ids 1 to 100, in date order: the list runs 100, 99, …, 1).
@Suite("The Relay connection")
struct RelayConnectionTests {
    func page(_ server: LaunchServer, _ arguments: String) async throws -> RelayPage {
        try await server.launchConnection(arguments)
    }

    func ids(_ range: ClosedRange<Int>) -> [String] {
        range.reversed().map(String.init)
    }

    @Test("pages forward with first and after, in list order, to the end")
    func pagesForward() async throws {
        try await withLaunchServer { server in
            var seen: [String] = []
            var after: String?
            var pages = 0
            repeat {
                let arguments = after.map { "first: 30, after: \"\($0)\"" } ?? "first: 30"
                let page = try await page(server, arguments)
                #expect(page.pageInfo.hasPreviousPage == (after != nil))
                #expect(page.pageInfo.startCursor == page.edges.first?.cursor)
                #expect(page.pageInfo.endCursor == page.edges.last?.cursor)
                #expect(page.totalCount == 100)
                seen += page.ids
                pages += 1
                after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : nil
            } while after != nil
            #expect(pages == 4)
            #expect(seen == ids(1...100))
        }
    }

    @Test("pages backward with last and before; edges stay in list order")
    func pagesBackward() async throws {
        try await withLaunchServer { server in
            let last = try await page(server, "last: 10")
            #expect(last.ids == ids(1...10))
            #expect(last.pageInfo.hasPreviousPage)
            #expect(!last.pageInfo.hasNextPage)

            var seen = last.ids
            var before = last.pageInfo.startCursor
            while let cursor = before {
                let page = try await page(server, "last: 25, before: \"\(cursor)\"")
                #expect(page.pageInfo.hasNextPage, "launches follow a before cursor")
                seen = page.ids + seen
                before = page.pageInfo.hasPreviousPage ? page.pageInfo.startCursor : nil
            }
            #expect(seen == ids(1...100))
        }
    }

    @Test("takes both cursors as a range, from either end")
    func takesBothCursors() async throws {
        try await withLaunchServer { server in
            let all = try await page(server, "first: 100")
            let cursor = Dictionary(uniqueKeysWithValues: all.edges.map { ($0.node.id, $0.cursor) })
            let after = try #require(cursor["90"])
            let before = try #require(cursor["80"])

            let whole = try await page(server, "first: 100, after: \"\(after)\", before: \"\(before)\"")
            #expect(whole.ids == ids(81...89))
            #expect(!whole.pageInfo.hasNextPage, "first is not exceeded within the range")
            #expect(whole.pageInfo.hasPreviousPage, "launches exist before the after cursor")

            let head = try await page(server, "first: 3, after: \"\(after)\", before: \"\(before)\"")
            #expect(head.ids == ["89", "88", "87"])
            #expect(head.pageInfo.hasNextPage)

            let tail = try await page(server, "last: 3, after: \"\(after)\", before: \"\(before)\"")
            #expect(tail.ids == ["83", "82", "81"])
            #expect(tail.pageInfo.hasPreviousPage)
            #expect(tail.pageInfo.hasNextPage, "launches exist after the before cursor")
        }
    }

    @Test("first and last pages report their ends")
    func reportsTheEnds() async throws {
        try await withLaunchServer { server in
            let first = try await page(server, "first: 100")
            #expect(first.ids == ids(1...100))
            #expect(!first.pageInfo.hasNextPage && !first.pageInfo.hasPreviousPage)

            let last = try await page(server, "last: 100")
            #expect(last.ids == ids(1...100))
            #expect(!last.pageInfo.hasNextPage && !last.pageInfo.hasPreviousPage)

            let newest = try await page(
                server, "last: 1, before: \"\(try #require(first.edges.last?.cursor))\"")
            #expect(newest.ids == ["2"])
        }
    }

    @Test("empty results have null cursors and the spec's flags")
    func handlesEmptyResults() async throws {
        try await withLaunchServer { server in
            let none = try await page(server, "first: 0")
            #expect(none.edges.isEmpty)
            #expect(
                none.pageInfo
                    == RelayPage.Info(
                        hasNextPage: true, hasPreviousPage: false, startCursor: nil, endCursor: nil))

            let all = try await page(server, "first: 100")
            let oldest = try #require(all.pageInfo.endCursor)
            let beyond = try await page(server, "first: 10, after: \"\(oldest)\"")
            #expect(beyond.edges.isEmpty)
            #expect(!beyond.pageInfo.hasNextPage)
            #expect(beyond.pageInfo.hasPreviousPage)
        }
        try await withLaunchServer({ $0.dataset = .empty }) { server in
            let page = try await page(server, "first: 10")
            #expect(page.edges.isEmpty)
            #expect(page.totalCount == 0)
            #expect(!page.pageInfo.hasNextPage && !page.pageInfo.hasPreviousPage)
        }
    }

    @Test("a cursor whose launch was deleted still pages from where the launch stood")
    func survivesDeletion() async throws {
        try await withLaunchServer { server in
            let first = try await page(server, "first: 51")
            let cursor = try #require(first.pageInfo.endCursor)
            #expect(first.ids.last == "50")
            #expect(try await server.store.delete(number: 50))

            let after = try await page(server, "first: 3, after: \"\(cursor)\"")
            #expect(after.ids == ["49", "48", "47"])
            #expect(after.totalCount == 99)
            let before = try await page(server, "last: 2, before: \"\(cursor)\"")
            #expect(before.ids == ["52", "51"])
        }
    }

    @Test("launches added at the head while paging are neither skipped nor repeated")
    func toleratesInsertionsAtTheHead() async throws {
        try await withLaunchServer { server in
            let first = try await page(server, "first: 10")
            for index in 1...3 {
                _ = try await server.store.add(
                    missionName: "New \(index)", site: nil, rocketID: "falcon9", launchDate: nil)
            }
            var seen = first.ids
            var after = first.pageInfo.endCursor
            while let cursor = after {
                let page = try await page(server, "first: 7, after: \"\(cursor)\"")
                #expect(page.totalCount == 103)
                seen += page.ids
                after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : nil
            }
            #expect(seen == ids(1...100))

            let newer = try await page(
                server, "last: 10, before: \"\(try #require(first.pageInfo.startCursor))\"")
            #expect(newer.ids == ["103", "102", "101"])
            #expect(!newer.pageInfo.hasPreviousPage)
        }
    }

    @Test("random page sizes with random insertions and deletions keep every survivor exactly once")
    func randomizedMutationsWhilePaging() async throws {
        for seed in [UInt64(7), 42, 2026] {
            print("RelayConnectionTests.randomizedMutationsWhilePaging seed: \(seed)")
            var random = SeededGenerator(seed: seed)
            try await withLaunchServer { server in
                var seen: [String] = []
                var deleted: Set<String> = []
                var after: String?
                repeat {
                    let size = Int(random.next() % 17) + (after == nil ? 1 : 0)
                    let arguments = "first: \(size)" + (after.map { ", after: \"\($0)\"" } ?? "")
                    let page = try await page(server, arguments)
                    seen += page.ids
                    after = page.edges.isEmpty ? after : page.pageInfo.endCursor
                    if random.next() % 3 == 0 {
                        _ = try await server.store.add(
                            missionName: "Head", site: nil, rocketID: "falcon1", launchDate: nil)
                    }
                    if random.next() % 3 == 0 {
                        // Delete a launch not seen yet, somewhere ahead in the list.
                        let candidates = (1...100).map(String.init).filter {
                            !seen.contains($0) && !deleted.contains($0)
                        }
                        if let victim = candidates.randomElement(using: &random), let number = Int64(victim) {
                            #expect(try await server.store.delete(number: number))
                            deleted.insert(victim)
                        }
                    }
                    if !page.pageInfo.hasNextPage { break }
                } while true
                #expect(seen == ids(1...100).filter { !deleted.contains($0) }, "seed \(seed)")
            }
        }
    }

    @Test("ties on the launch date are broken by id, so synthetic data pages without loss")
    func breaksDateTies() async throws {
        try await withLaunchServer({ $0.dataset = .synthetic(count: 500) }) { server in
            var seen: [String] = []
            var after: String?
            repeat {
                let arguments = "first: 7" + (after.map { ", after: \"\($0)\"" } ?? "")
                let page = try await page(server, arguments)
                seen += page.ids
                after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : nil
            } while after != nil
            let expected = LaunchGenerator(count: 500).sorted {
                ($0.launchDate, $0.number) > ($1.launchDate, $1.number)
            }
            #expect(seen == expected.map { String($0.number) })
            #expect(Set(LaunchGenerator(count: 500).map(\.launchDate)).count < 500, "the data has ties")
        }
    }
}
