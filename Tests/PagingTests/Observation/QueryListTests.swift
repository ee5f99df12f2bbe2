import Paging
import PagingLock
import PagingTestSupport
import PagingTesting
import Testing

/// ``QueryList``: switching a list's query, a search box's, with a ``Debouncer`` in front.
@MainActor
@Suite("QueryList and Debouncer", .timeLimit(.minutes(HangLimit.minutes(1))))
struct QueryListTests {
    /// One scripted source per query, made when the list asks for it.
    final class Sources: Sendable {
        private let made = Lock<[String: ScriptedSource<Int, TestItem>]>([:])
        private let order = Lock<[String]>([])

        func source(_ query: String) -> ScriptedSource<Int, TestItem> {
            made.withLock { made in
                if let source = made[query] { return source }
                let source = ScriptedSource<Int, TestItem>(ignoresCancellation: true)
                made[query] = source
                order.withLock { $0.append(query) }
                return source
            }
        }

        /// The queries a source was made for, in order.
        var queries: [String] { order.withLock { $0 } }
    }

    /// A page of items numbered from `base`.
    private static func page(_ base: Int, _ count: Int = 3) -> Page<Int, TestItem> {
        Page(items: (base..<base + count).map { TestItem(id: $0) }, nextKey: base + count)
    }

    private static func list(
        _ sources: Sources, whileLoading: QueryList<String, Int, TestItem>.WhileLoading = .keepPrevious,
        onReturn: QueryList<String, Int, TestItem>.OnReturn = .keep, capacity: Int = 5
    ) throws -> QueryList<String, Int, TestItem> {
        QueryList(
            query: "", capacity: capacity, whileLoading: whileLoading, onReturn: onReturn,
            configuration: try .testing(pageSize: 3)
        ) { sources.source($0) }
    }

    @Test(
        "the items shown stay until the new query's first page; a query asked in between is cancelled and never shown"
    )
    func keepPrevious() async throws {
        let sources = Sources()
        let search = try Self.list(sources)
        let first = search.list.loadNext()
        (await sources.source("").nextCall()).succeed(with: Self.page(0))
        _ = try await first.value
        #expect(search.list.items.ids == [0, 1, 2])

        search.switchTo("a")
        let a = await sources.source("a").nextCall()
        #expect(search.isSwitching && search.query == "" && search.requestedQuery == "a")
        #expect(search.list.items.ids == [0, 1, 2], "the previous items stay while the first page loads")
        let load = search.switchTo("ab")
        let ab = await sources.source("ab").nextCall()
        // The superseded query's page comes late: it is never shown.
        a.succeed(with: Self.page(100))
        ab.succeed(with: Self.page(200))
        _ = try await load.value
        #expect(search.query == "ab" && !search.isSwitching)
        #expect(search.list.items.ids == [200, 201, 202])
        #expect(sources.source("a").cancelledCalls == [a.number], "the superseded first page was cancelled")
    }

    @Test(
        "back to a query superseded before its first page: asked again, the items shown stay meanwhile; asked twice while loading, one load"
    )
    func supersededAndBack() async throws {
        let sources = Sources()
        let search = try Self.list(sources)
        let first = search.list.loadNext()
        (await sources.source("").nextCall()).succeed(with: Self.page(0))
        _ = try await first.value
        search.switchTo("b")
        let b = await sources.source("b").nextCall()
        search.switchTo("c")
        let c = await sources.source("c").nextCall()
        let again = search.switchTo("b")
        let b2 = await sources.source("b").nextCall()
        #expect(b2.number != b.number, "b is asked again: its first list was let go")
        #expect(search.query == "" && search.list.items.ids == [0, 1, 2], "the items shown stay")
        let joined = search.switchTo("b")
        b2.succeed(with: Self.page(20))
        _ = try await again.value
        _ = try await joined.value
        #expect(search.query == "b" && search.list.items.ids == [20, 21, 22])
        #expect(sources.source("b").requests.count == 2, "asking for b twice while it loaded joined the load")
        #expect(!search.keptQueries.contains("c"))
        // The superseded loads end (the scripted sources ignore cancellation); nothing of theirs shows.
        b.succeed(with: Self.page(30))
        c.succeed(with: Self.page(40))
        #expect(search.query == "b" && search.list.items.ids == [20, 21, 22])
    }

    @Test(
        "a query whose first page is loading is not kept until the page comes; the query shown is kept once it has a page"
    )
    func loadingIsNotKept() async throws {
        let sources = Sources()
        let search = try Self.list(sources)
        #expect(search.keptQueries.isEmpty, "the first query has shown no page yet")
        let first = search.list.loadNext()
        (await sources.source("").nextCall()).succeed(with: Self.page(0))
        _ = try await first.value
        #expect(search.keptQueries == [""])
        let load = search.switchTo("b")
        let b = await sources.source("b").nextCall()
        #expect(search.isSwitching)
        #expect(search.keptQueries == [""], "b's first page is still loading")
        b.succeed(with: Self.page(10))
        _ = try await load.value
        #expect(search.keptQueries == ["", "b"])
    }

