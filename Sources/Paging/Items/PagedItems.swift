/// The items a pager holds: a random-access collection made of pages, which
/// shares its storage with every earlier and later version of itself.
///
/// A `PagedItems` value never copies the items it holds. Appending or
/// prepending a page builds a few new tree nodes and shares everything else,
/// so a ``PagingSnapshot`` taken before a change stays valid and cheap after
/// it, and a list of a million items grows by a page in the time a list of a
/// thousand does.
///
/// ```swift
/// for launch in snapshot.items { print(launch.mission) }
/// let tenth = snapshot.items[9]
/// ```
///
/// Indices are integers from `0` to `count`.
///
/// - Complexity: `count` and `isEmpty` are O(1). Subscripting is
///   O(log *p*) for *p* pages held (a few steps: the tree's fan-out is 16).
///   Iterating over all items is O(*n*).
public struct PagedItems<Item: Sendable>: RandomAccessCollection, Sendable {
    /// The root, of height 1 or more; `nil` when no page is held.
    private(set) var root: PageTreeNode<Item>?

    /// An empty collection.
    /// - Complexity: O(1).
    public init() {
        root = nil
    }

    /// A collection over a tree built elsewhere (the rows of ``SeparatedItems``).
    init(root: PageTreeNode<Item>?) {
        self.root = root
    }

    /// A collection holding the given pages, in order.
    /// - Parameter pages: the items of each page.
    /// - Complexity: O(*n* + *p* log *p*) for *n* items in *p* pages.
    public init(pages: some Sequence<[Item]>) {
        root = nil
        for page in pages { appendPage(page) }
    }

    /// The position of the first item: always 0.
    /// - Complexity: O(1).
    public var startIndex: Int { 0 }

    /// One past the position of the last item: the number of items.
    /// - Complexity: O(1).
    public var endIndex: Int { root?.count ?? 0 }

    /// The number of items.
    /// - Complexity: O(1).
    public var count: Int { root?.count ?? 0 }

    /// The number of pages the items are held in, empty pages included.
    /// - Complexity: O(1).
    public var pageCount: Int { root?.leafCount ?? 0 }

    /// The item at a position.
    /// - Parameter position: a valid index, `0 ..< count`.
    /// - Complexity: O(log *p*) for *p* pages held.
    public subscript(position: Int) -> Item {
        guard let root, position >= 0, position < root.count else {
            preconditionFailure("index \(position) out of range 0..<\(count)")
        }
        return root.item(at: position)
    }

    /// The items of the page with the given ordinal (0 is the first page held)
    /// and the index of the page's first item.
    /// - Complexity: O(log *p*).
    public func page(at ordinal: Int) -> (items: [Item], firstIndex: Int) {
        guard let root, ordinal >= 0, ordinal < root.leafCount else {
            preconditionFailure("page \(ordinal) out of range 0..<\(pageCount)")
        }
        let (leaf, firstIndex) = root.leaf(at: ordinal)
        return (leaf.items, firstIndex)
    }

    /// Returns an iterator over the items, in order.
    /// - Complexity: O(1); each step of the iterator is amortized O(1).
    public func makeIterator() -> Iterator {
        Iterator(root: root)
    }

    /// Iterates over the items of a ``PagedItems`` value page by page.
    public struct Iterator: IteratorProtocol {
        private var stack: [(node: PageTreeNode<Item>, next: Int)]
        private var leaf: [Item] = []
        private var position = 0

        init(root: PageTreeNode<Item>?) {
            stack = root.map { [($0, 0)] } ?? []
        }

        /// The next item, or `nil` after the last.
        public mutating func next() -> Item? {
            while position == leaf.count {
                guard advanceToNextLeaf() else { return nil }
            }
            defer { position += 1 }
            return leaf[position]
        }

        private mutating func advanceToNextLeaf() -> Bool {
            while let (node, next) = stack.last {
                if next == node.children.count {
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next = next + 1
                let child = node.children[next]
                if child.height == 0 {
                    leaf = child.items
                    position = 0
                    return true
                }
                stack.append((child, 0))
            }
            return false
        }
    }
}

// MARK: - Editing (the pager's own operations)

extension PagedItems {
    /// Adds a page after the last one.
    /// - Complexity: O(*m* + log *p*) for a page of *m* items.
    mutating func appendPage(_ items: [Item]) {
        insertPage(items, atEnd: true)
    }

    /// Adds a page before the first one.
    /// - Complexity: O(*m* + log *p*) for a page of *m* items.
    mutating func prependPage(_ items: [Item]) {
        insertPage(items, atEnd: false)
    }

    private mutating func insertPage(_ items: [Item], atEnd: Bool) {
        let leaf = PageTreeNode(leaf: items)
        guard let root else {
            self.root = PageTreeNode(children: [leaf])
            return
        }
        let (newRoot, overflow) = root.inserting(leaf, atEnd: atEnd)
        if let overflow {
            self.root = PageTreeNode(children: atEnd ? [newRoot, overflow] : [overflow, newRoot])
        } else {
            self.root = newRoot
        }
    }

    /// Removes the first or the last page and returns its items.
    /// - Complexity: O(log *p*).
    @discardableResult
    mutating func removePage(atEnd: Bool) -> [Item] {
        guard let root else { preconditionFailure("no page to remove") }
        let items = root.edgeLeaf(atEnd: atEnd).items
        var newRoot = root.removingLeaf(atEnd: atEnd)
        while let node = newRoot, node.height > 1, node.children.count == 1 {
            newRoot = node.children[0]
        }
        self.root = newRoot
        return items
    }

    /// Removes the last (`atEnd`) or first `count` pages.
    /// - Complexity: O(log *p*), whatever the number of pages removed.
    mutating func removePages(atEnd: Bool, count: Int) {
        guard let root, count > 0 else { return }
        precondition(count <= root.leafCount, "\(count) pages to remove out of \(root.leafCount)")
        var newRoot = root.keepingLeaves(root.leafCount - count, atStart: atEnd)
        while let node = newRoot, node.height > 1, node.children.count == 1 {
            newRoot = node.children[0]
        }
        self.root = newRoot
    }

    /// Replaces the items of the page with the given ordinal.
    /// - Complexity: O(*m* + log *p*) for a page of *m* items.
    mutating func replacePage(at ordinal: Int, with items: [Item]) {
        guard let root else { preconditionFailure("no page to replace") }
        self.root = root.replacingLeaf(at: ordinal, with: PageTreeNode(leaf: items))
    }
}

// MARK: - Conformances

extension PagedItems: Equatable where Item: Equatable {
    /// Whether two collections hold equal items in the same order (pages
    /// boundaries aside).
    /// - Complexity: O(1) when both share their storage, O(*n*) otherwise.
    public static func == (lhs: PagedItems, rhs: PagedItems) -> Bool {
        if lhs.root === rhs.root { return true }
        return lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension PagedItems: CustomStringConvertible {
    /// The items, written like an array's.
    /// - Complexity: O(*n*).
    public var description: String {
        Array(self).description
    }
}

extension PagedItems: ExpressibleByArrayLiteral {
    /// A collection holding the given items as one page.
    /// - Complexity: O(*n*).
    public init(arrayLiteral elements: Item...) {
        self.init(pages: [elements])
    }
}
