import Benchmark
import BenchmarkSupport
import Paging
import Synchronization

// Issue 40, lists that move: what a refresh of a list the user is in the middle of costs, and
// what switching a list's query costs. Every request is counted where the source answers it, so
// the counts are exact, the same in every run; the times are for information but for the query
// switch's.
//
// 1. An anchored refresh (`Pager.refresh(around:)`) of a list of 100,000 items, anchored at item
//    50,000, after a few rows near the anchor changed on the server: at most 2 page requests.
//    Beside it, what `refresh()` asks for by each of the other policies over the same list:
//    a restart (1 request, and the list holds its first page only) and a refetch of every held
//    page (one request per page held).
// 2. A head refresh (`Pager.refreshHead(maximumPages:)`) with 3 new items at the top of a held
//    list: 1 request.
// 3. A query switch (`QueryList`) while 10,000 items of the old query are held: the new query's
//    first page is shown within 1 ms of its source returning it.
// 4. Going back to a query whose list the `QueryList` keeps: no request.

/// The items of the lists here: a row of a table read in the order of its rank.
struct RankedRow: Identifiable, Sendable, Hashable {
    /// The row's identity.
    let id: Int
    /// Where the row stands in the list: the keyset a page continues after.
    let rank: Int
}

/// Counts the page requests sources answer.
final class RequestCounter: Sendable {
    private let count = Mutex(0)

    /// The requests answered so far.
    var requests: Int { count.withLock { $0 } }

    /// Counts one request.
    func record() { count.withLock { $0 += 1 } }
}

/// A table in memory read with keyset pagination, as a server reads a table with an index on the
/// rank: the first `count` rows of rank above a key (or the last `count` below one). Its rows can
/// change between loads, as a server's do, and every request it answers is counted.
final class KeysetTable: Sendable {
    private struct State {
        var rows: [RankedRow]
        let original: [RankedRow]
    }

    private let state: Mutex<State>
    /// Where its requests are counted.
    let counter: RequestCounter

    /// A table of rows given in rank order.
    init(_ rows: [RankedRow], counter: RequestCounter = RequestCounter()) {
        state = Mutex(State(rows: rows, original: rows))
        self.counter = counter
    }

    /// A table of `count` rows whose ids count from `firstID` and whose ranks go in tens from 0.
    convenience init(count: Int, firstID: Int = 0, counter: RequestCounter = RequestCounter()) {
        self.init((0..<count).map { RankedRow(id: firstID + $0, rank: 10 * $0) }, counter: counter)
    }

    /// The requests answered so far (by every table sharing its counter).
    var requests: Int { counter.requests }

    /// The rows now.
    var rows: [RankedRow] { state.withLock { $0.rows } }

    /// Changes the rows, which must stay in rank order.
    func edit(_ change: (inout [RankedRow]) -> Void) {
        state.withLock { change(&$0.rows) }
    }

    /// Puts back the rows the table was made with.
    func restore() {
        state.withLock { $0.rows = $0.original }
    }

    /// Answers a request with the rows at its place now, and counts it.
    func page(for request: PageRequest<Int>) -> Page<Int, RankedRow> {
        counter.record()
        return state.withLock { state in
            let rows = state.rows
            let range: Range<Int>
            switch request.position {
            case .initial(nil):
                range = 0..<min(request.count, rows.count)
            case .initial(let rank?):
                let start = Self.firstIndex(in: rows) { $0 >= rank }
                range = start..<min(start + request.count, rows.count)
            case .next(let rank):
                let start = Self.firstIndex(in: rows) { $0 > rank }
                range = start..<min(start + request.count, rows.count)
            case .previous(let rank):
                let end = Self.firstIndex(in: rows) { $0 >= rank }
                range = max(0, end - request.count)..<end
            }
            guard let first = rows[range].first, let last = rows[range].last else {
                return Page(items: [])
            }
            return Page(
                items: Array(rows[range]), previousKey: range.lowerBound > 0 ? first.rank : nil,
                nextKey: range.upperBound < rows.count ? last.rank : nil)
        }
    }

