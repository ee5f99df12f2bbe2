/// A node of the persistent tree behind ``PagedItems``.
///
/// Nodes are immutable: every change builds new nodes along one path from the
/// root and shares every other node with the tree it came from, so a snapshot
/// taken before a change keeps seeing the old items at no cost.
///
/// A leaf (height 0) holds the items of one page. An inner node holds up to
/// ``fanout`` children, all of the same height. Every leaf lies at the same
/// depth. Each node caches its number of items and of leaves, so that an item
/// or a page is found in O(log pages) steps.
final class PageTreeNode<Item: Sendable>: Sendable {
    /// The most children an inner node holds.
    static var fanout: Int { 16 }

    /// 0 for a leaf (a page), one more than its children's for an inner node.
    let height: Int
    /// The number of items below this node.
    let count: Int
    /// The number of leaves (pages) below this node.
    let leafCount: Int
    /// The items, for a leaf; empty for an inner node.
    let items: [Item]
    /// The children, for an inner node; empty for a leaf.
    let children: [PageTreeNode]

    /// A leaf holding the items of one page.
    init(leaf items: [Item]) {
        self.height = 0
        self.count = items.count
        self.leafCount = 1
        self.items = items
        self.children = []
    }

    /// An inner node over children of one height.
    /// - Complexity: O(*f*), where *f* is the number of children.
    init(children: [PageTreeNode]) {
        precondition(!children.isEmpty, "an inner node has at least one child")
        self.height = children[0].height + 1
        var count = 0
        var leafCount = 0
        for child in children {
            count += child.count
            leafCount += child.leafCount
        }
        self.count = count
        self.leafCount = leafCount
        self.items = []
        self.children = children
    }
}

// MARK: - Ends

extension PageTreeNode {
    /// Adds a subtree as the last (or first) child at the height of `subtree`,
    /// path-copying the spine. Returns the new node and, when this node had no
    /// room, a new sibling to place after (or before) it.
    func inserting(_ subtree: PageTreeNode, atEnd: Bool) -> (PageTreeNode, overflow: PageTreeNode?) {
        var children = self.children
        if height == subtree.height + 1 {
            if children.count < Self.fanout {
                if atEnd { children.append(subtree) } else { children.insert(subtree, at: 0) }
                return (PageTreeNode(children: children), nil)
            }
            return (self, PageTreeNode(children: [subtree]))
        }
        let edge = atEnd ? children.count - 1 : 0
        let (newEdge, overflow) = children[edge].inserting(subtree, atEnd: atEnd)
        children[edge] = newEdge
        guard let overflow else { return (PageTreeNode(children: children), nil) }
        if children.count < Self.fanout {
            if atEnd { children.append(overflow) } else { children.insert(overflow, at: 0) }
            return (PageTreeNode(children: children), nil)
        }
        return (PageTreeNode(children: children), PageTreeNode(children: [overflow]))
    }

    /// This inner node without its first (or last) leaf; `nil` when nothing
    /// remains.
    func removingLeaf(atEnd: Bool) -> PageTreeNode? {
        var children = self.children
        let edge = atEnd ? children.count - 1 : 0
        if height == 1 {
            children.remove(at: edge)
        } else if let newEdge = children[edge].removingLeaf(atEnd: atEnd) {
            children[edge] = newEdge
        } else {
            children.remove(at: edge)
        }
        return children.isEmpty ? nil : PageTreeNode(children: children)
    }

    /// This node with only its first (or, `atStart` false, last) `count`
    /// leaves, path-copying the nodes cut through and sharing the others;
    /// `nil` for none. Every leaf stays at the same depth.
    /// - Complexity: O(*f* log *p*) for *p* leaves and fan-out *f*.
    func keepingLeaves(_ count: Int, atStart: Bool) -> PageTreeNode? {
        guard count > 0 else { return nil }
        if count >= leafCount { return self }
        var kept: [PageTreeNode] = []
        var remaining = count
        for child in atStart ? children : children.reversed() where remaining > 0 {
            if child.leafCount <= remaining {
                kept.append(child)
                remaining -= child.leafCount
            } else {
                if let part = child.keepingLeaves(remaining, atStart: atStart) { kept.append(part) }
                remaining = 0
            }
        }
        return PageTreeNode(children: atStart ? kept : kept.reversed())
    }

    /// The first (or last) leaf below this node.
    func edgeLeaf(atEnd: Bool) -> PageTreeNode {
        var node = self
        while node.height > 0 {
            node = atEnd ? node.children[node.children.count - 1] : node.children[0]
        }
        return node
    }
}

// MARK: - Lookup and replacement

extension PageTreeNode {
    /// The item at an index below this node.
    /// - Complexity: O(*f* log *p*) for *p* leaves and fan-out *f*.
    func item(at index: Int) -> Item {
        var node = self
        var index = index
        while node.height > 0 {
            for child in node.children {
                if index < child.count {
                    node = child
                    break
                }
                index -= child.count
            }
        }
        return node.items[index]
    }

    /// The leaf with the given ordinal and the index of its first item.
    /// - Complexity: O(*f* log *p*).
    func leaf(at ordinal: Int) -> (leaf: PageTreeNode, firstIndex: Int) {
        let found = descend(to: ordinal, countingLeaves: true)
        return (found.leaf, found.firstIndex)
    }

    /// The leaf holding the item at an index, its ordinal, and the index of
    /// its first item (empty leaves are stepped over).
    /// - Complexity: O(*f* log *p*).
    func leaf(containing index: Int) -> (leaf: PageTreeNode, ordinal: Int, firstIndex: Int) {
        descend(to: index, countingLeaves: false)
    }

    /// The leaf found by going down to the child that holds the `target`th leaf
    /// (`countingLeaves`) or item, with its ordinal and the index of its first item.
    private func descend(to target: Int, countingLeaves: Bool) -> (
        leaf: PageTreeNode, ordinal: Int, firstIndex: Int
    ) {
        var node = self
        var target = target
        var ordinal = 0
        var firstIndex = 0
        while node.height > 0 {
            for child in node.children {
                let size = countingLeaves ? child.leafCount : child.count
                if target < size {
                    node = child
                    break
                }
                target -= size
                ordinal += child.leafCount
                firstIndex += child.count
            }
        }
        return (node, ordinal, firstIndex)
    }

    /// A copy of this tree with the leaf of the given ordinal replaced.
    /// - Complexity: O(*f* log *p*), plus the leaf the caller built.
    func replacingLeaf(at ordinal: Int, with leaf: PageTreeNode) -> PageTreeNode {
        if height == 0 { return leaf }
        var children = self.children
        var ordinal = ordinal
        for position in children.indices {
            let child = children[position]
            if ordinal < child.leafCount {
                children[position] = child.replacingLeaf(at: ordinal, with: leaf)
                return PageTreeNode(children: children)
            }
            ordinal -= child.leafCount
        }
        preconditionFailure("leaf ordinal out of range")
    }
}
