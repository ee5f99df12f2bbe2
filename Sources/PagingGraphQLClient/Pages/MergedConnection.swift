/// The nodes of a connection merged page by page with Relay's rules,
/// deduplicated by id.
///
/// ```swift
/// var merged = MergedConnection<JSONValue, JSONValue>(idKey: "id")
/// merged.merge(first.nodes, pageInfo: first.pageInfo, after: nil, before: nil)             // replace
/// merged.merge(second.nodes, pageInfo: second.pageInfo, after: first.pageInfo.endCursor, before: nil) // append
/// ```
///
/// Appending keeps the held start of ``pageInfo`` and takes the page's end;
/// prepending does the opposite; replacing takes the page's. A node whose id
/// is already held is dropped (the held one stays where it is), and so is a
/// node repeated within a page; a node without an id is always kept.
///
/// This is the model of the rules; a pager built on the engine lets the
/// engine hold the items.
package struct MergedConnection<Node: Sendable, ID: Hashable & Sendable>: Sendable {
    /// The merged nodes, in list order.
    package private(set) var nodes: [Node] = []
    /// The page info of the merged whole, or `nil` before the first merge.
    package private(set) var pageInfo: PageInfo?
    private var ids: Set<ID> = []
    private let id: @Sendable (Node) -> ID?

    /// Creates an empty merge.
    /// - Parameter id: the id of a node, or `nil` for a node that has none.
    package init(id: @escaping @Sendable (Node) -> ID?) {
        self.id = id
    }

    /// Merges a fetched page.
    /// - Parameters:
    ///   - page: the page's nodes.
    ///   - pageInfo: the page's page info.
    ///   - after: the `after` cursor the page was fetched with.
    ///   - before: the `before` cursor the page was fetched with.
    /// - Returns: the rule that was applied.
    /// - Complexity: O(*p*) to append and O(*n* + *p*) to prepend or
    ///   replace, where *p* is the size of the page and *n* the number of
    ///   nodes held.
    @discardableResult
    package mutating func merge(_ page: [Node], pageInfo: PageInfo, after: String?, before: String?)
        -> ConnectionMergeRule
    {
        let rule = ConnectionMergeRule.rule(after: after, before: before, held: self.pageInfo)
        if rule == .replace {
            nodes = []
            ids = []
        }
        var fresh: [Node] = []
        fresh.reserveCapacity(page.count)
        for node in page {
            if let nodeID = id(node) {
                guard ids.insert(nodeID).inserted else { continue }
            }
            fresh.append(node)
        }
        var held = self.pageInfo ?? pageInfo
        switch rule {
        case .append:
            nodes += fresh
            held.endCursor = pageInfo.endCursor ?? held.endCursor
            held.hasNextPage = pageInfo.hasNextPage
            self.pageInfo = held
        case .prepend:
            nodes = fresh + nodes
            held.startCursor = pageInfo.startCursor ?? held.startCursor
            held.hasPreviousPage = pageInfo.hasPreviousPage
            self.pageInfo = held
        case .replace:
            nodes = fresh
            self.pageInfo = pageInfo
        }
        return rule
    }
}

extension MergedConnection where Node: Identifiable, ID == Node.ID {
    /// Creates an empty merge of nodes identified by their `id`.
    package init() {
        self.init(id: { $0.id })
    }
}

extension MergedConnection where Node == JSONValue, ID == JSONValue {
    /// Creates an empty merge of JSON nodes identified by a member.
    /// - Parameter idKey: the member that holds a node's id; `id` unless given.
    package init(idKey: String = "id") {
        self.init(id: { node in node[idKey].flatMap { $0.isNull ? nil : $0 } })
    }
}
