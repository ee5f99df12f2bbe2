/// One way of loading pages into a ``PagerStateMachine``: a first load or a restart, a page at
/// an end, a refetch of the held pages, a head refresh, an anchored refresh, a jump.
///
/// The machine keeps the slots, the generations, the viewport and the snapshot; a plan keeps what
/// it has loaded so far and knows what it asks next and how its pages go into the window. Every
/// page that arrives goes through the same steps, in the machine, once for every plan:
///
/// 1. ``leadsBack(_:from:in:)``: does the page lead back to a key the plan asked already (the
///    source's keys go round)? Then the load fails with ``PagingError/Code/repeatedKey``.
/// 2. ``take(_:for:in:)``: the plan takes the page in and names its next request, which the
///    machine starts in the same slot and operation; `nil` when it has all its pages.
/// 3. ``finish(into:effects:)``: the plan puts its pages into the window, as one ``ListChange``.
///
/// A new way of loading is a new type conforming to this protocol, in a file of its own, not a new
/// case in the machine.
protocol LoadPlan<Key, Item>: Sendable {
    associatedtype Key: Hashable & Sendable
    associatedtype Item: Identifiable & Sendable where Item.ID: Sendable

    /// The direction in which `page`, loaded for `request`, leads back to a key asked already, so
    /// that following it would go round; `nil` when it leads on.
    /// - Complexity: O(1) expected, or O(*m*) for a page of *m* items that found drift.
    func leadsBack(
        _ page: Page<Key, Item>, from request: PageRequest<Key>, in machine: PagerStateMachine<Key, Item>
    ) -> LoadDirection?

    /// Takes in a page loaded for `request`, and returns the request to load next for this plan, or
    /// `nil` when the plan has every page it needs.
    mutating func take(
        _ page: Page<Key, Item>, for request: PageRequest<Key>, in machine: PagerStateMachine<Key, Item>
    ) -> PageRequest<Key>?

    /// Puts the pages taken into the window, publishing one change.
    func finish(
        into machine: inout PagerStateMachine<Key, Item>, effects: inout PagerStateMachine<Key, Item>.Effects)

    /// Adds to a request of this plan what it carries besides its key (the held items next to it,
    /// shifts known).
    func prepare(_ request: inout PageRequest<Key>, in machine: PagerStateMachine<Key, Item>)

    /// The position of the whole list the reader goes to with this plan (a jump's), which a restart
    /// that takes its place loads around; `nil` for a plan that goes nowhere in particular.
    var readerTarget: Int? { get }

    /// Whether a retry may repeat this plan's failed request as it is, in `window` as it is now:
    /// `false` when loads since the failure moved the window past the pages it was for.
    func stillFits(_ window: PageWindow<Key, Item>) -> Bool
}

extension LoadPlan {
    /// No request carries more than its key.
    func prepare(_ request: inout PageRequest<Key>, in machine: PagerStateMachine<Key, Item>) {}

    /// A plan goes to no position.
    var readerTarget: Int? { nil }

    /// A plan's request may be repeated.
    func stillFits(_ window: PageWindow<Key, Item>) -> Bool { true }
}

extension Page {
    /// The key of the neighbour in a direction.
    func key(_ direction: LoadDirection) -> Key? {
        direction == .next ? nextKey : previousKey
    }
}
