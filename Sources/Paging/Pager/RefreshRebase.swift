/// The local edits made while a refresh was in flight that asked to
/// outlive it (``PagerEdit/survivingRefresh()``), applied again to the
/// refresh's pages before they take the place of the held ones.
///
/// A refresh's pages may have been answered before such an edit was made
/// (an item a subscription announced while the request was on its way):
/// without this, the swap would take the edit back. Each edit applies in
/// the order it was made, as ``PageWindow/apply(_:version:into:)`` applies
/// it, without its condition (checked when it was made):
/// - an update replaces the item with its id where the pages hold it;
/// - a removal removes it where the pages hold it;
/// - an insert of an id the pages do not hold goes next to the item its
///   position names, where the pages hold it; `.first` before their first
///   item and `.last` after their last, when they start or end what the
///   list will hold (``apply(to:first:last:)``).
///
/// An edit about an item the pages do not hold does nothing: what the
/// pages leave out, the list no longer holds either.
struct RefreshRebase<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    /// The edits, in the order they were made.
    private(set) var edits: [PagerEdit<Item>] = []

    /// Whether no edit is kept.
    var isEmpty: Bool { edits.isEmpty }

    /// Keeps an edit made while the refresh is in flight.
    mutating func record(_ edit: PagerEdit<Item>) {
        edits.append(edit)
    }

    /// Applies the edits to pages, in list order.
    /// - Parameters:
    ///   - pages: the pages, with their requests.
    ///   - first: whether the pages start the list, so `.first` inserts go
    ///     before their first item.
    ///   - last: whether they end it, so `.last` inserts go after their last.
    /// - Complexity: O(*n* + *k* *m*) for *k* edits over pages of *m* items,
    ///   *n* in all.
    func apply(to pages: inout [(PageRequest<Key>, Page<Key, Item>)], first: Bool, last: Bool) {
        guard !edits.isEmpty, !pages.isEmpty else { return }
        // The page each id is in; offsets are found in the page, which edits change.
        var pageOf: [Item.ID: Int] = [:]
        for (index, (_, page)) in pages.enumerated() {
            for item in page.items where pageOf[item.id] == nil { pageOf[item.id] = index }
        }
        func locate(_ id: Item.ID) -> (page: Int, offset: Int)? {
            guard let page = pageOf[id], let offset = pages[page].1.items.firstIndex(where: { $0.id == id })
            else { return nil }
            return (page, offset)
        }
        func insert(_ item: Item, page: Int, offset: Int) {
            pages[page].1.items.insert(item, at: offset)
            pageOf[item.id] = page
        }
        for edit in edits {
            switch edit.kind {
            case .update(let item):
                guard let (page, offset) = locate(item.id) else { continue }
                pages[page].1.items[offset] = item
            case .remove(let id):
                guard let (page, offset) = locate(id) else { continue }
                pages[page].1.items.remove(at: offset)
                pageOf[id] = nil
            case .insert(let item, let position):
                guard pageOf[item.id] == nil else { continue }
                switch position {
                case .first:
                    if first { insert(item, page: 0, offset: 0) }
                case .last:
                    if last {
                        insert(item, page: pages.count - 1, offset: pages[pages.count - 1].1.items.count)
                    }
                case .before(let id):
                    if let (page, offset) = locate(id) { insert(item, page: page, offset: offset) }
                case .after(let id):
                    if let (page, offset) = locate(id) { insert(item, page: page, offset: offset + 1) }
                }
            }
        }
    }
}
