import Paging
import PagingGraphQLClient

/// Exports every item of a source, page after page, into a writer, and says
/// where it stopped.
///
/// Each page is written whole before the next is asked for, so the cursor
/// reported at the end (after a failure, a cancellation or a limit) resumes
/// with nothing lost and nothing repeated. It runs on the engine's
/// `Pager`, one page at a time with a window of two pages, so memory
/// stays flat however many items go through; a server that answers a page
/// with a cursor the export already followed stops it with
/// ``ExportError/Code/repeatedCursor`` instead of looping.
///
/// ```swift
/// let source = RESTListSource(
///     start: URL(string: "https://api.example.com/launches?per_page=100")!,
///     transport: RetryingTransport(base: HTTPClientTransport()))
/// let writer = JSONExportWriter(format: .lines) { try file.write(contentsOf: $0) }
/// let export = Exporter(source: source).start(into: writer)
/// for await progress in export.progress { print("\(progress.items) items") }
/// let result = await export.result
/// print(result.ending, result.resumeCursor ?? "done")
/// ```
public struct Exporter: Sendable {
    /// Limits and the place to start.
    public struct Settings: Sendable {
        /// Items asked for per page.
        public var pageSize: Int
        /// The most pages to load; no limit when `nil`.
        public var maximumPages: Int?
        /// The most items to write; no limit when `nil`.
        public var maximumItems: Int?
        /// The cursor to start after, as a stopped export reported it
        /// (``Result/resumeCursor``); the start of the list when `nil`.
        public var resume: String?

        /// Creates settings.
        /// - Parameters:
        ///   - pageSize: items asked for per page, 1 or more.
        ///   - maximumPages: the most pages to load.
        ///   - maximumItems: the most items to write.
        ///   - resume: the cursor to start after.
        public init(
            pageSize: Int = 50, maximumPages: Int? = nil, maximumItems: Int? = nil, resume: String? = nil
        ) {
            self.pageSize = pageSize
            self.maximumPages = maximumPages
            self.maximumItems = maximumItems
            self.resume = resume
        }
    }

    /// How an export ended.
    public enum Ending: Sendable {
        /// Every item was written.
        case completed
        /// ``Settings/maximumPages`` or ``Settings/maximumItems`` was reached.
        case limitReached
        /// The task was cancelled.
        case interrupted
        /// A page could not be loaded or written.
        case failed(any Error)
    }

    /// The result of an export.
    public struct Result: Sendable {
        /// How it ended.
        public var ending: Ending
        /// The items written.
        public var items: Int
        /// The pages loaded.
        public var pages: Int
        /// Where to resume (``Settings/resume``); `nil` when the export
        /// completed, or stopped before its first page without a cursor to
        /// resume from (run it again from the start).
        public var resumeCursor: String?
        /// The items written with a `null` a GraphQL error put there
        /// (``PartialDataHandling/accept(_:)``).
        public var itemsWithNulls: Int

        /// Creates a result.
        /// - Parameters:
        ///   - ending: how it ended.
        ///   - items: the items written.
        ///   - pages: the pages loaded.
        ///   - resumeCursor: where to resume.
        ///   - itemsWithNulls: the items written with a `null` from an error.
        public init(
            ending: Ending, items: Int, pages: Int, resumeCursor: String? = nil, itemsWithNulls: Int = 0
        ) {
            self.ending = ending
            self.items = items
            self.pages = pages
            self.resumeCursor = resumeCursor
            self.itemsWithNulls = itemsWithNulls
        }
    }

    /// Where an export stands after a page was written (or, for connections
    /// inside connections, after an inner page was loaded).
    public struct Progress: Sendable, Hashable {
        /// The items written so far.
        public var items: Int
        /// The pages loaded so far (of the outer connection, for connections
        /// inside connections).
        public var pages: Int
        /// The number of items in the whole list, when the source tells (not
        /// for a resumed export, which does not know how many came before).
        public var totalCount: Int?
        /// The nodes of inner connections loaded so far; 0 for an export of
        /// one list.
        public var innerNodes: Int
        /// The pages of inner connections loaded so far, those that came
        /// inside an outer node included; 0 for an export of one list.
        public var innerPages: Int
        /// What a person should know since the last report, such as a node
        /// gone from the server while its inner connection was paged (which
        /// then ends where it was); empty most of the time.
        public var notices: [String]

