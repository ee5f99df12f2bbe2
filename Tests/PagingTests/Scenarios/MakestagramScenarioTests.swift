import Paging
import PagingTesting
import Testing

// Makestagram, "Handling Pagination", on the engine.
//
// `MGPaginationHelper<T: MGKeyed>` pages the home timeline with a service
// method `(pageSize, lastKey, completion)` over Firebase
// `queryOrderedByKey().queryLimited(toLast: pageSize).queryEnding(atValue: lastKey)`:
// newest first, 3 posts a page; every page after the first repeats the post
// at the boundary key, which is dropped; a page shorter than asked for is
// the end; `reloadData` goes back to the initial state and loads again;
// `tableView(_:willDisplay:forRowAt:)` on the last row paginates; while a
// page loads (or at the end), paginating does nothing.
//
// The helper drops the repeated post but still asks for `pageSize` entries,
// so its later pages bring `pageSize - 1` new posts; the engine asks for one
// more entry than a page, so every page brings a full page.

@Suite("Makestagram scenario: Handling Pagination")
struct MakestagramScenarioTests {
    /// A timeline of `count` posts, post `i` made `i` minutes after the
    /// first (so the last is the newest).
    func makeFirebase(posts count: Int) -> Firebase {
        let firebase = Firebase()
        for index in 0..<count {
            let post = Post.make(index)
            firebase.set(post.id, post)
        }
        return firebase
    }

    @Test(
        "the timeline pages newest first on willDisplay of the last row, drops each boundary post, and ends on a short page"
    )
    func timeline() async throws {
        let firebase = makeFirebase(posts: 10)
        let gate = FetchGate<Firebase.Query>()
        let home = try HomeTimeline(firebase: firebase, gate: gate)

        // viewDidLoad: reloadTimeline.
        let first = home.reloadTimeline()
        let firstQuery = await gate.nextArrival()
        #expect(firstQuery.arguments == Firebase.Query(limitToLast: 3, endAt: nil))
        firstQuery.open()
        #expect(try await first.value == .loaded)
        #expect(home.posts.map(\.index) == [9, 8, 7])

        var pages = 1
        while true {
            let rows = home.posts.count
            // Rows above the last one do not paginate (prefetch distance 0).
            for row in 0..<(rows - 1) { home.willDisplay(row: row) }
            #expect(!home.pager.isLoadingNext)
            #expect(gate.waitingCount == 0)

            let boundary = try #require(home.posts.last).id
            home.willDisplay(row: rows - 1)
            if home.pager.loadStates.next == .endReached { break }
            #expect(home.pager.isLoadingNext)
            // Shown again while the page loads: the helper's `.loading` state does nothing.
            home.willDisplay(row: rows - 1)
            let page = home.pager.loadNext()  // joins the load in flight, to wait for it
            let query = await gate.nextArrival()
            // One more than a page, ending at (and including) the oldest post shown.
            #expect(query.arguments == Firebase.Query(limitToLast: 4, endAt: boundary))
            query.open()
            #expect(try await page.value == .loaded)
            pages += 1
            // The boundary came back from Firebase and was dropped by the source:
            // the pager had no duplicate to drop.
            #expect(home.pager.snapshot.duplicatesDropped == 0)
        }

        #expect(pages == 4)
        #expect(home.posts.map(\.index) == Array((0..<10).reversed()))
        #expect(Set(home.posts.map(\.id)).count == 10)
        #expect(firebase.queries.count == 4)
        #expect(firebase.queries.dropFirst().allSatisfy { $0.limitToLast == 4 })
        // The end: willDisplay of the last row asks nothing more.
        home.willDisplay(row: home.posts.count - 1)
        #expect(gate.waitingCount == 0)
        #expect(firebase.queries.count == 4)
    }

    @Test("a first page shorter than the page size is the whole timeline")
    func shortFirstPage() async throws {
        let firebase = makeFirebase(posts: 2)
        let home = try HomeTimeline(firebase: firebase)
        #expect(try await home.reloadTimeline().value == .loaded)
        #expect(home.posts.map(\.index) == [1, 0])
        #expect(home.pager.loadStates.next == .endReached)
        home.willDisplay(row: 1)
        #expect(!home.pager.isLoadingNext)
        #expect(firebase.queries == [Firebase.Query(limitToLast: 3, endAt: nil)])
    }

