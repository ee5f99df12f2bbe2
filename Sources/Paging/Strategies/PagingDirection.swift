/// The directions a strategy pages in, shared by every strategy that can
/// page more than one way (``RelayCursorSource``, ``OffsetSource``).
public enum PagingDirection: Sendable, Hashable {
    /// From the start (or the key the list opens at) towards the end; load
    /// with ``Pager/loadNext(count:)``.
    case forward
    /// From the end (or the key the list opens at) towards the start; load
    /// with ``Pager/loadPrevious(count:)``.
    case reverse
    /// Both ways from where the list opens.
    case bidirectional
}
