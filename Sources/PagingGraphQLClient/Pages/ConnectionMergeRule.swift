/// How a fetched page joins the connection already held, by Relay's rules.
///
/// A page fetched with `after` equal to the held end cursor is appended; one
/// fetched with `before` equal to the held start cursor is prepended; any
/// other page (the first, a refetch, a cursor that no longer matches)
/// replaces what is held.
public enum ConnectionMergeRule: Hashable, Sendable {
    /// Add the page's nodes after the held ones.
    case append
    /// Add the page's nodes before the held ones.
    case prepend
    /// Drop the held nodes and keep the page's.
    case replace

    /// The rule for a page fetched with the given cursors.
    /// - Parameters:
    ///   - after: the `after` cursor the page was fetched with.
    ///   - before: the `before` cursor the page was fetched with.
    ///   - held: the page info of what is held, or `nil` when nothing is.
    /// - Returns: the rule.
    public static func rule(after: String?, before: String?, held: PageInfo?) -> Self {
        guard let held else { return .replace }
        if let after, after == held.endCursor { return .append }
        if let before, before == held.startCursor { return .prepend }
        return .replace
    }
}
