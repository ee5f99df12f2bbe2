import Paging
import PagingTesting
import Testing

@Suite("NextTokenSource")
struct NextTokenSourceTests {
    typealias Source = NextTokenSource<String, TestItem>

    struct Fetch: Equatable, Sendable {
        var token: String?
        var count: Int
    }

    /// A list API with opaque page tokens (as Google Drive's `pageToken` /
    /// `nextPageToken`): the fake hands out tokens that mean nothing to the
    /// client and remembers where each one leads.
    final class Backend: Sendable {
        let total: Int
        let fetches = Recorder<Fetch>()
        private let issued = Recorder<(token: String, offset: Int)>()

        init(total: Int) { self.total = total }

        struct UnknownToken: Error {}

        func list(pageToken: String?, pageSize: Int) throws -> TokenPage<String, TestItem> {
            fetches.record(Fetch(token: pageToken, count: pageSize))
            var start = 0
            if let pageToken {
                guard let offset = issued.recorded.first(where: { $0.token == pageToken })?.offset else {
                    throw UnknownToken()
                }
                start = offset
            }
            let end = min(total, start + pageSize)
            var next: String?
            if end < total {
                let token = "tok\(issued.count * 7919 % 1000)-\(String(end, radix: 36))"
                issued.record((token, end))
                next = token
            }
            return TokenPage(items: (start..<end).map { TestItem(id: $0) }, nextToken: next)
        }
    }

    @Test("initial without a token, initial with a token and next after a token pass the token and the count")
    func requests() async throws {
        let fetches = Recorder<Fetch>()
        let source = Source { token, count in
            fetches.record(Fetch(token: token, count: count))
            return TokenPage(items: [], nextToken: nil)
        }
        _ = try await source.load(PageRequest(.initial(nil), count: 25))
        _ = try await source.load(PageRequest(.initial("resume-here"), count: 25))
        _ = try await source.load(PageRequest(.next(after: "abc"), count: 10))
        #expect(
            fetches.recorded == [
                Fetch(token: nil, count: 25), Fetch(token: "resume-here", count: 25),
                Fetch(token: "abc", count: 10),
            ])
    }

    @Test("the next key is the next-page token, nil when the API gives none, and there is no previous key")
    func keys() async throws {
        let answers = Recorder<TokenPage<String, TestItem>>()
        answers.record(TokenPage(items: [TestItem(id: 0)], nextToken: "t1"))
        answers.record(TokenPage(items: [TestItem(id: 1)], nextToken: nil))
        let served = Counter()
        let source = Source { _, _ in
            defer { served.increment() }
            return answers.recorded[served.count]
        }
        let first = try await source.load(PageRequest(.initial(nil), count: 1))
        #expect(first.items.map(\.id) == [0])
        #expect(first.nextKey == "t1")
        #expect(first.previousKey == nil)
        let last = try await source.load(PageRequest(.next(after: "t1"), count: 1))
        #expect(last.nextKey == nil)
        #expect(last.previousKey == nil)
    }

    @Test("a previous page is refused with invalidArgument, without a fetch")
    func previousIsRefused() async throws {
        let fetches = Counter()
        let source = Source { _, _ in
            fetches.increment()
            return TokenPage(items: [], nextToken: nil)
        }
        let error = try #require(
            await #expect(throws: PagingError.self) {
                try await source.load(PageRequest(.previous(before: "t"), count: 5))
            })
        #expect(error.code == .invalidArgument)
        #expect(fetches.count == 0)
    }

    @Test("through a pager: follows the opaque tokens to the end, every item once and in order")
    func throughPager() async throws {
        let backend = Backend(total: 58)
        let pager = Pager(
            source: Source { try backend.list(pageToken: $0, pageSize: $1) },
            configuration: try .testing(pageSize: 15, initialLoadSize: 20))
        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.ids == Array(0..<58))
        #expect(backend.fetches.recorded.map(\.count) == [20, 15, 15, 15])
        #expect(backend.fetches.recorded.first?.token == nil)
        #expect(backend.fetches.recorded.dropFirst().allSatisfy { $0.token != nil })
    }

    @Test("an API that hands back the token it was given is stopped with repeatedKey, keeping what loaded")
    func repeatedToken() async throws {
        let source = Source { token, count in
            let start = token == nil ? 0 : 1
            return TokenPage(items: [TestItem(id: start)], nextToken: "stuck")
        }
        let pager = Pager(source: source, configuration: try .testing(pageSize: 1))
        #expect(try await pager.loadNext().value == .loaded)
        let error = try #require(await #expect(throws: PagingError.self) { try await pager.loadAll() })
        #expect(error.code == .repeatedKey)
        #expect(pager.items.ids == [0])
    }
}
