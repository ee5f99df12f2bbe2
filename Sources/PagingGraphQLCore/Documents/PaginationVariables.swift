/// The names of the variables a connection field's pagination arguments are
/// bound to, without `$`; `nil` for an argument the field does not take;
/// and the counts the document gives as literals.
///
/// For `launches(first: $pageSize, after: $cursor)`, ``first`` is
/// `"pageSize"` and ``after`` is `"cursor"`. For gh's
/// `repositories(first: 100, after: $endCursor)`, ``first`` is `nil`,
/// ``fixedFirst`` is 100 and ``after`` is `"endCursor"`: every page is
/// asked for with the document's count, which a pager cannot change.
public struct PaginationVariables: Hashable, Sendable {
    /// The variable of `first:`, the count when paging forward.
    public var first: String?
    /// The variable of `after:`, the cursor when paging forward.
    public var after: String?
    /// The variable of `last:`, the count when paging backward.
    public var last: String?
    /// The variable of `before:`, the cursor when paging backward.
    public var before: String?
    /// The count of `first:` when the document gives it as a literal.
    public var fixedFirst: Int?
    /// The count of `last:` when the document gives it as a literal.
    public var fixedLast: Int?

    /// Creates a set of variable names.
    /// - Parameters:
    ///   - first: the variable of `first:`.
    ///   - after: the variable of `after:`.
    ///   - last: the variable of `last:`.
    ///   - before: the variable of `before:`.
    ///   - fixedFirst: the literal count of `first:`.
    ///   - fixedLast: the literal count of `last:`.
    public init(
        first: String? = nil, after: String? = nil, last: String? = nil, before: String? = nil,
        fixedFirst: Int? = nil, fixedLast: Int? = nil
    ) {
        self.first = first
        self.after = after
        self.last = last
        self.before = before
        self.fixedFirst = fixedFirst
        self.fixedLast = fixedLast
    }

    /// Whether the connection can be paged forward: it takes `after:`.
    public var pagesForward: Bool { after != nil }
    /// Whether the connection can be paged backward: it takes `before:`.
    public var pagesBackward: Bool { before != nil }
}
