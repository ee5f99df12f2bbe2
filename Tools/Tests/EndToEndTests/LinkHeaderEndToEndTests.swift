import Foundation
import LaunchServer
import Paging
import Testing

/// The GitHub-style list, `GET /api/launches?per_page=N&page=P` with RFC 8288 `Link`
/// headers, paged by following `rel="next"` (`NextTokenSource`) and by page number with the
/// `rel="last"` link (`PageNumberSource`), on URLSession against the server on loopback.
@Suite("The Link-header list, end to end", .timeLimit(.minutes(30)))
struct LinkHeaderEndToEndTests {
    @Test(
        "Following rel=\"next\" loads every launch once and stops where the server gives no next link",
        arguments: [7, 30, 100])
    func followsNextLinks(perPage: Int) async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let rest = server.rest
            let source = NextTokenSource<URL, RESTLaunch> { next, count in
                let page = try await rest.listPage(next ?? rest.firstListURL(perPage: count))
                return TokenPage(items: page.launches, nextToken: page.links["next"])
            }
            let pager = source.makePager(configuration: try PagingConfiguration(pageSize: perPage))
            var pages = 0
            while pager.hasNext, !Task.isCancelled {
                #expect(try await pager.loadNext().value == .loaded)
                pages += 1
            }
            #expect(pager.items.ids == expected)
            #expect(pages == (expected.count + perPage - 1) / perPage)
        }
    }

    @Test(
        "Paging by number with the rel=\"last\" link loads every launch once, also when opened at a middle page",
        arguments: [25, 30])
    func pagesByNumber(perPage: Int) async throws {
        let expected = try ReferenceLaunches.ids()
        try await withLaunchServer { server in
            let rest = server.rest
            let source = try PageNumberSource<RESTLaunch>(pageSize: perPage) { number, perPage in
                guard
                    let url = URL(
                        string:
                            "\(rest.baseURL.absoluteString)/api/launches?per_page=\(perPage)&page=\(number)")
                else { throw UnexpectedResponse("cannot make the URL of page \(number)") }
                let page = try await rest.listPage(url)
                // The last page has no `last` link; that no `next` link follows it says so.
                let last =
                    page.links["last"].flatMap(LinkHeader.pageNumber)
                    ?? (page.links["next"] == nil ? number : nil)
                return NumberedPage(items: page.launches, lastPage: last)
            }
            let fromStart = source.makePager()
            var requests = 0
            while fromStart.hasNext, !Task.isCancelled {
                #expect(try await fromStart.loadNext().value == .loaded)
                requests += 1
            }
            #expect(fromStart.items.ids == expected)
            // No request past the last page, even when the last page is full.
            #expect(requests == (expected.count + perPage - 1) / perPage)

            let fromMiddle = source.makePager(initialKey: 3)
            #expect(try await fromMiddle.loadNext().value == .loaded)
            #expect(fromMiddle.items.ids == Array(expected[(2 * perPage)..<(3 * perPage)]))
            try await Drive.toEnd(fromMiddle, .previous)
            try await Drive.toEnd(fromMiddle, .next)
            #expect(fromMiddle.items.ids == expected)
        }
    }

    @Test("The Link header names first, prev, next and last as RFC 8288 reads them")
    func linkRelations() async throws {
        try await withLaunchServer { server in
            let rest = server.rest
            let first = try await rest.listPage(rest.firstListURL(perPage: 30))
            #expect(Set(first.links.keys) == ["next", "last"])
            #expect(first.links["next"].flatMap(LinkHeader.pageNumber) == 2)
            #expect(first.links["last"].flatMap(LinkHeader.pageNumber) == 4)
            let second = try await rest.listPage(try #require(first.links["next"]))
            #expect(Set(second.links.keys) == ["first", "prev", "next", "last"])
            #expect(second.links["prev"].flatMap(LinkHeader.pageNumber) == 1)
            let last = try await rest.listPage(try #require(first.links["last"]))
            #expect(Set(last.links.keys) == ["first", "prev"])
            #expect(last.launches.count == 10)
        }
    }
}
