/// A jump (``Pager/jump(to:)``), or a restart around the reader: the page that starts at
/// ``start`` of the whole list, around the position ``target``; it replaces everything held, and
/// the reader is then at the target, so the ends near it load.
struct JumpLoad<Key: Hashable & Sendable, Item: Identifiable & Sendable>: LoadPlan where Item.ID: Sendable {
    /// The position jumped to.
    var target: Int
    /// The position of the whole list the page was asked from.
    let start: Int
    /// The page loaded, with its request.
    private var loaded: (PageRequest<Key>, Page<Key, Item>)?

    /// A jump to `target` with a page asked from `start`.
    init(target: Int, start: Int) {
        self.target = target
        self.start = start
    }

    /// The position the reader goes to.
    var readerTarget: Int? { target }

    /// A jump's page leads nowhere it was before: it starts anew.
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

    /// Replaces every page with the one loaded, and shows the target: the ends within the prefetch
    /// distance of it load. The page starts where it says it does, or else where it was asked to.
    /// - Complexity: O(*n* + *m*) for *n* items held and *m* loaded.
    func finish(
        into machine: inout PagerStateMachine<Key, Item>, effects: inout PagerStateMachine<Key, Item>.Effects
    ) {
        guard let loaded else { return }
        let page = loaded.1
        var pages = [loaded]
        machine.takeRefreshEdits().apply(
            to: &pages, first: page.previousKey == nil, last: page.nextKey == nil)
        machine.unjoined = nil
        machine.replaceAll(with: pages, firstSequence: 0, keepDropped: (nil, nil), into: &effects)
        let count = machine.items.count
        if count > 0 {
            let first = machine.window.placeholderCounts.before ?? start
            let held = min(max(target - first, 0), count - 1)
            machine.viewport = (held, count - 1 - held)
            machine.prefetchAroundViewport(into: &effects)
        } else if machine.hasPrevious {
            // Past the end of a list whose length was not known: the page before shows its end.
            machine.viewport = (-1, 0)
            machine.prefetch(.previous, into: &effects)
        }
    }
}
