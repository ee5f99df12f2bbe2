/// A launch's place in the ordering every list uses: launch date, then id.
///
/// Lists run newest first, so a launch comes *after* another in a list when its position is
/// *smaller*. A position need not belong to an existing launch: a cursor whose launch was
/// deleted still names the place where it stood.
struct KeysetPosition: Hashable, Comparable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    var date: Int64
    /// The launch id, which breaks ties between launches of the same second.
    var id: Int64

    /// A position newer than every launch: the start of a newest-first list.
    static let head = KeysetPosition(date: .max, id: .max)

    static func < (lhs: KeysetPosition, rhs: KeysetPosition) -> Bool {
        (lhs.date, lhs.id) < (rhs.date, rhs.id)
    }
}
