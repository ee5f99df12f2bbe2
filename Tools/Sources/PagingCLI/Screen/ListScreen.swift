import Paging

/// The size of a terminal, in character cells.
struct ScreenSize: Sendable, Hashable {
    /// Lines.
    var rows: Int
    /// Columns.
    var columns: Int
}

/// The state of the list screen, and how keys and pager snapshots change it: a pure value, so
/// tests send events in and read the rendered rows out, with no terminal and no task.
///
/// Layout: a title line (with the note, such as "offline"), a column header, the list body (the items, with a
/// header row where the screen's header rule puts one, such as a year above the launches of that year, and,
/// after the last item, a footer row: "Loading…", "Load more", "All N launches loaded", or an error with
/// "r to retry"), and a status line. The selection rests on an item or on the footer row, where Enter loads
/// more; header rows are passed over.
///
/// With placeholders (a list whose source counts the whole list: `browse --offset`), the body is the
/// whole list: a placeholder row for each item not loaded, which the selection may rest on (the pager
/// loads towards it, or jumps to it when it is far); `g` goes to the top, `G` to the end, and a number
/// typed before `G` to that row, each with one jump.
struct ListScreen<Item: Identifiable & Sendable>: Sendable where Item.ID: Sendable {
    /// What a key or a snapshot asks the driver to do.
    enum Effect: Sendable {
        /// Tell the pager the item at this index was shown (it prefetches near the end); with
        /// placeholders, the position in the whole list.
        case itemAppeared(Int)
        /// Jump to this position of the whole list (with placeholders).
        case jump(Int)
        /// Load the next page ("Load more").
        case loadNext
        /// Repeat the failed load.
        case retry
        /// Load the list again.
        case refresh
        /// Load and show the details of an item.
        case openDetails(Item)
        /// Book or cancel the item's trip.
        case toggleBooking(Item)
        /// Cut the network, or bring it back (the demo with `--database`).
        case toggleNetwork
        /// The search text changed: switch to its list once the typing pauses.
        case search(String)
        /// Switch to the list of this search text now (the empty text: the whole list).
        case searchNow(String)
        /// Leave.
        case quit
    }

    /// A row of the list body.
    enum BodyRow: Sendable, Equatable {
        /// The item at this index of ``items``.
        case item(Int)
        /// A header row, such as a year.
        case header(String)
        /// A placeholder for the item at this position of the whole list, not loaded.
        case placeholder(Int)
        /// The footer row.
        case footer
    }

    /// The detail view over the list.
    enum Detail: Sendable, Equatable {
        /// Waiting for the details of the item with this title; the number tells answers apart.
        case loading(title: String, request: Int)
        /// The details.
        case shown(title: String, lines: [String])
        /// The details could not be loaded.
        case failed(title: String, message: String)
    }

    /// The screen's title, such as `Launches`.
    var title: String
    /// What the items are called in the footer, such as `launches`.
    var noun: String
    /// Whether `b` books and cancels trips.
    var canBook: Bool
    /// Whether `o` cuts the network and brings it back (the demo with `--database`).
    var canSwitchNetwork: Bool
    /// Whether `/` searches.
    var canSearch: Bool
    /// The search text typed, while searching; `nil` when no search was typed.
    private(set) var searchText: String?
    /// Whether keys type into the search text.
    private(set) var isEditingSearch = false
    /// The search text of the list shown; empty for the whole list.
    private(set) var query = ""
    /// How many items match ``query`` on the server, when it said.
    var matchCount: Int?
    /// The items, as of the last snapshot.
    private(set) var items = PagedItems<Item>()
    /// Whether the body shows the whole list, with placeholder rows for the items not loaded.
    let placeholders: Bool
    /// The whole list, as of the last snapshot (with placeholders).
    private(set) var presented = PresentedItems<Item>()
    /// The digits typed before a `G`: the row to go to.
    private(set) var rowNumber = ""
    /// The header rule: the header between two neighbours (`nil` above the first item until the
    /// start is reached); `nil` for a list without headers.
    private let headerRule: SeparatorRule<Item, String>?
    /// Where the header rows go, following each snapshot: asks the rule only about the neighbours
    /// that changed.
    private var headers: SeparatorTransform<Item, String>?
    /// The items with their header rows, as of the last snapshot; empty without a header rule.
    private(set) var rows = SeparatedItems<Item, String>()
    /// The load states, as of the last snapshot.
    private(set) var loadStates = LoadStates()
    /// Whether more may follow, as of the last snapshot.
    private(set) var hasNext = true
    /// The version of the last snapshot applied; snapshots no newer are ignored.
    private(set) var version = -1
    /// The selected row: an item index, or `items.count` for the footer row; with placeholders, a
    /// position in ``presented``, or its count for the footer row.
    private(set) var selection = 0
    /// The first body row shown.
    private(set) var top = 0
    /// The terminal's size.
    private(set) var size: ScreenSize
    /// The detail view, when open.
    var detail: Detail?
    /// A message for the status line, such as the result of a booking.
    var status: String?
    /// A note for the title line, such as "offline, last refreshed 14:02".
    var note: String?
    private var detailRequests = 0

