/// The names of the variables a connection field's pagination arguments are
/// bound to, without `$`; `nil` for an argument the field does not take.
///
/// For `launches(first: $pageSize, after: $cursor)`, ``first`` is
/// `"pageSize"` and ``after`` is `"cursor"`.
public struct PaginationVariables: Hashable, Sendable {
    /// The variable of `first:`, the count when paging forward.
    public var first: String?
    /// The variable of `after:`, the cursor when paging forward.
    public var after: String?
    /// The variable of `last:`, the count when paging backward.
    public var last: String?
    /// The variable of `before:`, the cursor when paging backward.
    public var before: String?

    /// Creates a set of variable names.
    /// - Parameters:
    ///   - first: the variable of `first:`.
    ///   - after: the variable of `after:`.
    ///   - last: the variable of `last:`.
    ///   - before: the variable of `before:`.
    public init(first: String? = nil, after: String? = nil, last: String? = nil, before: String? = nil) {
        self.first = first
        self.after = after
        self.last = last
        self.before = before
    }

    /// Whether the connection can be paged forward: it takes `after:`.
    public var pagesForward: Bool { after != nil }
    /// Whether the connection can be paged backward: it takes `before:`.
    public var pagesBackward: Bool { before != nil }
}
