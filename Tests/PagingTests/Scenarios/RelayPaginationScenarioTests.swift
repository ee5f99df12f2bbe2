import Observation
import Paging
import PagingTesting
import Testing

// RelaySwiftUI, "@PaginationFragment", on the engine.
//
// A `ToDoList_user` fragment pages `todos(first: $count, after: $cursor)
// @connection(key: "ToDoList_todos")`; the view reads the connection as a
// collection (`ForEach(user.todos ?? [])`), shows "Loading…" while
// `isLoadingNext`, a "Load more" button while `hasNext`, and calls
// `loadNext(10)`; `loadPrevious(count)`, `hasPrevious` and
// `isLoadingPrevious` do the same at the start; the value updates when the
// store changes a record the fragment shows.
//
// Here the fragment's data is a `PagedList` (the `@MainActor @Observable`
// model), its pages come from a Relay connection through
// `RelayCursorSource`, and a `ScriptedSource` holds each load open so the
// flags can be read while it is in flight.

@Suite("Relay scenario: @PaginationFragment")
@MainActor
struct RelayPaginationScenarioTests {
    struct Todo: Identifiable, Sendable, Equatable {
        var id: String
        var text: String
        var complete: Bool
    }

    typealias Scripted = ScriptedSource<String, Todo>

    nonisolated static func todos(_ count: Int) -> [Todo] {
        (0..<count).map { Todo(id: "todo-\($0)", text: "Todo \($0)", complete: false) }
    }

    nonisolated static func cursor(_ todo: Todo) -> String { "cursor:" + todo.id }

    /// The server: a Relay connection of todos, and the strategy that turns
    /// the pager's requests into its arguments and its page info into keys.
    struct Server {
        let backend: RelayConnectionBackend<Todo>
        let strategy: RelayCursorSource<Todo>

        init(count: Int) {
            let backend = RelayConnectionBackend(
                RelayPaginationScenarioTests.todos(count), cursor: RelayPaginationScenarioTests.cursor)
            self.backend = backend
            strategy = RelayCursorSource(.bidirectional) { try backend.connection($0) }
        }

        /// Answers a held call with what the connection returns for it.
        func answer(_ call: Scripted.Call) async throws {
            call.succeed(with: try await strategy.load(call.request))
        }
    }

    func makeList(_ source: Scripted, initialKey: String? = nil) throws -> PagedList<String, Todo> {
        PagedList(
            pager: Pager(source: source, initialKey: initialKey, configuration: try .testing(pageSize: 10)))
    }

    /// The query that fetched the fragment: the list's first load.
    func loadFragment(_ list: PagedList<String, Todo>, _ source: Scripted, _ server: Server) async throws {
        let load = list.loadNext()
        #expect(list.isRefreshing)
        try await server.answer(await source.nextCall())
        #expect(try await load.value == .loaded)
        await list.waitUntilCaughtUp()
    }

    @Test(
        "loadNext(count) sets isLoadingNext while the page is in flight, then shows it; hasNext ends with the connection"
    )
    func loadNext() async throws {
        let server = Server(count: 25)
        let source = Scripted()
        let list = try makeList(source)
        #expect(list.hasNext && !list.isLoadingNext && !list.isLoadingPrevious)
        try await loadFragment(list, source, server)
        #expect(list.items.map(\.id) == Self.todos(10).map(\.id))
        #expect(list.hasNext && !list.hasPrevious)

        let load = list.loadNext(count: 10)
        // Set before loadNext returns: "Loading…" shows in the same frame as the tap.
        #expect(list.isLoadingNext)
        #expect(!list.isLoadingPrevious)
        #expect(list.hasNext)
        let call = await source.nextCall()
        #expect(call.request == PageRequest(.next(after: "cursor:todo-9"), count: 10))
        #expect(list.isLoadingNext)
        #expect(list.items.count == 10)
        try await server.answer(call)
        #expect(try await load.value == .loaded)
        await list.waitUntilCaughtUp()
        #expect(!list.isLoadingNext)
        #expect(list.items.count == 20)
        #expect(list.hasNext)

        let last = list.loadNext(count: 10)
        #expect(list.isLoadingNext)
        try await server.answer(await source.nextCall())
        #expect(try await last.value == .loaded)
        await list.waitUntilCaughtUp()
        #expect(!list.isLoadingNext)
        #expect(!list.hasNext)
        #expect(Array(list.items) == Self.todos(25))
        #expect(server.backend.received.last == RelayArguments(first: 10, after: "cursor:todo-19"))

        // Past the end: no request, no loading flag.
        #expect(try await list.loadNext(count: 10).value == .endReached)
        #expect(!list.isLoadingNext)
        #expect(source.requests.count == 3)
    }