    /// Creates a screen with nothing loaded yet.
    init(
        title: String, noun: String, canBook: Bool, canSwitchNetwork: Bool = false, canSearch: Bool = false,
        headers: SeparatorRule<Item, String>? = nil, placeholders: Bool = false,
        size: ScreenSize = ScreenSize(rows: 24, columns: 80)
    ) {
        self.placeholders = placeholders
        headerRule = placeholders ? nil : headers
        self.headers = headerRule.map { SeparatorTransform($0) }
        self.title = title
        self.noun = noun
        self.canBook = canBook
        self.canSwitchNetwork = canSwitchNetwork
        self.canSearch = canSearch
        self.size = size
    }

    /// The lines of the list body: the terminal's lines less the title, header and status lines.
    var bodyHeight: Int { max(1, size.rows - 3) }

    /// The rows of the body: the items, their headers and the footer row.
    var rowCount: Int { (placeholders ? presented.count : headers == nil ? items.count : rows.count) + 1 }

    /// The selection of the footer row: after the last item (or row of the whole list).
    private var footerSelection: Int { placeholders ? presented.count : items.count }

    /// What the body row at an index shows.
    /// - Parameter row: an index below ``rowCount``.
    /// - Complexity: O(log *p*) for *p* pages held.
    func bodyRow(at row: Int) -> BodyRow {
        guard row < rowCount - 1 else { return .footer }
        if placeholders {
            return presented.heldIndex(forPresented: row).map(BodyRow.item) ?? .placeholder(row)
        }
        guard headers != nil else { return .item(row) }
        if let item = rows.itemIndex(forRow: row) { return .item(item) }
        return rows[row].separator.map(BodyRow.header) ?? .footer
    }

    /// The body row of the selection.
    /// - Complexity: O(log *p*).
    var selectedRow: Int {
        guard !placeholders else { return selection }
        guard headers != nil, selection < items.count else {
            return selection == items.count ? rowCount - 1 : selection
        }
        return rows.rowIndex(forItem: selection)
    }

    /// The selected item; `nil` on the footer row (and on a placeholder).
    var selectedItem: Item? {
        if placeholders { return selection < presented.count ? presented[selection] : nil }
        return selection < items.count ? items[selection] : nil
    }

    // MARK: Events