        /// Creates a progress report.
        /// - Parameters:
        ///   - items: the items written so far.
        ///   - pages: the pages loaded so far.
        ///   - totalCount: the number of items in the whole list, when known.
        ///   - innerNodes: the nodes of inner connections loaded so far.
        ///   - innerPages: the pages of inner connections loaded so far.
        ///   - notices: what a person should know since the last report.
        public init(
            items: Int, pages: Int, totalCount: Int? = nil, innerNodes: Int = 0, innerPages: Int = 0,
            notices: [String] = []
        ) {
            self.items = items
            self.pages = pages
            self.totalCount = totalCount
            self.innerNodes = innerNodes
            self.innerPages = innerPages
            self.notices = notices
        }
    }

    /// An export under way (``start(into:)``): its progress as an
    /// asynchronous sequence, its result, and a way to interrupt it.
    public struct Run: Sendable {
        /// A report after each page written, in order; the sequence ends when
        /// the export ends. Ending the iteration (or cancelling the task that
        /// iterates) does not stop the export: ``cancel()`` does.
        public let progress: AsyncStream<Progress>
        private let task: Task<Result, Never>

        init(progress: AsyncStream<Progress>, task: Task<Result, Never>) {
            self.progress = progress
            self.task = task
        }

        /// How the export ended, and the cursor to resume from; waits for the end.
        public var result: Result {
            get async { await task.value }
        }

        /// Interrupts the export: the page in flight is not written, and the
        /// export ends as ``Ending/interrupted`` with the cursor to resume
        /// from (``result``).
        public func cancel() {
            task.cancel()
        }
    }

    /// The source.
    public let source: any ExportSource
    /// The settings.
    public let settings: Settings
    /// What to do with a page whose data came with GraphQL errors.
    public let partialData: PartialDataHandling
    /// The connections inside the source's nodes and how to write them, for
    /// a GraphQL query that nests them; `nil` for an export of one list.
    let nested: NestedPlan?

    /// Creates an exporter.
    /// - Parameters:
    ///   - source: where pages come from.
    ///   - settings: limits and the place to start.
    ///   - partialData: what to do with a page whose data came with GraphQL errors.
    public init(
        source: any ExportSource, settings: Settings = Settings(), partialData: PartialDataHandling = .refuse
    ) {
        self.source = source
        self.settings = settings
        self.partialData = partialData
        nested = nil
    }

    /// An exporter of connections inside connections.
    init(source: any ExportSource, settings: Settings, nested: NestedPlan) {
        self.source = source
        self.settings = settings
        partialData = .refuse
        self.nested = nested
    }

    /// Starts the export in a task of its own, and returns it under way:
    /// its progress as an asynchronous sequence, its result, and
    /// ``Run/cancel()``.
    /// - Parameter writer: where items go.
    /// - Returns: the export under way.
    /// - Complexity: as ``run(into:progress:)``; the progress reports are
    ///   buffered until read, one a page.
    public func start(into writer: some ExportWriter) -> Run {
        let (stream, continuation) = AsyncStream.makeStream(of: Progress.self)
        let task = Task {
            let result = await run(into: writer) { continuation.yield($0) }
            continuation.finish()
            return result
        }
        return Run(progress: stream, task: task)
    }