    @Test(
        "loadPrevious(count) from a fragment refetched at a cursor sets isLoadingPrevious, then shows the page; hasPrevious ends at the start"
    )
    func loadPrevious() async throws {
        let server = Server(count: 40)
        let source = Scripted()
        let list = try makeList(source, initialKey: "cursor:todo-19")
        try await loadFragment(list, source, server)
        #expect(list.items.map(\.id) == Self.todos(30)[20..<30].map(\.id))
        #expect(list.hasPrevious && list.hasNext)

        let load = list.loadPrevious(count: 5)
        #expect(list.isLoadingPrevious)
        #expect(!list.isLoadingNext)
        let call = await source.nextCall()
        #expect(call.request == PageRequest(.previous(before: "cursor:todo-20"), count: 5))
        try await server.answer(call)
        #expect(server.backend.received.last == RelayArguments(last: 5, before: "cursor:todo-20"))
        #expect(try await load.value == .loaded)
        await list.waitUntilCaughtUp()
        #expect(!list.isLoadingPrevious)
        #expect(list.items.map(\.id) == Self.todos(30)[15..<30].map(\.id))
        #expect(list.hasPrevious)

        let rest = list.loadPrevious(count: 15)
        #expect(list.isLoadingPrevious)
        try await server.answer(await source.nextCall())
        #expect(try await rest.value == .loaded)
        await list.waitUntilCaughtUp()
        #expect(!list.isLoadingPrevious)
        #expect(!list.hasPrevious)
        #expect(Array(list.items) == Array(Self.todos(30)))
        #expect(try await list.loadPrevious(count: 5).value == .endReached)
        #expect(source.requests.count == 3)
    }

    @Test("both ends load at once: each flag follows its own load, whichever ends first")
    func bothEnds() async throws {
        let server = Server(count: 40)
        let source = Scripted()
        let list = try makeList(source, initialKey: "cursor:todo-19")
        try await loadFragment(list, source, server)

        let next = list.loadNext(count: 3)
        let previous = list.loadPrevious(count: 3)
        #expect(list.isLoadingNext && list.isLoadingPrevious)
        // Each load reaches the source from a task of its own: in either order.
        let calls = [await source.nextCall(), await source.nextCall()]
        let nextCall = try #require(calls.first { $0.request.direction == .next })
        let previousCall = try #require(calls.first { $0.request.direction == .previous })

        try await server.answer(previousCall)
        #expect(try await previous.value == .loaded)
        await list.waitUntilCaughtUp()
        #expect(!list.isLoadingPrevious)
        #expect(list.isLoadingNext)
        #expect(list.items.map(\.id) == Self.todos(30)[17..<30].map(\.id))

        try await server.answer(nextCall)
        #expect(try await next.value == .loaded)
        await list.waitUntilCaughtUp()
        #expect(!list.isLoadingNext && !list.isLoadingPrevious)
        #expect(list.items.map(\.id) == Self.todos(33)[17..<33].map(\.id))
        #expect(list.hasNext && list.hasPrevious)
    }

    @Test(
        "a record changed in the store updates its row in place: one 'updated' change, observed, with no refetch"
    )
    func storeChange() async throws {
        let server = Server(count: 25)
        let source = Scripted()
        let list = try makeList(source)
        try await loadFragment(list, source, server)
        let requestsBefore = source.requests.count
        let versionBefore = list.version

        // A mutation completes todo-4; the store's record changes.
        var changed = try #require(list.items.first { $0.id == "todo-4" })
        changed.complete = true
        server.backend.replace(changed)

        let observed = Counter()
        withObservationTracking {
            _ = list.items
        } onChange: {
            observed.increment()
        }
        #expect(list.update(changed))

        #expect(observed.count == 1)
        #expect(list.version == versionBefore + 1)
        #expect(list.lastChange == ListChange(updated: [4..<5]))
        #expect(list.items[4] == changed)
        #expect(list.items.filter(\.complete).map(\.id) == ["todo-4"])
        #expect(list.items.count == 10)
        #expect(source.requests.count == requestsBefore)

        // A record the list does not show changes nothing.
        #expect(!list.update(Todo(id: "todo-99", text: "elsewhere", complete: true)))
        #expect(list.version == versionBefore + 1)
    }

    @Test("the connection reads as a collection of nodes, as ForEach(user.todos) does")
    func connectionAsCollection() async throws {
        let server = Server(count: 25)
        let source = Scripted()
        let list = try makeList(source)
        try await loadFragment(list, source, server)
        var rows: [String] = []
        for todo in list.items { rows.append(todo.text) }
        #expect(rows == (0..<10).map { "Todo \($0)" })
        #expect(list.items.first?.id == "todo-0")
        #expect(list.items[list.items.index(before: list.items.endIndex)].id == "todo-9")
    }
}