    /// Handles a key.
    /// - Returns: what the driver must do.
    /// - Complexity: O(1), plus O(log *p*) to read the selected item.
    mutating func handle(key: ScreenKey) -> [Effect] {
        if key == .interrupt { return [.quit] }
        if isEditingSearch, detail == nil, let effects = editSearch(key: key) { return effects }
        if key == .character("q") { return [.quit] }
        if detail != nil {
            switch key {
            case .escape, .backspace, .enter, .character("h"): detail = nil
            default: break
            }
            return []
        }
        // A number typed before G: digits add to it (up to 9 of them), any other key ends it.
        if case .character(let digit) = key, digit.isASCII, digit.isNumber {
            if rowNumber.count < 9 { rowNumber.append(digit) }
            status = placeholders ? "Go to row \(rowNumber): G" : "Go to item \(rowNumber): G"
            return []
        }
        let typed = Int(rowNumber)
        if !rowNumber.isEmpty {
            rowNumber = ""
            status = nil
        }
        switch key {
        case .up, .character("k"): return move(to: selection - 1)
        case .down, .character("j"): return move(to: selection + 1)
        case .pageUp: return move(to: selection - bodyHeight)
        case .pageDown, .character(" "): return move(to: selection + bodyHeight)
        case .home, .character("g"): return placeholders ? jump(to: 0) : move(to: 0)
        case .end, .character("G"):
            if let typed { return placeholders ? jump(to: typed - 1) : move(to: min(typed - 1, items.count)) }
            // To the footer, as without placeholders, with the last row loaded above it.
            return placeholders
                ? jump(to: presented.count - 1, selecting: presented.count) : move(to: items.count)
        case .character("R"):
            status = "Refreshing…"
            // With placeholders the pager restarts around the row last reported shown, which is
            // normally the one selected: the selection stays where it is, its rows updated in
            // place. Without, as a pull to refresh: back to the top, where the first page will be.
            if !placeholders {
                selection = 0
                top = 0
            }
            return [.refresh]
        case .character("r"):
            guard loadStates.error != nil else {
                status = "Nothing to retry."
                return []
            }
            status = nil
            return [.retry]
        case .enter:
            if let item = selectedItem {
                detailRequests += 1
                detail = .loading(title: "", request: detailRequests)
                return [.openDetails(item)]
            }
            if loadStates.error != nil { return [.retry] }
            if hasNext, !loadStates.isLoading { return [.loadNext] }
            return []
        case .character("b"):
            guard canBook else {
                status = "Booking is part of the demo's launch list only."
                return []
            }
            guard let item = selectedItem else { return [] }
            return [.toggleBooking(item)]
        case .character("o"):
            return [.toggleNetwork]
        case .character("/"):
            guard canSearch else {
                status = "Search is part of the demo's launch list without --database."
                return []
            }
            isEditingSearch = true
            searchText = searchText ?? query
            status = nil
            return []
        case .escape where !query.isEmpty || !(searchText ?? "").isEmpty:
            searchText = nil
            return [.searchNow("")]
        default:
            return []
        }
    }

    /// Handles a key while the search text is edited: text keys type, Enter searches at once and
    /// stops editing, Esc clears the search; `nil` for a key that does what it does in the list
    /// (arrows and paging keys move the selection).
    private mutating func editSearch(key: ScreenKey) -> [Effect]? {
        var text = searchText ?? ""
        switch key {
        case .character(let character):
            text.append(character)
        case .backspace:
            guard !text.isEmpty else { return [] }
            text.removeLast()
        case .enter:
            isEditingSearch = false
            return [.searchNow(text)]
        case .escape:
            isEditingSearch = false
            searchText = nil
            return [.searchNow("")]
        default:
            return nil
        }
        searchText = text
        return [.search(text)]
    }

    /// Shows another list: the list of the search text `query`, from the top.
    /// - Returns: what applying its snapshot returns.
    mutating func showList(query: String, snapshot: PagingSnapshot<Item>) -> [Effect] {
        self.query = query
        if !isEditingSearch, query.isEmpty { searchText = nil }
        // Another pager's snapshots: headers made afresh.
        headers = headerRule.map { SeparatorTransform($0) }
        rows = SeparatedItems()
        presented = PresentedItems()
        matchCount = nil
        version = -1
        selection = 0
        top = 0
        return apply(snapshot)
    }

    /// The search text typed whose list is not shown yet, if any.
    var pendingSearch: String? {
        guard let searchText, searchText != query else { return nil }
        return searchText
    }