    @Test("reloadData starts over from the newest post, and paging goes on from the new first page")
    func reloadStartsOver() async throws {
        let firebase = makeFirebase(posts: 10)
        let home = try HomeTimeline(firebase: firebase)
        #expect(try await home.reloadTimeline().value == .loaded)
        #expect(try await home.pager.loadNext().value == .loaded)
        #expect(home.posts.map(\.index) == [9, 8, 7, 6, 5, 4])

        // Someone posts; pull to refresh.
        let newPost = Post.make(10)
        firebase.set(newPost.id, newPost)
        #expect(try await home.reloadTimeline().value == .loaded)
        #expect(firebase.queries.last == Firebase.Query(limitToLast: 3, endAt: nil))
        #expect(home.posts.map(\.index) == [10, 9, 8])
        #expect(home.pager.hasNext)

        let queriesBefore = firebase.queries.count
        #expect(try await home.pager.loadNext().value == .loaded)
        #expect(firebase.queries.count == queriesBefore + 1)
        #expect(firebase.queries.last == Firebase.Query(limitToLast: 4, endAt: Post.make(8).id))
        #expect(home.posts.map(\.index) == [10, 9, 8, 7, 6, 5])
    }

    @Test("reloadData while a page is loading starts over, and the old page never shows")
    func reloadDuringLoad() async throws {
        let firebase = makeFirebase(posts: 10)
        let gate = FetchGate<Firebase.Query>()
        let home = try HomeTimeline(firebase: firebase, gate: gate)
        let first = home.reloadTimeline()
        await gate.nextArrival().open()
        #expect(try await first.value == .loaded)

        home.willDisplay(row: 2)
        let page = home.pager.loadNext()
        let stale = await gate.nextArrival()
        #expect(stale.arguments == Firebase.Query(limitToLast: 4, endAt: Post.make(7).id))

        let reload = home.reloadTimeline()
        #expect(try await page.value == .cancelled)
        #expect(home.posts.isEmpty)
        stale.open()  // the cancelled request was already let go; opening it changes nothing
        let fresh = await gate.nextArrival()
        #expect(fresh.arguments == Firebase.Query(limitToLast: 3, endAt: nil))
        fresh.open()
        #expect(try await reload.value == .loaded)
        #expect(home.posts.map(\.index) == [9, 8, 7])
    }
}

// MARK: - Makestagram's model, Firebase and screen

extension MakestagramScenarioTests {
    typealias Firebase = FirebaseTimelineBackend<Post>

    /// A post of the timeline; its id is its Firebase key (`MGKeyed.key`).
    struct Post: Identifiable, Sendable, Equatable {
        var id: String
        var index: Int
        var imageURL: String

        /// The `index`-th post, made `index` minutes after the first.
        static func make(_ index: Int) -> Post {
            Post(
                id: PushKey.make(milliseconds: 1_500_000_000_000 + index * 60_000), index: index,
                imageURL: "https://example.invalid/images/\(index).jpg")
        }
    }

    /// What `HomeViewController` does with `MGPaginationHelper`, on a pager.
    final class HomeTimeline: Sendable {
        let pager: Pager<String, Post>

        /// - Parameter gate: holds each Firebase query open until the test
        ///   lets it through.
        init(firebase: Firebase, gate: FetchGate<Firebase.Query>? = nil) throws {
            // UserService.timeline(pageSize:lastPostKey:).
            let source = InclusiveBoundarySource<String, Post> { limitToLast, endAt in
                try await gate?.pass(Firebase.Query(limitToLast: limitToLast, endAt: endAt))
                return firebase.query(limitToLast: limitToLast, endAt: endAt).map {
                    (key: $0.key, item: $0.value)
                }
            }
            pager = Pager(source: source, configuration: try .testing(pageSize: 3, prefetchDistance: 0))
        }

        /// The posts shown.
        var posts: [Post] { Array(pager.items) }

        /// `reloadData`: back to the initial state, then the first page.
        func reloadTimeline() -> PageLoad {
            pager.reset()
            return pager.loadNext()
        }

        /// `tableView(_:willDisplay:forRowAt:)`.
        func willDisplay(row: Int) {
            pager.itemAppeared(at: row)
        }
    }
}
