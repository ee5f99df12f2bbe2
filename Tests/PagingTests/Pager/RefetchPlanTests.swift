import Testing

@testable import Paging

/// The refetch plan on its own: the anchor first, then forward with each
/// page's own size, then backward, and the pages back in list order.
@Suite("RefetchPlan")
struct RefetchPlanTests {
    typealias Plan = RefetchPlan<Int, TestItem>
    typealias Window = PageWindow<Int, TestItem>
    let list = NumberList(total: 100)
    let initial = PageRequest<Int>(.initial(nil), count: 10)

    /// Answers a plan's requests from the list until it has every page.
    func run(_ plan: inout Plan, first: PageRequest<Int>, list: NumberList? = nil) -> [PageRequest<Int>] {
        var requests = [first]
        var request: PageRequest<Int>? = first
        while let current = request {
            plan.collect(current, (list ?? self.list).page(for: current))
            request = plan.advance()
            if let request { requests.append(request) }
        }
        return requests
    }

    @Test("nothing held: no plan")
    func empty() {
        #expect(Plan.refetching(Window(), initial: initial, pageSize: 10) == nil)
    }

    @Test("a window paged both ways is refetched from sequence 0: forward, then backward, each page its size")
    func bothWays() throws {
        var window = Window()
        for (request, atEnd) in [
            (PageRequest<Int>(.initial(40), count: 10), true),
            (PageRequest(.next(after: 50), count: 5), true),
            (PageRequest(.previous(before: 40), count: 7), false),
            (PageRequest(.previous(before: 33), count: 3), false),
        ] {
            _ = window.add(list.page(for: request), for: request, atEnd: atEnd, replaying: false, modified: 1)
        }
        var (first, plan) = try #require(Plan.refetching(window, initial: initial, pageSize: 10))
        #expect(first == PageRequest(.initial(40), count: 10))
        #expect(plan.anchorSequence == 0)
        #expect(plan.sizesAfter == [5] && plan.sizesBefore == [7, 3])
        #expect(plan.refetchesFront && plan.refetchesBack)
        let requests = run(&plan, first: first)
        #expect(
            requests == [
                first, PageRequest(.next(after: 50), count: 5), PageRequest(.previous(before: 40), count: 7),
                PageRequest(.previous(before: 33), count: 3),
            ])
        #expect(plan.askedAfter == 1 && plan.askedBefore == 2)
        #expect(plan.pages.map(\.0) == [requests[3], requests[2], requests[0], requests[1]])
        #expect(plan.pages.flatMap { $0.1.items.map(\.id) } == Array(30..<55))
        #expect(plan.firstSequence == -2)
        #expect(plan.askedKeys(.next) == [50] && plan.askedKeys(.previous) == [40, 33])
        #expect(plan.keptDropped.front == nil && plan.keptDropped.back == nil)
    }

    @Test("a list that ends early forward goes backward with what is left, and asks for no more")
    func endsEarly() throws {
        var window = Window()
        let requests = [
            PageRequest<Int>(.initial(nil), count: 10), PageRequest(.next(after: 10), count: 10),
            PageRequest(.next(after: 20), count: 10),
        ]
        for request in requests {
            _ = window.add(list.page(for: request), for: request, atEnd: true, replaying: false, modified: 1)
        }
        var (first, plan) = try #require(Plan.refetching(window, initial: initial, pageSize: 10))
        let made = run(&plan, first: first, list: NumberList(total: 15))
        #expect(made == [requests[0], PageRequest(.next(after: 10), count: 10)])
        #expect(plan.askedAfter == 1 && plan.askedAfter <= plan.sizesAfter.count)
        #expect(plan.advance() == nil)
        #expect(plan.pages.flatMap { $0.1.items.map(\.id) } == Array(0..<15))
    }

    @Test(
        "a window paged only forward keeps the requests dropped at its front, and forgets those at its back")
    func keptDropped() throws {
        var window = Window()
        for request in [
            PageRequest<Int>(.initial(nil), count: 10), PageRequest(.next(after: 10), count: 10),
            PageRequest(.next(after: 20), count: 10), PageRequest(.next(after: 30), count: 10),
        ] {
            _ = window.add(list.page(for: request), for: request, atEnd: true, replaying: false, modified: 1)
        }
        window.dropPage(atEnd: false)
        window.dropPage(atEnd: true)
        let (first, plan) = try #require(Plan.refetching(window, initial: initial, pageSize: 10))
        // The anchor is the held page nearest sequence 0: the first held.
        #expect(plan.anchorSequence == 1 && first == PageRequest(.next(after: 10), count: 10))
        #expect(!plan.refetchesFront && plan.refetchesBack)
        #expect(plan.keptDropped.front == [PageRequest(.initial(nil), count: 10)])
        #expect(plan.keptDropped.back == nil)
    }

    @Test("nothing is asked for before the anchor is in; then the next page forward, with its size")
    func collectBeforeAdvance() {
        var plan = Plan(anchorSequence: 0, sizesAfter: [4], sizesBefore: [], dropped: ([], []))
        #expect(plan.advance() == nil, "nothing is asked before the anchor is in")
        plan.collect(initial, Page(items: [TestItem(id: 0)], nextKey: 1))
        #expect(plan.advance() == PageRequest(.next(after: 1), count: 4))
        #expect(plan.phase == .after)
    }
}