    /// The first index whose rank passes a test that, in rank order, fails and then holds.
    private static func firstIndex(in rows: [RankedRow], where passes: (Int) -> Bool) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if passes(rows[middle].rank) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// A keyset source over a table: asked again with a request, it answers with the rows at that
/// place now, which an anchored refresh needs.
struct KeysetSource: ReloadablePageSource {
    /// The table read.
    let table: KeysetTable

    /// Answers at once.
    func load(_ request: PageRequest<Int>) async throws -> Page<Int, RankedRow> {
        table.page(for: request)
    }
}

/// Holds each response of a gated source until the benchmark lets it go, and notes when the
/// source returned it: where a network's answer would come while the app waits.
final class ResponseGate: Sendable {
    private struct State {
        /// The request held.
        var held: CheckedContinuation<Void, Never>?
        /// Who waits for a request to be held.
        var waiter: CheckedContinuation<Void, Never>?
        /// When the source last returned a page.
        var respondedAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// The source's side: waits until ``release()``.
    func hold() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = state.withLock { state in
                state.held = continuation
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Waits until the source holds a request.
    func requestArrived() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let held = state.withLock { state in
                guard state.held == nil else { return true }
                state.waiter = continuation
                return false
            }
            if held { continuation.resume() }
        }
    }

    /// Lets the request held go on.
    func release() {
        let held = state.withLock { state in
            defer { state.held = nil }
            return state.held
        }
        held?.resume()
    }

    /// Notes that the source returns its page now.
    func stamp() {
        let now = ContinuousClock.now
        state.withLock { $0.respondedAt = now }
    }

    /// When the source last returned a page, and forgets it.
    func takeResponseTime() -> ContinuousClock.Instant? {
        state.withLock { state in
            defer { state.respondedAt = nil }
            return state.respondedAt
        }
    }
}

/// A keyset source whose every response waits for its gate, and is stamped as it is returned.
struct GatedSource: PageSource {
    /// The table read.
    let table: KeysetTable
    /// What holds each response.
    let gate: ResponseGate

    /// Answers once the gate lets it.
    func load(_ request: PageRequest<Int>) async throws -> Page<Int, RankedRow> {
        await gate.hold()
        let page = table.page(for: request)
        gate.stamp()
        return page
    }
}

// MARK: Refreshes

let listSize = 100_000
let pageSize = 100
let anchor = 50_000

/// A list of 100,000 rows, loaded page by page into a pager, and the table it comes from.
final class HeldList: Sendable {
    let table = KeysetTable(count: listSize)
    let pager: Pager<Int, RankedRow>

    init(policy: PagingConfiguration.RefreshPolicy = .restart) throws {
        pager = Pager(
            source: KeysetSource(table: table),
            configuration: try PagingConfiguration(
                pageSize: pageSize, prefetchDistance: 0, refreshPolicy: policy))
    }

    /// Puts the table's rows back and loads the whole list again.
    func reload() async throws {
        table.restore()
        pager.reset()
        _ = try await pager.loadAll()
        guard pager.items.count == listSize, pager.items.pageCount == listSize / pageSize else {
            throw BenchmarkSetupError("the list loaded \(pager.items.count) items")
        }
    }

    /// The rows the server adds near the anchor between the load and the refresh: two just above
    /// it and one a little below, in its page.
    static let added = [
        RankedRow(id: 1_000_001, rank: 10 * anchor - 6), RankedRow(id: 1_000_002, rank: 10 * anchor - 3),
        RankedRow(id: 1_000_003, rank: 10 * (anchor + 10) + 5),
    ]
    /// The rows the server removes: one in the anchor's page and one in the next.
    static let removed: Set = [anchor + 20, anchor + 150]

    /// Changes the rows near the anchor on the server.
    func changeNearAnchor() {
        table.edit { rows in
            rows.removeAll { Self.removed.contains($0.id) }
            for row in Self.added {
                let index = rows.firstIndex { $0.rank > row.rank } ?? rows.endIndex
                rows.insert(row, at: index)
            }
        }
    }

