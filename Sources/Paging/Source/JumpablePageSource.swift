/// A page source that can load the page at any position of the whole list,
/// so that a pager jumps to a far position with one request rather than
/// loading every page between (``Pager/jump(to:)``, and a placeholder shown
/// past ``PagingConfiguration/jumpThreshold``).
///
/// An offset API can: the key of position 900,000 is the offset 900,000.
/// A bidirectional ``OffsetSource`` conforms. A cursor, a keyset boundary or
/// a continuation token cannot name a position it has not seen, so those
/// sources do not conform, and a jump over them fails at once with
/// ``PagingError/Code/unsupportedOperation`` instead of crawling.
///
/// The page a jump loads must give both of its neighbour keys (`nil` only at
/// the ends), so the list pages on both ways from there, and should give its
/// counts of the items around it (``Page/itemsBefore``, ``Page/itemsAfter``).
public protocol JumpablePageSource<Key, Item>: PageSource {
    /// The key whose first request (`.initial(key)`) loads the page that
    /// starts at a position of the whole list.
    /// - Parameter index: the position of the page's first item, 0 or more.
    func key(forIndex index: Int) -> Key

    /// Whether this source can jump as it is made: a source of a type that
    /// conforms may still page one way only (an ``OffsetSource`` made
    /// `.forward`, whose pages have no key back). `true` by default.
    var canJump: Bool { get }
}

extension JumpablePageSource {
    /// Whether this source can jump: `true`.
    public var canJump: Bool { true }
}

extension OffsetSource: JumpablePageSource {
    /// The key of the page at a position: its offset.
    /// - Complexity: O(1).
    public func key(forIndex index: Int) -> Int { max(0, index) }

    /// Whether it can jump: only a `.bidirectional` source, whose pages have
    /// keys both ways from wherever they start.
    public var canJump: Bool { direction == .bidirectional }
}
