/// A head refresh under way (``Pager/refreshHead(maximumPages:)``): the
/// pages loaded from the top of the list so far, until one reaches the held
/// list or the limit is met.
///
/// Invariants:
/// - ``pages`` holds at most ``maximumPages`` pages, the first loaded with an
///   initial request and each other after the one before it;
/// - ``items`` holds each id once, in the pages' order (a later repeat of an
///   id is left out, as the window leaves it out).
struct HeadRefresh<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    /// The most pages loaded before giving up on reaching the held list.
    let maximumPages: Int
    /// The pages loaded, in order, with their requests.
    private(set) var pages: [(PageRequest<Key>, Page<Key, Item>)] = []
    /// The items of the pages, each id once.
    private(set) var items: [Item] = []
    /// The ids in ``items``.
    private var seen: Set<Item.ID> = []
    /// The keys asked for after the first page.
    private(set) var asked = AskedKeys<Key>()

    /// A head refresh that loads at most `maximumPages` pages.
    init(maximumPages: Int) {
        self.maximumPages = maximumPages
    }

    /// Adds a page loaded for it.
    /// - Complexity: O(*m*) expected for a page of *m* items.
    mutating func collect(_ request: PageRequest<Key>, _ page: Page<Key, Item>) {
        pages.append((request, page))
        asked.remember(request)
        for item in page.items where seen.insert(item.id).inserted { items.append(item) }
    }

    /// Applies the edits made while it was in flight to its pages
    /// (``RefreshRebase``): `.first` inserts before its first item, `.last`
    /// ones after its last when `reachesEnd` (it becomes the whole list).
    /// - Complexity: as ``RefreshRebase/apply(to:first:last:)``, plus O(*h*)
    ///   for the *h* items of the head.
    mutating func rebase(_ rebase: RefreshRebase<Key, Item>, reachesEnd: Bool) {
        rebase.apply(to: &pages, first: true, last: reachesEnd)
        items = []
        seen = []
        for (_, page) in pages {
            for item in page.items where seen.insert(item.id).inserted { items.append(item) }
        }
    }

    /// The request of the page after the last one loaded; `nil` at the end
    /// of the list or of the limit.
    func nextRequest(count: Int) -> PageRequest<Key>? {
        guard pages.count < maximumPages, let key = pages.last?.1.nextKey else { return nil }
        return PageRequest(.next(after: key), count: count)
    }
}
