/// A page source that, asked again with a request that loaded one of its
/// pages, answers with the items at that place in the list now: the request
/// is a key for a position, not a ticket for one answer.
///
/// It is what an anchored refresh needs (``Pager/refresh(around:)``): the
/// page holding the item the user looks at is asked for again, after the key
/// where the rows kept above it end (the next key of the page before it, or
/// its own request when it is the first), so the source must answer a key it
/// gave before with that place as it is now. A
/// cursor or a keyset boundary does (the items after a cursor); an offset or
/// a page number does, with a cost: the items at an offset move when items
/// are added or removed above it. With k removed above the page, the first
/// k items the page held move to offsets the rows kept above stand for, and
/// are not shown until a refresh from the top; with k added, the page
/// starts with k items held above, left out as repeats. A continuation
/// token that may be used once or expire does not conform: a
/// pager over it refuses an anchored refresh with
/// ``PagingError/Code/unsupportedOperation`` instead of restarting silently.
///
/// The conformance is the whole requirement; items are told apart by their
/// identity, as every pager does.
public protocol ReloadablePageSource: PageSource {}

extension RelayCursorSource: ReloadablePageSource {}
extension InclusiveBoundarySource: ReloadablePageSource {}
extension OffsetSource: ReloadablePageSource {}
extension PageNumberSource: ReloadablePageSource {}
extension HasMoreCursorSource: ReloadablePageSource {}
extension TransformedPageSource: ReloadablePageSource where Base: ReloadablePageSource {}
