import Foundation
import PagingGraphQLClient

/// Exports a query with connections at several levels (``NestedDocument``): the outer
/// connection page after page, and for each of its nodes every inner connection to its end.
///
/// - ``Exporter/Layout/nested``: one item per outer node, its inner connections holding all
///   their nodes.
/// - ``Exporter/Layout/flattened``: one item per innermost node, with its parent's id
///   (``FlattenWalk``).
///
/// The inner connections of up to ``concurrency`` outer nodes are paged at once; lines are
/// written in the outer order all the same, and each node waits with at most
/// ``bufferedChunks`` pages ahead of the one being written, so memory stays bounded. What is
/// written is always a prefix of the export, and ``Exporter/Result/resumeCursor`` (a
/// ``NestedResume`` token) continues right after it, inside an inner connection too.
struct NestedExporter {
    /// The outer connection.
    let source: any ExportSource
    /// The analysed document.
    let document: NestedDocument
    /// Loads inner pages.
    let pages: NestedPages
    /// Limits: `maximumItems` counts items written, `maximumPages` outer pages.
    let settings: Exporter.Settings
    /// Whether to write one item per innermost node.
    let flatten: Bool
    /// How many outer nodes have their inner connections paged at once.
    let concurrency: Int
    /// Pages a node may have ready ahead of the one being written.
    var bufferedChunks = 2

    /// What one outer node still has to give.
    private enum Job: Sendable {
        case flatten(FlattenWalk)
        case nested(JSONValue)
    }

    /// Runs the export.
    /// - Parameters:
    ///   - sink: where items go.
    ///   - progress: the progress, told after each write and each inner page.
    /// - Returns: how it ended, and the token to resume from.
    func run(into sink: some ExportWriter, progress: ProgressLog) async -> Exporter.Result {
        var position = NestedResume(after: nil)
        if let resume = settings.resume {
            do {
                position = try NestedResume(resuming: resume)
            } catch {
                return Exporter.Result(ending: .failed(error), items: 0, pages: 0)
            }
            if !flatten, !position.open.isEmpty {
                return Exporter.Result(
                    ending: .failed(
                        ExportError(
                            .unsupportedLayout,
                            "the cursor to resume from, \(resume.prefix(24))…, stands inside an inner connection, as a flattened export leaves it; resume with the flattened layout."
                        )), items: 0, pages: 0)
            }
        }
        var written = 0
        var outerPages = 0
        var total: Int?
        func result(_ ending: Exporter.Ending) -> Exporter.Result {
            let done = settings.resume == nil && position == NestedResume(after: nil)
            return Exporter.Result(
                ending: ending, items: written, pages: outerPages,
                resumeCursor: {
                    if case .completed = ending { nil } else if done { nil } else { position.token }
                }())
        }
        func failure(_ error: any Error) -> Exporter.Result {
            if Task.isCancelled || error is CancellationError || (error as? URLError)?.code == .cancelled {
                return result(.interrupted)
            }
            return result(.failed(error))
        }
        // Writes lines of the node that `past` stands after, cutting them at --max-items; says
        // whether the limit was reached. A token taken inside the node's inner connections holds
        // `past` with the open frames, so a resume finishes the node, then goes on past it.
        func write(_ chunk: NestedChunk, past: NestedResume, finished: Bool) throws -> Bool {
            var count = chunk.lines.count
            if let maximum = settings.maximumItems { count = min(count, maximum - written) }
            do {
                try sink.write(Array(chunk.lines.prefix(count)))
            } catch {
                throw ExportError(.writeFailed, "cannot write the output: \(ExportError.describe(error)).")
            }
            written += count
            position = past
            if !finished || count < chunk.lines.count { position.open = chunk.open(afterWriting: count) }
            progress.update {
                $0.items = written
                $0.pages = outerPages
                $0.totalCount = total
            }
            return settings.maximumItems.map { written >= $0 } ?? false
        }

        // An inner connection left open by the export that stopped comes first.
        if flatten, !position.open.isEmpty {
            var walk = FlattenWalk(resuming: position.open, levels: document.levels)
            do {
                var past = position
                past.open = []
                while let chunk = try await walk.step(pages) {
                    if try write(chunk, past: past, finished: walk.isDone) { return result(.limitReached) }
                }
                position.open = []
            } catch {
                return failure(error)
            }
        }
        if settings.maximumItems.map({ written >= $0 }) == true { return result(.limitReached) }
        var followed: Set<String> = []
        while true {
            if Task.isCancelled { return result(.interrupted) }
            if let maximumPages = settings.maximumPages, outerPages >= maximumPages {
                return result(.limitReached)
            }
            let cursor = position.after
            let page: ExportPage
            do {
                page = try await source.page(at: cursor, count: settings.pageSize)
            } catch {
                return failure(error)
            }
            if !page.errors.isEmpty {
                let request = PageRequest<String>(
                    cursor.map { .next(after: $0) } ?? .initial(nil), count: settings.pageSize)
                return result(
                    .failed(
                        PartialDataError(report: PartialDataReport(request: request, errors: page.errors))))
            }
            outerPages += 1
            if settings.resume == nil, !flatten { total = page.totalCount ?? total }
            // Where the export stands after each node of the page.
            let skipped = min(position.skip, page.items.count)
            var after: [NestedResume] = []
            for index in page.items.indices {
                if let edge = page.resumeCursors[safe: index] ?? nil {
                    after.append(NestedResume(after: edge))
                } else {
                    after.append(NestedResume(after: cursor, skip: index + 1))
                }
            }
            let nodes = Array(page.items.enumerated().dropFirst(skipped))
            do {
                let limited = try await export(nodes, after: after, write: write)
                if limited { return result(.limitReached) }
            } catch {
                return failure(error)
            }
            guard let next = page.next else {
                position = NestedResume(after: nil)
                return result(.completed)
            }
            guard followed.insert(next).inserted, next != cursor else {
                return result(
                    .failed(
                        ExportError(
                            .repeatedCursor,
                            "the server answered the page at cursor '\(cursor ?? "(start)")' with a cursor this export already followed; following it again would loop forever."
                        )))
            }
            position = NestedResume(after: next)
        }
    }