    /// Whether the list shows the rows added and none of those removed.
    var showsTheChange: Bool {
        Self.added.allSatisfy { pager.index(of: $0.id) != nil }
            && Self.removed.allSatisfy { pager.index(of: $0) == nil }
    }
}

/// What one refresh (or switch) did.
struct RefreshMeasurement {
    /// The page requests the sources answered.
    var requests: Int
    /// From asking until the pager applied and published the result (the list showed it).
    var time: Duration
    /// The pages held when it was asked for.
    var pagesBefore = 0
}

/// Reloads the list, changes the rows near the anchor, and times one refresh of it.
func measureRefresh(
    of list: HeldList, _ refresh: (Pager<Int, RankedRow>) -> PageLoad
) async throws -> RefreshMeasurement {
    try await list.reload()
    list.changeNearAnchor()
    let pagesBefore = list.pager.items.pageCount
    let before = list.table.requests
    let clock = ContinuousClock()
    let start = clock.now
    guard try await refresh(list.pager).value == .loaded else {
        throw BenchmarkSetupError("the refresh did not load")
    }
    let time = clock.now - start
    return RefreshMeasurement(requests: list.table.requests - before, time: time, pagesBefore: pagesBefore)
}

/// A 100,000-row list for head refreshes: rows come at its top, one sample after the other.
final class FeedList: Sendable {
    let table = KeysetTable(count: listSize)
    let pager: Pager<Int, RankedRow>

    init() throws {
        pager = Pager(
            source: KeysetSource(table: table),
            configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0))
    }

    /// Loads the whole list.
    func load() async throws {
        _ = try await pager.loadAll()
        guard pager.items.count == listSize else {
            throw BenchmarkSetupError("the list loaded \(pager.items.count) items")
        }
    }

    /// Adds three rows at the top of the table (ranked, and numbered, below its first row); returns
    /// their ids, in list order.
    func addAtTop() -> [Int] {
        var added: [Int] = []
        table.edit { rows in
            let top = rows.first?.rank ?? 0
            let new = (1...3).reversed().map { RankedRow(id: top - $0, rank: top - $0) }
            rows.insert(contentsOf: new, at: 0)
            added = new.map(\.id)
        }
        return added
    }
}

// MARK: Query switching

/// A search's queries: the one whose 10,000 items are held, and the others, one page each.
enum SearchQuery: Hashable, Sendable {
    case held
    case other(Int)
}

let heldQuerySize = 10_000

/// A `QueryList` whose first query holds 10,000 items. The other queries' sources wait for the
/// gate, when there is one.
@MainActor
final class Search {
    let counter: RequestCounter
    let gate: ResponseGate?
    let search: QueryList<SearchQuery, Int, RankedRow>
    /// The last `other` query asked for.
    private var lastOther = 0

    init(gate: ResponseGate?) throws {
        self.gate = gate
        let counter = RequestCounter()
        self.counter = counter
        let heldTable = KeysetTable(count: heldQuerySize, counter: counter)
        search = QueryList(
            query: .held, capacity: 5, whileLoading: .keepPrevious, onReturn: .keep,
            configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: 0)
        ) { query in
            switch query {
            case .held:
                return KeysetSource(table: heldTable)
            case .other(let number):
                let table = KeysetTable(
                    count: 2 * pageSize, firstID: Self.firstID(of: number), counter: counter)
                guard let gate else { return KeysetSource(table: table) }
                return GatedSource(table: table, gate: gate)
            }
        }
    }

    /// The id of the first item of an `other` query.
    nonisolated static func firstID(of number: Int) -> Int { 1_000_000 * (number + 1) }

    /// Loads the held query's 10,000 items.
    func load() async throws {
        while search.list.items.count < heldQuerySize {
            guard try await search.list.loadNext().value == .loaded else {
                throw BenchmarkSetupError("the held query ended at \(search.list.items.count)")
            }
        }
    }

    /// Whether the list shows a query's first page.
    private func shows(_ query: SearchQuery) -> Bool {
        guard search.query == query, !search.isSwitching, let first = search.list.items.first else {
            return false
        }
        switch query {
        case .held: return first.id == 0 && search.list.items.count == heldQuerySize
        case .other(let number): return first.id == Self.firstID(of: number)
        }
    }

    /// Switches to a query not asked before, lets its first page come, and returns the time from
    /// its source returning the page to the list showing it; then goes back to the held query.
    func switchToNewQuery() async throws -> Duration {
        guard let gate else { throw BenchmarkSetupError("a search without a gate") }
        lastOther += 1
        let query = SearchQuery.other(lastOther)
        let load = search.switchTo(query)
        await gate.requestArrived()
        gate.release()
        _ = try await load.value
        let shown = ContinuousClock.now
        guard shows(query), let responded = gate.takeResponseTime() else {
            throw BenchmarkSetupError("the list does not show the new query after its load")
        }
        try await switchBack()
        return shown - responded
    }

    /// Switches to a kept query other than the held one (asked once, in the setup, and kept).
    func switchAway() async throws {
        let query = SearchQuery.other(0)
        _ = try await search.switchTo(query).value
        guard shows(query) else { throw BenchmarkSetupError("the list does not show \(query)") }
    }

    /// Goes back to the held query, kept; returns the requests the switch made and its time, until
    /// the list shows the held items.
    @discardableResult
    func switchBack() async throws -> RefreshMeasurement {
        let before = counter.requests
        let clock = ContinuousClock()
        let start = clock.now
        _ = try await search.switchTo(.held).value
        let time = clock.now - start
        guard shows(.held) else { throw BenchmarkSetupError("the list does not show the held query again") }
        return RefreshMeasurement(requests: counter.requests - before, time: time)
    }
}

