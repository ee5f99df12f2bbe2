import PagingLock
import PagingTestSupport
import PagingTesting

@testable import Paging

extension HeadRefreshModelTests {
    /// A list sorted by position, newest (greatest) first, paged by keyset: a key is a position,
    /// and the page after it holds the items below it.
    final class KeysetServer: Sendable {
        struct Entry: Sendable {
            var item: TestItem
            var position: Int
        }
        /// The entries, the next id, and every position ever given: a position is never given
        /// twice, as a keyset's keys are not, or a key asked for before could come back.
        private let state: Lock<(entries: [Entry], nextID: Int, used: Set<Int>)>

        init(count: Int) {
            let entries = (0..<count).map { Entry(item: TestItem(id: $0), position: (count - $0) * 1_000) }
            state = Lock((entries, count, Set(entries.map(\.position))))
        }

        /// The requests served, as text, for traces.
        var log: [String] { requests.withLock { $0 } }
        private let requests = Lock<[String]>([])

        /// The items, in list order.
        var items: [TestItem] { state.withLock { $0.entries.map(\.item) } }

        /// The items of a query, in list order.
        func items(matching query: Int) -> [TestItem] {
            items.filter { KeysetServer.matches(query, $0.id) }
        }

        /// Whether an id belongs to a query's list: a query keeps the ids it divides, 0 every id.
        static func matches(_ query: Int, _ id: Int) -> Bool {
            query == 0 || id % query == 0
        }

        /// The ids of the items moved since the start.
        var moved: Set<Int> { movedIDs.withLock { $0 } }
        private let movedIDs = Lock<Set<Int>>([])

        /// A page of a query: its first `count` items below the key (from the top for none).
        func page(_ request: PageRequest<Int>, query: Int = 0) -> Page<Int, TestItem> {
            let served = state.withLock { state in
                let below: Int? =
                    switch request.position {
                    case .initial(let key): key
                    case .next(let key): key
                    case .previous: nil
                    }
                let entries = state.entries.filter { entry in
                    (below.map { entry.position < $0 } ?? true) && KeysetServer.matches(query, entry.item.id)
                }
                let page = Array(entries.prefix(request.count))
                return Page(
                    items: page.map(\.item),
                    nextKey: entries.count > page.count ? page.last?.position : nil)
            }
            requests.withLock {
                $0.append(
                    "query \(query) \(request.position) -> \(served.items.map(\.id)) next \(String(describing: served.nextKey))"
                )
            }
            return served
        }

        /// A position never given, between the entries at index - 1 and index, when there is room.
        private static func freePosition(
            at index: Int, in state: inout (entries: [Entry], nextID: Int, used: Set<Int>)
        ) -> Int? {
            let above =
                index == 0 ? (state.entries.first?.position ?? 0) + 2_000 : state.entries[index - 1].position
            let below = index < state.entries.count ? state.entries[index].position : 0
            let middle = (above + below) / 2
            guard above - below > 1, state.used.insert(middle).inserted else { return nil }
            return middle
        }

        /// Moves an item (its sort key changed) to an index of the list without it; `false` when
        /// it is not there or there is no room at that index.
        func move(_ id: Int, to index: Int) -> Bool {
            let moved = state.withLock { state in
                guard let from = state.entries.firstIndex(where: { $0.item.id == id }) else { return false }
                var entry = state.entries.remove(at: from)
                let index = min(index, state.entries.count)
                guard let place = Self.freePosition(at: index, in: &state) else {
                    state.entries.insert(entry, at: from)
                    return false
                }
                entry.position = place
                state.entries.insert(entry, at: index)
                return true
            }
            if moved { movedIDs.withLock { _ = $0.insert(id) } }
            return moved
        }

        /// Changes the list as a server's changes between requests.
        func change(using random: inout SeededGenerator) {
            state.withLock { state in
                let count = state.entries.count
                func position(at index: Int) -> Int? { Self.freePosition(at: index, in: &state) }
                switch Int.random(in: 0..<7, using: &random) {
                case 0, 1:
                    // New at the top (twice as likely: the case a head refresh is for).
                    guard let place = position(at: 0) else { return }
                    state.entries.insert(Entry(item: TestItem(id: state.nextID), position: place), at: 0)
                    state.nextID += 1
                case 2:
                    let index = Int.random(in: 0...count, using: &random)
                    guard let place = position(at: index) else { return }
                    state.entries.insert(Entry(item: TestItem(id: state.nextID), position: place), at: index)
                    state.nextID += 1
                case 3 where count > 0:
                    state.entries.remove(at: Int.random(in: 0..<count, using: &random))
                case 4 where count > 1:
                    // A move: to the top, or to another place.
                    var entry = state.entries.remove(at: Int.random(in: 0..<count, using: &random))
                    let index = Bool.random(using: &random) ? 0 : Int.random(in: 0..<count, using: &random)
                    guard let place = position(at: index) else {
                        state.entries.insert(entry, at: min(index, state.entries.count))
                        state.entries.sort { $0.position > $1.position }
                        return
                    }
                    entry.position = place
                    state.entries.insert(entry, at: index)
                    movedIDs.withLock { _ = $0.insert(entry.item.id) }
                case 5 where count > 0:
                    state.entries[Int.random(in: 0..<count, using: &random)].item.version += 1
                case 6 where count > 1:
                    // A move to the top among several new items (a post whose sort key changed, as
                    // new ones came): the head may hold that item and no other held one.
                    var entry = state.entries.remove(at: Int.random(in: 1..<count, using: &random))
                    guard let place = position(at: 0) else {
                        state.entries.insert(entry, at: 0)
                        state.entries.sort { $0.position > $1.position }
                        return
                    }
                    entry.position = place
                    state.entries.insert(entry, at: 0)
                    movedIDs.withLock { _ = $0.insert(entry.item.id) }
                    for _ in 0..<Int.random(in: 1...8, using: &random) {
                        guard let place = position(at: 0) else { break }
                        state.entries.insert(Entry(item: TestItem(id: state.nextID), position: place), at: 0)
                        state.nextID += 1
                    }
                default:
                    break
                }
            }
        }
    }

    /// The server's pages of a query: a key is a position, so a request asked again answers with
    /// that place now.
    struct KeysetSource: ReloadablePageSource {
        let server: KeysetServer
        var query = 0
        func load(_ request: PageRequest<Int>) async throws -> Page<Int, TestItem> {
            server.page(request, query: query)
        }
    }
}