    /// Applies a pager snapshot, unless a newer one was applied already.
    /// - Returns: an appearance of the selected item when the items changed, so that the pager
    ///   keeps prefetching while the selection stays near the end.
    /// - Complexity: O(1) without headers; with them, O(*c* + *g* log *p*) for *c* changed
    ///   ranges and *g* gaps whose neighbours changed (``SeparatorTransform/apply(_:)``).
    mutating func apply(_ snapshot: PagingSnapshot<Item>) -> [Effect] {
        guard snapshot.version > version else { return [] }
        let countChanged = snapshot.items.count != items.count
        // The selection stays on the item it is on, and on its screen line, as items come and go
        // around it (a live list's launches arriving at the top).
        // Not across lists: another list (``showList(query:snapshot:)``) shows from its top.
        var selected = ListAnchor<Item>()
        let sameList = version >= 0 && !placeholders
        if sameList, let item = selectedItem { selected.point(at: item.id, index: selection) }
        let (selectedLine, follows) = (sameList ? selectedRow - top : 0, snapshot.version == version + 1)
        version = snapshot.version
        items = snapshot.items
        if placeholders { presented = snapshot.presented }
        // Applied in place: a copy of the transform would copy its memo of every page's rows.
        if let separated = headers?.apply(snapshot) { rows = separated.rows }
        loadStates = snapshot.loadStates
        hasNext = snapshot.hasNext
        if status == "Refreshing…", !loadStates.refresh.isLoading { status = nil }
        if let id = selected.id {
            // A snapshot that skipped versions has no change from the items shown: look the item up.
            if follows {
                selected.follow(snapshot.change, to: items)
            } else if let found = items.firstIndex(where: { $0.id == id }) {
                selected.point(at: id, index: found)
            }
            selection = selected.index ?? selection
            // Scrolled down, the selected row keeps its line (rows come in above, out of view); at
            // the top, the view stays at the top, so a feed's new items show as they come.
            if top > 0 { top = max(0, selectedRow - selectedLine) }
        }
        selection = min(selection, footerSelection)
        scrollToSelection()
        guard countChanged, !items.isEmpty else { return [] }
        return [.itemAppeared(min(selection, footerSelection - 1))]
    }

    /// Applies a new terminal size.
    mutating func resize(to size: ScreenSize) {
        self.size = ScreenSize(rows: max(size.rows, 4), columns: max(size.columns, 20))
        scrollToSelection()
    }

    /// The details that were asked for arrived, unless the view was closed or another item's
    /// details were asked for since.
    mutating func showDetails(title: String, lines: [String], request: Int) {
        guard case .loading(_, let current) = detail, current == request else { return }
        detail = .shown(title: title, lines: lines)
    }

    /// The details that were asked for could not be loaded.
    mutating func detailsFailed(title: String, message: String, request: Int) {
        guard case .loading(_, let current) = detail, current == request else { return }
        detail = .failed(title: title, message: message)
    }

    /// The number of the last details request, to pass back with its answer.
    var currentDetailRequest: Int { detailRequests }

    // MARK: Moving

    private mutating func move(to row: Int) -> [Effect] {
        selection = max(0, min(row, footerSelection))
        scrollToSelection()
        guard !items.isEmpty else { return [] }
        return [.itemAppeared(min(selection, footerSelection - 1))]
    }

    /// Selects a row of the whole list (with placeholders), or the footer, and jumps to a row: one
    /// request, none when it is loaded.
    private mutating func jump(to row: Int, selecting selected: Int? = nil) -> [Effect] {
        guard !presented.isEmpty else { return move(to: 0) }
        let target = max(0, min(row, presented.count - 1))
        selection = selected.map { max(0, min($0, presented.count)) } ?? target
        scrollToSelection()
        return [.jump(target)]
    }

    /// Scrolls the body so that the selected row shows, with the header right above it.
    private mutating func scrollToSelection() {
        let row = selectedRow
        var upper = row
        if upper > 0, case .header = bodyRow(at: upper - 1) { upper -= 1 }
        if upper < top { top = upper }
        if row >= top + bodyHeight { top = row - bodyHeight + 1 }
        top = max(0, min(top, rowCount - bodyHeight))
    }

    // MARK: Footer

    /// The footer row's text.
    var footer: String {
        if let error = loadStates.refresh.error { return "\(ErrorText.short(error)) — r to retry" }
        if version < 0 || (loadStates.refresh.isLoading && items.isEmpty) {
            return query.isEmpty ? "Loading…" : "Searching “\(query)”…"
        }
        switch loadStates.next {
        case .loading: return "Loading…"
        case .failed(let error): return "\(ErrorText.short(error)) — r to retry"
        case .endReached: return allLoaded
        case .notLoading: return hasNext ? loadMore : allLoaded
        }
    }

    private var allLoaded: String {
        if placeholders { return "End of the \(presented.count) \(noun)" }
        if query.isEmpty { return "All \(items.count) \(noun) loaded" }
        if items.isEmpty { return "No \(noun) match “\(query)”" }
        return "All \(items.count) \(noun) matching “\(query)” loaded"
    }

    private var loadMore: String {
        if query.isEmpty { return "Load more" }
        guard let matchCount else { return "Load more · \(noun) matching “\(query)”" }
        return "Load more · \(items.count) of \(matchCount) \(noun) matching “\(query)”"
    }
}
