import Paging
import Testing

@Suite("InclusiveBoundarySource")
struct InclusiveBoundarySourceTests {
    typealias Source = InclusiveBoundarySource<String, TestItem>
    typealias Firebase = FirebaseTimelineBackend<TestItem>

    /// A timeline of `count` entries, item `i` made at second `i` (so item
    /// `count - 1` is the newest), keyed by push keys.
    func timeline(_ count: Int) -> (Firebase, keys: [String]) {
        let firebase = Firebase()
        var keys: [String] = []
        for id in 0..<count {
            let key = PushKey.make(milliseconds: 1_700_000_000_000 + id * 1000)
            keys.append(key)
            firebase.set(key, TestItem(id: id))
        }
        return (firebase, keys)
    }

    func source(_ firebase: Firebase) -> Source {
        Source { limit, endAt in
            firebase.query(limitToLast: limit, endAt: endAt).map { (key: $0.key, item: $0.value) }
        }
    }

    @Test("push keys sort in the order they were made")
    func pushKeysSort() {
        let keys = [0, 1, 63, 64, 4095, 4096, 1_700_000_000_000].map { PushKey.make(milliseconds: $0) }
        #expect(keys == keys.sorted())
        #expect(keys.allSatisfy { $0.count == 20 })
        #expect(PushKey.make(milliseconds: 5, sequence: 1) > PushKey.make(milliseconds: 5, sequence: 0))
    }

    @Test("initial asks for the last count entries, up to and including an initial key when there is one")
    func initialRequests() async throws {
        let (firebase, keys) = timeline(10)
        let source = source(firebase)
        let newest = try await source.load(PageRequest(.initial(nil), count: 3))
        #expect(newest.items.map(\.id) == [9, 8, 7])
        let anchored = try await source.load(PageRequest(.initial(keys[5]), count: 3))
        // The anchor is an item to show, so it is kept.
        #expect(anchored.items.map(\.id) == [5, 4, 3])
        #expect(
            firebase.queries == [
                Firebase.Query(limitToLast: 3, endAt: nil), Firebase.Query(limitToLast: 3, endAt: keys[5]),
            ])
    }

    @Test("next asks for one more than the count, ending at the boundary key, and drops the boundary entry")
    func nextRequest() async throws {
        let (firebase, keys) = timeline(10)
        let page = try await source(firebase).load(PageRequest(.next(after: keys[7]), count: 3))
        #expect(firebase.queries == [Firebase.Query(limitToLast: 4, endAt: keys[7])])
        #expect(page.items.map(\.id) == [6, 5, 4])
    }

    @Test(
        "the next key is the oldest key of a full page; a short page has none; there is never a previous key")
    func keys() async throws {
        let (firebase, keys) = timeline(5)
        let source = source(firebase)
        let first = try await source.load(PageRequest(.initial(nil), count: 2))
        #expect(first.nextKey == keys[3])
        #expect(first.previousKey == nil)
        let second = try await source.load(PageRequest(.next(after: keys[3]), count: 2))
        #expect(second.items.map(\.id) == [2, 1])
        #expect(second.nextKey == keys[1])
        // Only item 0 and the boundary remain: 2 entries of the 3 asked for.
        let last = try await source.load(PageRequest(.next(after: keys[1]), count: 2))
        #expect(last.items.map(\.id) == [0])
        #expect(last.nextKey == nil)
        #expect(last.previousKey == nil)
        // A first page shorter than asked for is also the last.
        let short = try await source.load(PageRequest(.initial(nil), count: 9))
        #expect(short.items.map(\.id) == [4, 3, 2, 1, 0])
        #expect(short.nextKey == nil)
    }

    @Test("entries that come back in any order are shown newest first")
    func sortsEntries() async throws {
        let keys = (0..<4).map { PushKey.make(milliseconds: 1000 * $0) }
        let source = Source { _, _ in
            [
                (keys[2], TestItem(id: 2)), (keys[0], TestItem(id: 0)), (keys[3], TestItem(id: 3)),
                (keys[1], TestItem(id: 1)),
            ]
            .map { (key: $0.0, item: $0.1) }
        }
        let page = try await source.load(PageRequest(.initial(nil), count: 4))
        #expect(page.items.map(\.id) == [3, 2, 1, 0])
        #expect(page.nextKey == keys[0])
    }

    @Test("a boundary entry deleted between two pages loses nothing: the page brings count + 1 entries")
    func deletedBoundary() async throws {
        let (firebase, keys) = timeline(10)
        let source = source(firebase)
        let first = try await source.load(PageRequest(.initial(nil), count: 3))
        #expect(first.items.map(\.id) == [9, 8, 7])
        firebase.remove(keys[7])
        let second = try await source.load(PageRequest(.next(after: try #require(first.nextKey)), count: 3))
        #expect(second.items.map(\.id) == [6, 5, 4, 3])
        #expect(second.nextKey == keys[3])
    }

    @Test("a previous page is refused with invalidArgument, without a query")
    func previousIsRefused() async throws {
        let (firebase, keys) = timeline(3)
        let error = try #require(
            await #expect(throws: PagingError.self) {
                try await source(firebase).load(PageRequest(.previous(before: keys[1]), count: 2))
            })
        #expect(error.code == .invalidArgument)
        #expect(firebase.queries.isEmpty)
    }

    @Test(
        "through a pager: newest first to the oldest, every entry once, each query ending at the last page's oldest key",
        arguments: [9, 10, 11])
    func throughPager(count: Int) async throws {
        let (firebase, keys) = timeline(count)
        let pager = Pager(source: source(firebase), configuration: try .testing(pageSize: 3))
        #expect(try await pager.loadAll() == .endReached)
        #expect(pager.items.ids == Array((0..<count).reversed()))
        // Each query after the first ends at the oldest key shown so far.
        let queries = firebase.queries
        #expect(queries.first == Firebase.Query(limitToLast: 3, endAt: nil))
        var shown = 3
        for query in queries.dropFirst() {
            #expect(query.limitToLast == 4)
            #expect(query.endAt == keys[count - shown])
            shown += 3
        }
    }
}
