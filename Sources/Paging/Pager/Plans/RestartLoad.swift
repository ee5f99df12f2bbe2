/// The first load of a list, or a restart: one page, which replaces everything held.
///
/// The edits made to outlive a refresh (``PagerEdit/survivingRefresh()``) go into it: the first
/// as its top, those at the last item when the page ends the list.
struct RestartLoad<Key: Hashable & Sendable, Item: Identifiable & Sendable>: LoadPlan
where Item.ID: Sendable {
    /// The page loaded, with its request.
    private var loaded: (PageRequest<Key>, Page<Key, Item>)?

    /// A restart that has loaded nothing yet.
    init() {}

    /// A first page leads nowhere it was before.
    func leadsBack(
        _ page: Page<Key, Item>, from request: PageRequest<Key>, in machine: PagerStateMachine<Key, Item>
    ) -> LoadDirection? { nil }

    /// Keeps the page: it is the only one.
    mutating func take(
        _ page: Page<Key, Item>, for request: PageRequest<Key>, in machine: PagerStateMachine<Key, Item>
    ) -> PageRequest<Key>? {
        loaded = (request, page)
        return nil
    }

    /// Replaces every page with the one loaded, with the surviving edits in it.
    /// - Complexity: O(*n* + *m*) for *n* items held and *m* loaded.
    func finish(
        into machine: inout PagerStateMachine<Key, Item>, effects: inout PagerStateMachine<Key, Item>.Effects
    ) {
        guard let loaded else { return }
        var pages = [loaded]
        machine.takeRefreshEdits().apply(to: &pages, first: true, last: loaded.1.nextKey == nil)
        machine.unjoined = nil
        machine.replaceAll(with: pages, firstSequence: 0, keepDropped: (nil, nil), into: &effects)
    }
}
