import PagingGraphQLClient
import PagingLock

/// Lines for the output and where the export stands once they are written.
struct NestedChunk: Sendable {
    /// The lines, in order.
    var lines: [JSONValue]
    /// The inner connections in progress before the first line (the innermost frame's `skip`
    /// counts the lines of its page written before this chunk); empty when the chunk completes
    /// an outer node whole (the nested output).
    var open: [NestedResume.Frame]

    /// The inner connections in progress once the first `count` lines are written.
    func open(afterWriting count: Int) -> [NestedResume.Frame] {
        var frames = open
        if !frames.isEmpty { frames[frames.count - 1].skip += count }
        return frames
    }
}

/// The inner connections of one outer node for a flattened export (``Exporter/Layout/flattened``), walked depth first a page at a
/// time: each ``step(_:)`` gives the innermost nodes of one page, each with its parent's id.
///
/// A value: the export keeps it between steps, and a step runs in a task of its own.
struct FlattenWalk: Sendable {
    /// The key of the parent's id in each line.
    static let parentKey = "parentId"

    /// One connection being paged.
    private struct Frame: Sendable {
        var parent: ParentNode
        /// The cursor the current page was asked for with.
        var after: String?
        /// The page's nodes; `nil` until it is loaded.
        var nodes: [JSONValue]?
        /// The page's next cursor.
        var next: String?
        /// The next node of the page to take.
        var index: Int
        /// The cursors of this connection asked for so far in this run: each is asked for once.
        var followed: Set<String> = []
    }

    /// The chain of connections, outermost first (a flattened export needs one per level).
    let levels: [NestedLevel]
    private var frames: [Frame] = []

    /// Whether every line is out.
    var isDone: Bool { frames.isEmpty }

    /// The walk of a node as the outer page gives it.
    /// - Throws: ``ExportError`` when the node has no id, the client's error when its connection
    ///   cannot be read.
    init(node: JSONValue, levels: [NestedLevel], pages: NestedPages) throws {
        self.levels = levels
        guard let first = levels.first else { return }
        let page = try pages.firstPage(of: first, in: node)
        frames = [
            Frame(
                parent: try ParentNode(node, level: first.name), after: nil, nodes: page.page.nodes,
                next: page.next, index: 0)
        ]
    }

    /// The walk resumed where a token left it.
    init(resuming open: [NestedResume.Frame], levels: [NestedLevel]) {
        self.levels = levels
        frames = open.prefix(levels.count).map {
            Frame(
                parent: ParentNode(id: $0.id, type: $0.type), after: $0.after, nodes: nil, next: nil,
                index: $0.skip)
        }
    }

    /// Walks on to the next page of innermost nodes.
    /// - Returns: its lines, or `nil` when the walk is done.
    /// - Throws: the client's error or ``ExportError``; the walk is then where it was.
    mutating func step(_ pages: NestedPages) async throws -> NestedChunk? {
        while let depth = frames.indices.last {
            let level = levels[depth]
            guard let nodes = frames[depth].nodes else {
                guard
                    let loaded = try await pages.page(
                        of: level, parent: frames[depth].parent, after: frames[depth].after)
                else {
                    pages.progress.noteGone(frames[depth].parent, level: level)
                    frames.removeLast()
                    continue
                }
                frames[depth].nodes = loaded.page.nodes
                frames[depth].next = loaded.next
                continue
            }
            let index = frames[depth].index
            if index < nodes.count {
                if depth == levels.count - 1 {
                    let before = position
                    let parent = JSONValue.string(frames[depth].parent.id)
                    let lines = nodes[index...].map { node -> JSONValue in
                        guard case .object(var members) = NestedPages.cleaned(node) else { return node }
                        members[Self.parentKey] = parent
                        return .object(members)
                    }
                    frames[depth].index = nodes.count
                    return NestedChunk(lines: lines, open: before)
                }
                frames[depth].index += 1
                let node = nodes[index]
                let inner = levels[depth + 1]
                let page = try pages.firstPage(of: inner, in: node)
                frames.append(
                    Frame(
                        parent: try ParentNode(node, level: inner.name), after: nil, nodes: page.page.nodes,
                        next: page.next, index: 0))
                continue
            }
            if let next = frames[depth].next {
                var followed = frames[depth].followed
                guard followed.insert(next).inserted else {
                    throw NestedPages.repeated(next, level: level, parent: frames[depth].parent)
                }
                frames[depth] = Frame(
                    parent: frames[depth].parent, after: next, nodes: nil, next: nil, index: 0,
                    followed: followed)
                continue
            }
            frames.removeLast()
        }
        return nil
    }

    /// Where the walk stands, as a token keeps it.
    private var position: [NestedResume.Frame] {
        frames.map {
            NestedResume.Frame(id: $0.parent.id, type: $0.parent.type, after: $0.after, skip: $0.index)
        }
    }
}