    @Test("with a capacity of 1, only the list shown is kept")
    func capacityOne() async throws {
        let sources = Sources()
        let search = try Self.list(sources, capacity: 1)
        for query in ["a", "b"] {
            let load = search.switchTo(query)
            (await sources.source(query).nextCall()).succeed(with: Self.page(0))
            _ = try await load.value
            #expect(search.keptQueries == [query])
        }
    }

    @Test("clear: the new, empty list shows at once, loading")
    func clear() async throws {
        let sources = Sources()
        let search = try Self.list(sources, whileLoading: .clear)
        let first = search.list.loadNext()
        (await sources.source("").nextCall()).succeed(with: Self.page(0))
        _ = try await first.value
        let load = search.switchTo("x")
        #expect(search.query == "x")
        #expect(search.list.items.isEmpty && search.list.isRefreshing)
        (await sources.source("x").nextCall()).succeed(with: Self.page(10))
        _ = try await load.value
        #expect(search.list.items.ids == [10, 11, 12])
    }

    @Test("back to a kept query: its items at once with no request (keep), or refreshed (refresh)")
    func goingBack() async throws {
        let sources = Sources()
        let kept = try Self.list(sources, onReturn: .keep)
        let start = kept.list.loadNext()
        (await sources.source("").nextCall()).succeed(with: Self.page(0))
        _ = try await start.value
        let toA = kept.switchTo("a")
        (await sources.source("a").nextCall()).succeed(with: Self.page(100))
        _ = try await toA.value
        let requests = sources.source("").requests.count
        _ = try await kept.switchTo("").value
        #expect(kept.query == "" && kept.list.items.ids == [0, 1, 2])
        #expect(sources.source("").requests.count == requests, "no request")

        let refreshing = Sources()
        let search = try Self.list(refreshing, onReturn: .refresh)
        let first = search.list.loadNext()
        (await refreshing.source("").nextCall()).succeed(with: Self.page(0))
        _ = try await first.value
        let toB = search.switchTo("b")
        (await refreshing.source("b").nextCall()).succeed(with: Self.page(100))
        _ = try await toB.value
        let back = search.switchTo("")
        #expect(search.list.items.ids == [0, 1, 2], "shown at once")
        let refresh = await refreshing.source("").nextCall()
        refresh.succeed(with: Self.page(50))
        _ = try await back.value
        #expect(search.list.items.ids == [50, 51, 52])
    }

    @Test("past the capacity, the least recently shown query's list goes; going back asks again")
    func capacity() async throws {
        let sources = Sources()
        let search = try Self.list(sources, capacity: 2)
        for query in ["a", "b"] {
            let load = search.switchTo(query)
            (await sources.source(query).nextCall()).succeed(with: Self.page(0))
            _ = try await load.value
        }
        #expect(search.keptQueries == ["a", "b"])
        let load = search.switchTo("")
        (await sources.source("").nextCall()).succeed(with: Self.page(0))
        _ = try await load.value
        #expect(search.keptQueries == ["b", ""])
    }

    @Test("ten values 20 ms apart with an interval of 300 ms run the action once, with the last")
    func debouncer() async throws {
        let clock = ManualClock()
        let (fired, firing) = AsyncStream.makeStream(of: String.self)
        var sent = fired.makeAsyncIterator()
        let typing = Debouncer<String, ManualClock>(for: .milliseconds(300), clock: clock) {
            firing.yield($0)
        }
        let texts = [
            "f", "fa", "fal", "falc", "falco", "falcon", "falcon ", "falcon 9", "falcon 9 ", "falcon 9 v",
        ]
        for text in texts {
            typing.send(text)
            // Each value's wait starts once the one before was cancelled: one sleeper at a time.
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(20))
        }
        // 20 ms of the last wait have passed: 279 more leave it waiting.
        clock.advance(by: .milliseconds(279))
        #expect(typing.isWaiting && clock.sleeperCount == 1, "not before the interval")
        clock.advance(by: .milliseconds(1))
        #expect(await sent.next() == "falcon 9 v")
        #expect(!typing.isWaiting)
        typing.send("x")
        typing.flush()
        #expect(await sent.next() == "x")
        typing.send("y")
        typing.cancel()
        #expect(!typing.isWaiting)
        typing.send("z")
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        #expect(await sent.next() == "z", "the cancelled y never came")
    }

    @Test("typing fast through a debouncer into the list: one request, for the last text")
    func typingFast() async throws {
        let sources = Sources()
        let search = try Self.list(sources, whileLoading: .clear)
        let clock = ManualClock()
        let typing = Debouncer<String, ManualClock>(for: .milliseconds(200), clock: clock) {
            search.switchTo($0)
        }
        for text in [
            "s", "st", "sta", "star", "starl", "starli", "starlin", "starlink", "starlink ", "starlink 1",
        ] {
            typing.send(text)
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(10))
        }
        clock.advance(by: .milliseconds(200))
        let call = await sources.source("starlink 1").nextCall()
        // The list shows the new query at once (clear); a load joins its first page.
        let shown = search.list.loadNext()
        call.succeed(with: Self.page(7))
        _ = try await shown.value
        #expect(sources.queries == ["", "starlink 1"], "a source only for the text that stayed")
        #expect(search.query == "starlink 1" && search.list.items.ids == [7, 8, 9])
        #expect(sources.source("starlink 1").requests.count == 1)
    }
}