// MARK: The benchmarks

/// The metrics of this suite: counts, and times in nanoseconds.
enum ListsMetric {
    static func count(_ name: String) -> BenchmarkMetric {
        .custom(name, polarity: .prefersSmaller, useScalingFactor: false)
    }

    /// The page requests the source answered.
    static let requests = count("page requests")
    /// A refresh, from asking to the result published.
    static let refreshTime = count("refresh time (ns)")
    /// The items held after a restart.
    static let heldAfter = count("items held after")
    /// The pages held before a refetch.
    static let pagesBefore = count("pages held before")
    /// From the source returning a query's first page to the list showing it.
    static let shownAfterResponse = count("shown after the response (ns)")
    /// A switch back to a kept query, until the list shows it.
    static let switchTime = count("switch time (ns)")

    /// A configuration reporting these metrics as plain numbers.
    static func configuration(
        _ metrics: [BenchmarkMetric], iterations: Int, warmup: Int = 1
    ) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: metrics, units: Dictionary(uniqueKeysWithValues: metrics.map { ($0, .count) }),
            warmupIterations: warmup, maxDuration: .seconds(60), maxIterations: iterations)
    }
}

func nanoseconds(_ duration: Duration) -> Int { Int(duration / .nanoseconds(1)) }

let benchmarks: @Sendable () -> Void = {
    // 1. The anchored refresh and, beside it, the policies of `refresh()` on the same list.
    let anchored = Shared<HeldList>()
    Benchmark(
        "anchored refresh: 100,000 held, at item 50,000",
        configuration: ListsMetric.configuration(
            [ListsMetric.requests, ListsMetric.refreshTime], iterations: 25),
        closure: { benchmark in
            let list = try anchored.get()
            let measured = try await measureRefresh(of: list) { $0.refresh(around: anchor) }
            // The rows kept above, the anchor's page and the next; the anchor at its index of before
            // the refresh (50,000) but for the two rows added above it in its page.
            guard list.showsTheChange, list.pager.index(of: anchor) == anchor + 2,
                list.pager.items.count == anchor + 2 * pageSize
            else {
                throw BenchmarkSetupError("the anchored refresh left \(list.pager.items.count) items")
            }
            benchmark.measurement(ListsMetric.requests, measured.requests)
            benchmark.measurement(ListsMetric.refreshTime, nanoseconds(measured.time))
        },
        setup: { anchored.set(try HeldList()) },
        teardown: { anchored.set(nil) })

    let restarted = Shared<HeldList>()
    Benchmark(
        "refresh by restart: 100,000 held",
        configuration: ListsMetric.configuration(
            [ListsMetric.requests, ListsMetric.heldAfter, ListsMetric.refreshTime], iterations: 10),
        closure: { benchmark in
            let list = try restarted.get()
            let measured = try await measureRefresh(of: list) { $0.refresh() }
            benchmark.measurement(ListsMetric.requests, measured.requests)
            benchmark.measurement(ListsMetric.heldAfter, list.pager.items.count)
            benchmark.measurement(ListsMetric.refreshTime, nanoseconds(measured.time))
        },
        setup: { restarted.set(try HeldList(policy: .restart)) },
        teardown: { restarted.set(nil) })

    let refetched = Shared<HeldList>()
    Benchmark(
        "refresh refetching every held page: 100,000 held",
        configuration: ListsMetric.configuration(
            [ListsMetric.requests, ListsMetric.pagesBefore, ListsMetric.refreshTime], iterations: 10),
        closure: { benchmark in
            let list = try refetched.get()
            let measured = try await measureRefresh(of: list) { $0.refresh() }
            guard list.showsTheChange, list.pager.index(of: anchor) != nil else {
                throw BenchmarkSetupError("the refetch does not show the change")
            }
            benchmark.measurement(ListsMetric.requests, measured.requests)
            benchmark.measurement(ListsMetric.pagesBefore, measured.pagesBefore)
            benchmark.measurement(ListsMetric.refreshTime, nanoseconds(measured.time))
        },
        setup: { refetched.set(try HeldList(policy: .refetchLoadedPages)) },
        teardown: { refetched.set(nil) })

    // 2. The head refresh: three rows come at the top before each sample.
    let feed = Shared<FeedList>()
    Benchmark(
        "head refresh: 3 new at the top of 100,000 held",
        configuration: ListsMetric.configuration(
            [ListsMetric.requests, ListsMetric.refreshTime], iterations: 50),
        closure: { benchmark in
            let list = try feed.get()
            let count = list.pager.items.count
            let added = list.addAtTop()
            let before = list.table.requests
            let clock = ContinuousClock()
            let start = clock.now
            guard try await list.pager.refreshHead(maximumPages: 3).value == .loaded else {
                throw BenchmarkSetupError("the head refresh did not load")
            }
            let time = clock.now - start
            let requests = list.table.requests - before
            guard list.pager.items.prefix(3).map(\.id) == added, list.pager.items.count == count + 3 else {
                throw BenchmarkSetupError("the head refresh does not show the three new rows at the top")
            }
            benchmark.measurement(ListsMetric.requests, requests)
            benchmark.measurement(ListsMetric.refreshTime, nanoseconds(time))
        },
        setup: {
            let list = try FeedList()
            try await list.load()
            feed.set(list)
        },
        teardown: { feed.set(nil) })

    // 3. The query switch: each sample switches to a query not asked before, whose source holds
    // its first page until the list waits for it; then back to the held query, outside the time.
    let switching = Shared<Search>()
    Benchmark(
        "query switch: the new query's first page shown after its response, 10,000 of the old held",
        configuration: ListsMetric.configuration(
            [ListsMetric.shownAfterResponse], iterations: 200, warmup: 5),
        closure: { benchmark in
            let search = try switching.get()
            let time = try await search.switchToNewQuery()
            benchmark.measurement(ListsMetric.shownAfterResponse, nanoseconds(time))
        },
        setup: {
            let search = try await Search(gate: ResponseGate())
            try await search.load()
            switching.set(search)
        },
        teardown: { switching.set(nil) })

    // 4. Back to a kept query: each sample switches to another kept query, then back, timed.
    let returning = Shared<Search>()
    Benchmark(
        "back to a kept query: 10,000 items",
        configuration: ListsMetric.configuration(
            [ListsMetric.requests, ListsMetric.switchTime], iterations: 200, warmup: 5),
        closure: { benchmark in
            let search = try returning.get()
            try await search.switchAway()
            let measured = try await search.switchBack()
            benchmark.measurement(ListsMetric.requests, measured.requests)
            benchmark.measurement(ListsMetric.switchTime, nanoseconds(measured.time))
        },
        setup: {
            let search = try await Search(gate: nil)
            try await search.load()
            // The other query, asked once here and kept.
            try await search.switchAway()
            try await search.switchBack()
            returning.set(search)
        },
        teardown: { returning.set(nil) })
}