    /// Runs the export in the calling task (cancelling it interrupts the
    /// export, which then returns its resume cursor).
    /// - Parameters:
    ///   - writer: where items go.
    ///   - progress: told after each page is written.
    /// - Returns: how it ended and where to resume.
    /// - Complexity: one request a page, two pages held at most; O(*n*)
    ///   work in the *n* items written.
    public func run(into writer: some ExportWriter, progress: (@Sendable (Progress) -> Void)? = nil) async
        -> Result
    {
        if let nested {
            return await nested.run(
                outer: source, settings: settings, into: writer, progress: ProgressLog(progress))
        }
        var cursor = settings.resume
        var items = 0
        var pages = 0
        var total: Int?
        var itemsWithNulls = 0
        func result(_ ending: Ending) -> Result {
            Result(
                ending: ending, items: items, pages: pages, resumeCursor: cursor,
                itemsWithNulls: itemsWithNulls)
        }
        let pager: Pager<String, ExportItem>
        do {
            pager = Pager(
                source: ExportPageSource(source: source, partialData: partialData),
                initialKey: settings.resume,
                configuration: try PagingConfiguration(
                    pageSize: settings.pageSize, prefetchDistance: 0, maximumHeld: .pages(2)))
        } catch {
            return result(
                .failed(ExportError(.invalidSettings, "the export's settings cannot be used: \(error)")))
        }
        defer { pager.cancel() }
        // The export never reports items as shown: the pager loads exactly the pages asked for,
        // and the window drops written pages from the front.
        var lastWritten: ExportItem.ID?
        while true {
            if Task.isCancelled { return result(.interrupted) }
            if let maximumPages = settings.maximumPages, pages >= maximumPages {
                return result(.limitReached)
            }
            var count = settings.pageSize
            if let maximumItems = settings.maximumItems {
                let remaining = maximumItems - items
                if remaining <= 0 { return result(.limitReached) }
                count = min(count, remaining)
            }
            do {
                switch try await pager.loadNext(count: count).value {
                case .cancelled: return result(.interrupted)
                case .endReached:
                    cursor = nil
                    return result(.completed)
                case .loaded, .nothingToRetry: break
                }
            } catch {
                if Task.isCancelled || error.underlyingError is CancellationError {
                    return result(.interrupted)
                }
                return result(.failed(Self.reason(error)))
            }
            // What came since the last item written: the pager appends at the end, and its window
            // drops whole pages at the front, so the new items are those after the last one
            // written (all of them when that one was dropped).
            let held = pager.items
            var start = held.endIndex
            while start > held.startIndex, held[start - 1].id != lastWritten { start -= 1 }
            var values = held[start...].map(\.value)
            var next = pager.hasNext ? pager.nextKey : nil
            var cut = false
            if let maximumItems = settings.maximumItems, values.count > maximumItems - items {
                let keep = maximumItems - items
                values = Array(values.prefix(keep))
                if keep > 0, let resume = held[start + keep - 1].resumeCursor {
                    next = resume
                    cut = true
                }
            }
            do {
                try writer.write(values)
            } catch {
                return result(
                    .failed(
                        ExportError(
                            .writeFailed, "cannot write the output: \(ExportError.describe(error)).")))
            }
            items += values.count
            itemsWithNulls += held[start...].prefix(values.count).count { $0.hasNullFromError }
            pages += 1
            // A resumed export does not know how many items came before its cursor.
            if settings.resume == nil { total = held.last?.totalCount ?? total }
            progress?(Progress(items: items, pages: pages, totalCount: total))
            if let last = held.last, !values.isEmpty { lastWritten = last.id }
            if next == nil, !cut {
                cursor = nil
                return result(.completed)
            }
            cursor = next
            if cut { return result(.limitReached) }
        }
    }

    /// What to report for a failed load: the source's own error, or the
    /// engine's for a page that cannot be followed (its next cursor is one
    /// the export already followed: the page's own, or an earlier one in a
    /// cycle).
    private static func reason(_ error: PagingError) -> any Error {
        if error.code == .repeatedKey {
            let request = error.requestDescription.map { " \($0)" } ?? " a page"
            return ExportError(
                .repeatedCursor,
                "the server answered\(request) with a cursor this export already followed; following it again would loop forever."
            )
        }
        return error.underlyingError ?? error
    }
}
