import Testing

@testable import Paging

/// Each load plan on the pure state machine, as tables: the requests a plan makes from a given
/// list, the items it leaves and the one change it publishes; and, for every plan that follows
/// keys, a page that leads back failing the load with `repeatedKey` and changing nothing. No
/// task, no clock: every started request is answered at once, in order, from a list of ids whose
/// keys are offsets.
@Suite("Load plans, on the pure machine")
struct LoadPlanTests {
    typealias Machine = PagerStateMachine<Int, TestItem>

    /// A list whose key is an offset into `ids`, paged like ``NumberList``; items carry `version`.
    struct Server {
        var ids: [Int]
        var version = 0

        func page(for request: PageRequest<Int>) -> Page<Int, TestItem> {
            let range = NumberList.range(for: request, total: ids.count)
            return Page(
                items: ids[range].map { TestItem(id: $0, version: version) },
                previousKey: range.lowerBound > 0 ? range.lowerBound : nil,
                nextKey: range.upperBound < ids.count ? range.upperBound : nil)
        }
    }

    /// One event on a machine and what it should come to.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        var configuration: @Sendable () throws -> PagingConfiguration = { try .testing() }
        var initialKey: Int?
        /// The list the setup loads from.
        var before = Server(ids: Array(0..<50))
        /// The events that set the machine up, each answered from `before`.
        var setup: [@Sendable (inout Machine) -> Machine.Effects] = []
        /// The list the event under test loads from.
        var after: Server?
        /// The event under test.
        let event: @Sendable (inout Machine) -> Machine.Effects
        /// The requests it makes, in order.
        let requests: [PageRequest<Int>]
        /// The ids held after it.
        let ids: [Int]
        /// The change of its last snapshot.
        let change: ListChange

