import Paging

/// What a list screen can do beyond paging: show details, book trips.
struct ScreenActions<Item: Sendable>: Sendable {
    /// Loads an item's details (a second query); `nil` shows what the row format gives.
    var details: (@Sendable (Item) async throws -> (title: String, lines: [String]))?
    /// The item with its booking flipped, shown at once while the mutation runs; `nil` when the
    /// screen cannot book.
    var toggled: (@Sendable (Item) -> Item)?
    /// Books or cancels the item's trip on the server; returns the item as the server now has it
    /// and a message.
    var toggleBooking: (@Sendable (Item) async throws -> (item: Item, message: String))?
    /// Cuts the network or brings it back; returns a message for the status line. `nil` when the
    /// screen has no network switch.
    var toggleNetwork: (@Sendable () -> String)?

    /// No details query and no booking.
    static var none: ScreenActions { ScreenActions() }
}

/// Runs a ``ListScreen`` against a pager: it turns the screen's effects into pager calls and
/// queries, and feeds snapshots and answers back into the screen.
///
/// With a ``ListSearch``, the pager is the one of the list shown: a search switches it, and the
/// screen shows the new list from its top.
///
/// The terminal layer sends keys, snapshots and sizes; tests do the same and call ``settle()``
/// to wait, without sleeping, until every load and query started has been applied.
actor ListSession<Key: Hashable & Sendable, Item: Identifiable & Sendable> where Item.ID: Sendable {
    /// The screen's state.
    private(set) var screen: ListScreen<Item>
    /// The pager the list shown comes from.
    private(set) var pager: Pager<Key, Item>
    /// The search, when `/` searches.
    private let search: ListSearch<Key, Item>?
    /// Counts the lists shown, so that a snapshot of a list shown before is not applied.
    private var generation = 0
    /// Where the snapshots of the list shown go (the terminal's loop), and the task taking them.
    private var sink: (@Sendable (_ generation: Int, PagingSnapshot<Item>) -> Void)?
    private var forwarding: Task<Void, Never>?
    /// The last search operation asked for: each one waits for the one before, so that the
    /// debouncer hears the texts in the order they were typed.
    private var searchChain: Task<Void, Never>?
    /// The number of the last reading of the search's list applied (``ListSearch/readShown()``).
    private var lastReading = -1
    /// A note for the title line (such as "offline"), read when the session starts, with each
    /// snapshot and after each key.
    private let note: @Sendable () -> String?
    private let format: RowFormat<Item>
    private let actions: ScreenActions<Item>
    private var work: [Int: Task<Void, Never>] = [:]
    private var nextWork = 0
    private var onChange: (@Sendable () -> Void)?

    /// Creates a session; nothing loads until ``start()``.
    /// - Parameters:
    ///   - pager: the pager of the list shown first; with a search, the pager of its whole list.
    ///   - search: the search `/` types into, if any.
    init(
        screen: ListScreen<Item>, pager: Pager<Key, Item>, search: ListSearch<Key, Item>? = nil,
        format: RowFormat<Item>, actions: ScreenActions<Item>,
        note: @escaping @Sendable () -> String? = { nil }
    ) {
        var screen = screen
        screen.canSearch = search != nil
        self.screen = screen
        self.pager = pager
        self.search = search
        self.note = note
        self.format = format
        self.actions = actions
    }

    /// Sets what is called when a query's answer changed the screen (the terminal redraws).
    func setOnChange(_ handler: @escaping @Sendable () -> Void) {
        onChange = handler
    }

    /// Loads the first page.
    func start() async {
        if let search {
            // A switch the debouncer makes, once the typing pauses, is followed like one asked
            // for with Enter.
            await MainActor.run {
                search.onSwitch = { [weak self] load in
                    Task { await self?.follow(load) }
                }
            }
        }
        screen.note = note()
        _ = screen.apply(pager.snapshot)
        let load = pager.loadNext()
        track { _ = try? await load.value }
    }

    /// Sends the snapshots of the list shown, and of each list shown after it, to `sink`, with the
    /// generation to pass back to ``apply(_:generation:)``.
    func forwardSnapshots(to sink: @escaping @Sendable (_ generation: Int, PagingSnapshot<Item>) -> Void) {
        self.sink = sink
        startForwarding()
    }

    /// Stops sending snapshots.
    func stopForwarding() {
        forwarding?.cancel()
        forwarding = nil
        sink = nil
    }

    private func startForwarding() {
        forwarding?.cancel()
        guard let sink else { return }
        let pager = self.pager
        let generation = self.generation
        forwarding = Task {
            for await snapshot in pager.snapshots { sink(generation, snapshot) }
        }
    }

    /// Reads the note again and redraws: for a note that follows something other than the list
    /// (the connection of a live list).
    func noteChanged() {
        screen.note = note()
        onChange?()
    }

    /// Handles a key.
    /// - Returns: `false` when the key quits.
    @discardableResult
    func send(_ key: ScreenKey) -> Bool {
        defer { screen.note = note() }
        return perform(screen.handle(key: key))
    }

    /// Handles several keys in order.
    /// - Returns: `false` when one of them quits (the keys after it are not handled).
    @discardableResult
    func send(_ keys: [ScreenKey]) -> Bool {
        for key in keys where !send(key) { return false }
        return true
    }

    /// Applies a snapshot from the pager.
    func apply(_ snapshot: PagingSnapshot<Item>) {
        screen.note = note()
        if let search { screen.matchCount = search.matches[screen.query] }
        perform(screen.apply(snapshot))
    }

    /// Applies a snapshot sent by ``forwardSnapshots(to:)``, unless its list is not shown any more.
    func apply(_ snapshot: PagingSnapshot<Item>, generation: Int) {
        guard generation == self.generation else { return }
        apply(snapshot)
    }

    /// Applies a terminal size.
    func resize(to size: ScreenSize) {
        screen.resize(to: size)
    }

    /// The screen's lines.
    func lines() -> [ScreenLine] {
        ScreenRenderer.render(screen, format: format)
    }

    /// The screen's lines as text.
    func text() -> [String] {
        lines().map(\.text)
    }

    /// Waits until every load, refresh, query and mutation started so far has ended and its
    /// result is on the screen, including loads those results started in turn.
    func settle() async {
        while true {
            for task in Array(work.values) { await task.value }
            for await snapshot in pager.snapshots where !snapshot.loadStates.isLoading {
                apply(snapshot)
                break
            }
            if work.isEmpty, !pager.loadStates.isLoading { return }
        }
    }

    // MARK: Effects

    @discardableResult
    private func perform(_ effects: [ListScreen<Item>.Effect]) -> Bool {
        for effect in effects {
            switch effect {
            case .quit:
                return false
            case .itemAppeared(let index):
                pager.itemAppeared(at: index)
                _ = screen.apply(pager.snapshot)
            case .jump(let position):
                let load = pager.jump(to: position)
                track { _ = try? await load.value }
                _ = screen.apply(pager.snapshot)
            case .loadNext:
                let load = pager.loadNext()
                track { _ = try? await load.value }
                _ = screen.apply(pager.snapshot)
            case .retry:
                let load = pager.retry()
                track { _ = try? await load.value }
                _ = screen.apply(pager.snapshot)
            case .refresh:
                let load = pager.refresh()
                track { _ = try? await load.value }
                _ = screen.apply(pager.snapshot)
            case .openDetails(let item):
                openDetails(item)
            case .toggleBooking(let item):
                toggleBooking(item)
            case .toggleNetwork:
                screen.status =
                    actions.toggleNetwork?() ?? "The network switch is part of the demo with --database."
            case .search(let text):
                inSearchOrder { search in search.type(text) }
            case .searchNow(let text):
                inSearchOrder { search in search.switchNow(text) }
            }
        }
        return true
    }

    // MARK: Search

    /// Runs a search operation on the main actor after the ones asked for before it; a switch it
    /// starts is followed (tracked, for ``settle()``).
    private func inSearchOrder(_ operation: @escaping @MainActor (ListSearch<Key, Item>) -> PageLoad?) {
        guard let search else { return }
        let previous = searchChain
        let step = Task {
            await previous?.value
            if let load = await operation(search) { await self.follow(load) }
        }
        searchChain = step
        track { await step.value }
    }

    private func inSearchOrder(_ operation: @escaping @MainActor (ListSearch<Key, Item>) -> Void) {
        inSearchOrder { search -> PageLoad? in
            operation(search)
            return nil
        }
    }

    /// Follows a switch: shows the list the search shows now (a kept list at once), then again
    /// once the switch's load has ended (a new list, once its first page came).
    private func follow(_ load: PageLoad) async {
        await showSearchList()
        track {
            _ = try? await load.value
            await self.showSearchList()
        }
    }

    /// Waits until the search operations asked for so far have run, and what they show at once
    /// (a kept list) is shown; unlike ``settle()``, not for the loads they started.
    func searchSettled() async {
        await searchChain?.value
    }

    /// Shows the list the search shows, if it is not the one shown, and unless a later reading
    /// of it was applied already.
    private func showSearchList() async {
        guard let search else { return }
        let (query, shown, reading) = await search.readShown()
        guard reading > lastReading else { return }
        lastReading = reading
        guard shown !== pager else { return }
        pager = shown
        generation += 1
        perform(screen.showList(query: query, snapshot: shown.snapshot))
        screen.matchCount = search.matches[query]
        startForwarding()
        onChange?()
    }

    private func openDetails(_ item: Item) {
        let request = screen.currentDetailRequest
        guard let load = actions.details else {
            let details = format.details(item)
            screen.showDetails(title: details.title, lines: details.lines, request: request)
            return
        }
        let title = format.details(item).title
        track {
            do {
                let details = try await load(item)
                await self.detailsArrived(title: details.title, lines: details.lines, request: request)
            } catch {
                await self.detailsFailed(title: title, message: ErrorText.short(error), request: request)
            }
        }
    }

    private func detailsArrived(title: String, lines: [String], request: Int) {
        screen.showDetails(title: title, lines: lines, request: request)
        onChange?()
    }

    private func detailsFailed(title: String, message: String, request: Int) {
        screen.detailsFailed(title: title, message: message, request: request)
        onChange?()
    }

    private func toggleBooking(_ item: Item) {
        guard let toggled = actions.toggled, let book = actions.toggleBooking else { return }
        let pager = self.pager
        pager.update(toggled(item))
        screen.status = "Sending…"
        _ = screen.apply(pager.snapshot)
        track {
            do {
                let (confirmed, message) = try await book(item)
                pager.update(confirmed)
                await self.bookingEnded(message)
            } catch {
                pager.update(item)
                await self.bookingEnded(
                    "\(ErrorText.short(error)); the row is as it was. Press b to try again.")
            }
        }
    }

    private func bookingEnded(_ message: String) {
        screen.status = message
        _ = screen.apply(pager.snapshot)
        onChange?()
    }

    private func track(_ operation: @escaping @Sendable () async -> Void) {
        let id = nextWork
        nextWork += 1
        work[id] = Task {
            await operation()
            self.finished(id)
        }
    }

    private func finished(_ id: Int) {
        work[id] = nil
    }
}