    /// Exports the nodes of one outer page in order, paging the inner connections of up to
    /// ``concurrency`` of them at once.
    /// - Returns: whether `--max-items` was reached.
    private func export(
        _ nodes: [(offset: Int, element: JSONValue)], after: [NestedResume],
        write: (NestedChunk, NestedResume, Bool) throws -> Bool
    ) async throws -> Bool {
        struct Slot {
            var job: Job?
            var ready: [NestedChunk] = []
            var running = false
        }
        var slots: [Slot] = []
        slots.reserveCapacity(nodes.count)
        for (_, node) in nodes {
            slots.append(Slot(job: flatten ? nil : .nested(node)))
        }
        if flatten {
            for index in slots.indices {
                slots[index].job = .flatten(
                    try FlattenWalk(node: nodes[index].element, levels: document.levels, pages: pages))
            }
        }
        let pages = self.pages
        let levels = document.children
        return try await withThrowingTaskGroup(of: (Int, NestedChunk?, Job?).self) { group in
            var head = 0
            func start(_ index: Int) {
                guard index < slots.count, !slots[index].running, let job = slots[index].job,
                    slots[index].ready.count < bufferedChunks
                else { return }
                slots[index].running = true
                group.addTask {
                    switch job {
                    case .nested(let node):
                        let line = try await pages.complete(node, levels: levels)
                        return (index, NestedChunk(lines: [line], open: []), nil)
                    case .flatten(var walk):
                        let chunk = try await walk.step(pages)
                        return (index, chunk, walk.isDone || chunk == nil ? nil : .flatten(walk))
                    }
                }
            }
            for index in 0..<min(concurrency, slots.count) { start(index) }
            while head < slots.count {
                // Write what the head has ready; move on when it is finished.
                while head < slots.count,
                    !slots[head].ready.isEmpty || (slots[head].job == nil && !slots[head].running)
                {
                    if !slots[head].ready.isEmpty {
                        let chunk = slots[head].ready.removeFirst()
                        let finished =
                            slots[head].ready.isEmpty && slots[head].job == nil && !slots[head].running
                        if try write(chunk, after[nodes[head].offset], finished) {
                            group.cancelAll()
                            return true
                        }
                        start(head)
                    } else {
                        // A node with nothing to write (no inner node at all).
                        if try write(NestedChunk(lines: [], open: []), after[nodes[head].offset], true) {
                            group.cancelAll()
                            return true
                        }
                        head += 1
                        start(head + concurrency - 1)
                    }
                }
                guard head < slots.count else { break }
                guard let (index, chunk, job) = try await group.next() else {
                    throw ExportError(
                        .malformedPage,
                        "the export stopped waiting for a node that nothing was loading (a bug).")
                }
                slots[index].running = false
                slots[index].job = job
                if let chunk { slots[index].ready.append(chunk) }
                start(index)
            }
            return false
        }
    }
}

extension Array {
    /// The element at an index, or `nil` past the ends.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