        var testDescription: String { name }
    }

    static func load(_ direction: LoadDirection) -> @Sendable (inout Machine) -> Machine.Effects {
        { $0.load(direction, count: nil).1 }
    }

    static let cases: [Case] = [
        Case(
            name: "RestartLoad: the first page is the list", event: load(.next),
            requests: [PageRequest(.initial(nil), count: 10)], ids: Array(0..<10),
            change: ListChange(inserted: [0..<10])),
        Case(
            name: "RestartLoad: a refresh by restart replaces the list in one change",
            setup: [load(.next), load(.next)], after: Server(ids: Array(100..<150)),
            event: { $0.refresh().1 },
            requests: [PageRequest(.initial(nil), count: 10)], ids: Array(100..<110),
            change: ListChange(removed: [0..<20], inserted: [0..<10])),
        Case(
            name: "EndLoad: a page after the last item", setup: [load(.next)], event: load(.next),
            requests: [PageRequest(.next(after: 10), count: 10)], ids: Array(0..<20),
            change: ListChange(inserted: [10..<20])),
        Case(
            name: "EndLoad: a page before the first item", initialKey: 20, setup: [load(.next)],
            event: load(.previous), requests: [PageRequest(.previous(before: 20), count: 10)],
            ids: Array(10..<30), change: ListChange(inserted: [0..<10])),
        Case(
            name: "EndLoad: past the limit, the other end is trimmed in the same change",
            configuration: { try .testing(maximumHeld: .pages(2)) }, setup: [load(.next), load(.next)],
            event: load(.next), requests: [PageRequest(.next(after: 20), count: 10)], ids: Array(10..<30),
            change: ListChange(removed: [0..<10], inserted: [10..<20])),
        Case(
            name: "RefetchPlan: every held page again, with its own size, from the first",
            configuration: { try .testing(refreshPolicy: .refetchLoadedPages) },
            setup: [load(.next), { $0.load(.next, count: 5).1 }],
            after: Server(ids: Array(0..<50), version: 1), event: { $0.refresh().1 },
            requests: [PageRequest(.initial(nil), count: 10), PageRequest(.next(after: 10), count: 5)],
            ids: Array(0..<15), change: ListChange(removed: [0..<15], inserted: [0..<15])),
        Case(
            name: "HeadRefresh: new items at the top spliced in, the rows below kept",
            configuration: { try .testing(refreshPolicy: .reattachHead(maximumPages: 3)) },
            setup: [load(.next), load(.next)], after: Server(ids: [-2, -1] + Array(0..<50)),
            event: { $0.refresh().1 }, requests: [PageRequest(.initial(nil), count: 10)],
            ids: [-2, -1] + Array(0..<20), change: ListChange(inserted: [0..<2])),
        Case(
            name: "HeadRefresh: a first page that reaches no held item is followed by the next",
            configuration: { try .testing(refreshPolicy: .reattachHead(maximumPages: 3)) },
            setup: [load(.next)], after: Server(ids: Array(-12..<0) + Array(0..<50)),
            event: { $0.refresh().1 },
            requests: [PageRequest(.initial(nil), count: 10), PageRequest(.next(after: 10), count: 10)],
            ids: Array(-12..<10), change: ListChange(inserted: [0..<12])),
        Case(
            name: "AnchoredRefresh: the anchor's page and the one past it, the pages before kept",
            setup: [load(.next), load(.next), load(.next)], after: Server(ids: Array(0..<50), version: 1),
            event: { $0.refresh(around: 15, reloadable: true).1 },
            requests: [PageRequest(.next(after: 10), count: 10), PageRequest(.next(after: 20), count: 10)],
            ids: Array(0..<30), change: ListChange(updated: [10..<30])),
        Case(
            name: "JumpLoad: the page around a position replaces the list",
            setup: [
                { machine in
                    machine.jumpKey = { $0 }
                    return Machine.Effects()
                }
            ],
            event: { $0.jump(to: 35).1 }, requests: [PageRequest(.initial(29), count: 12)],
            ids: Array(29..<41),
            change: ListChange(inserted: [0..<12])),
    ]

    /// Answers every request the effects start, and those the answers start, in order, from a list.
    /// - Returns: the requests answered.
    @discardableResult
    static func answerAll(_ effects: Machine.Effects, in machine: inout Machine, from server: Server)
        -> [PageRequest<Int>]
    {
        var pending = effects.start
        var answered: [PageRequest<Int>] = []
        while !pending.isEmpty {
            let command = pending.removeFirst()
            answered.append(command.request)
            pending += machine.pageArrived(for: command, page: server.page(for: command.request)).start
            #expect(machine.invariantViolations().isEmpty, "\(machine.invariantViolations())")
        }
        return answered
    }

    static func prepared(_ row: Case) throws -> Machine {
        var machine = Machine(configuration: try row.configuration(), initialKey: row.initialKey)
        for step in row.setup { answerAll(step(&machine), in: &machine, from: row.before) }
        return machine
    }

    @Test("each plan makes its requests and publishes its pages as one change", arguments: cases)
    func plan(_ row: Case) throws {
        var machine = try Self.prepared(row)
        let requests = Self.answerAll(row.event(&machine), in: &machine, from: row.after ?? row.before)
        #expect(requests == row.requests)
        #expect(machine.items.ids == row.ids)
        #expect(machine.snapshot.change == row.change)
        #expect(machine.loadStates.refresh == .notLoading)
        #expect(machine.requestsInFlight.isEmpty)
    }

    /// A plan that follows keys, and the answer of its `step`th request that leads back.
    struct LeadBack: CustomTestStringConvertible, Sendable {
        let plan: Case
        /// The request answered with a page that leads back (0 for the first).
        let step: Int
        /// The key that page names in its direction: one asked already.
        let key: Int
        var testDescription: String { plan.name }
    }

    static let leadBacks: [LeadBack] = [
        LeadBack(plan: cases[2], step: 0, key: 10),  // EndLoad: back to the key it was asked with
        LeadBack(plan: cases[5], step: 1, key: 10),  // RefetchPlan: its second page names the first's key
        LeadBack(plan: cases[7], step: 1, key: 10),  // HeadRefresh: its second page leads to itself
        LeadBack(plan: cases[8], step: 1, key: 10),  // AnchoredRefresh: back to the anchor's page
    ]

    @Test(
        "a page that leads back to a key asked fails the load with repeatedKey, nothing changed",
        arguments: leadBacks)
    func leadsBack(_ row: LeadBack) throws {
        var machine = try Self.prepared(row.plan)
        let idsBefore = machine.items.ids
        let server = row.plan.after ?? row.plan.before
        var pending = row.plan.event(&machine).start
        var step = 0
        var finished: [Result<LoadOutcome, PagingError>] = []
        while !pending.isEmpty {
            let command = pending.removeFirst()
            var page = server.page(for: command.request)
            if step == row.step {
                if command.request.direction == .previous {
                    page.previousKey = row.key
                } else {
                    page.nextKey = row.key
                }
            }
            let effects = machine.pageArrived(for: command, page: page)
            pending += effects.start
            finished += effects.finished.map(\.result)
            step += 1
        }
        #expect(step == row.step + 1, "the load went on past the page that leads back")
        #expect(finished.count == 1)
        if case .failure(let error) = finished.first {
            #expect(error.code == .repeatedKey)
        } else {
            Issue.record("the load did not fail: \(finished)")
        }
        #expect(machine.items.ids == idsBefore)
        #expect(machine.invariantViolations().isEmpty)
    }
}
