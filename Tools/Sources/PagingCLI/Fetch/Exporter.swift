import Foundation
import Paging
import PagingGraphQLClient

/// Exports every item of a source, page after page, into a sink, and says where it stopped.
///
/// Each page is written whole before the next is asked for, so the cursor reported at the end
/// (after a failure, an interruption or a limit) resumes with nothing lost and nothing repeated.
struct Exporter {
    /// Limits and the place to start.
    struct Settings: Sendable {
        /// Items asked for per page.
        var pageSize: Int
        /// The most pages to load; no limit when `nil`.
        var maximumPages: Int?
        /// The most items to write; no limit when `nil`.
        var maximumItems: Int?
        /// The cursor to start after; the start of the list when `nil`.
        var resume: String?
    }

    /// How an export ended.
    enum Ending: Sendable {
        /// Every item was written.
        case completed
        /// `--max-pages` or `--max-items` was reached.
        case limitReached
        /// The task was cancelled (Ctrl-C).
        case interrupted
        /// A page could not be loaded or written.
        case failed(any Error)
    }

    /// The result of an export.
    struct Result: Sendable {
        /// How it ended.
        var ending: Ending
        /// The items written.
        var items: Int
        /// The pages loaded.
        var pages: Int
        /// Where to resume; `nil` when the export completed, or failed before its first page
        /// without a cursor to resume from.
        var resumeCursor: String?
        /// The items written with a `null` a GraphQL error put there (`--allow-partial`).
        var itemsWithNulls = 0
    }

    /// The source.
    let source: any ExportSource
    /// The settings.
    let settings: Settings
    /// What to do with a page whose data came with GraphQL errors.
    var partialData = PartialDataHandling.refuse

    /// Runs the export on the engine's ``Pager``: one page at a time, written whole before the
    /// next is asked for, with a window of two pages so that memory stays flat however many items
    /// go through. A page the server answers with its own cursor as the next one stops the export
    /// (the engine's repeated-key check) instead of looping.
    /// - Parameters:
    ///   - sink: where items go.
    ///   - progress: told after each page.
    /// - Returns: how it ended and where to resume.
    func run(into sink: JSONSink, progress: ProgressReporter) async -> Result {
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
            return result(.failed(CLIError.usage("\(error)")))
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
                try sink.write(values)
            } catch {
                return result(
                    .failed(CLIError.failed("cannot write the output: \(ConnectionOptions.describe(error))."))
                )
            }
            items += values.count
            itemsWithNulls += held[start...].prefix(values.count).count { $0.hasNullFromError }
            pages += 1
            // A resumed export does not know how many items came before its cursor.
            if settings.resume == nil { total = held.last?.totalCount ?? total }
            progress.update(items: items, pages: pages, total: total)
            if let last = held.last, !values.isEmpty { lastWritten = last.id }
            if next == nil, !cut {
                cursor = nil
                return result(.completed)
            }
            cursor = next
            if cut { return result(.limitReached) }
        }
    }

    /// What to report for a failed load: the source's own error, or the engine's for a page
    /// that cannot be followed (its next cursor is one the export already followed: the page's
    /// own, or an earlier one in a cycle).
    private static func reason(_ error: PagingError) -> any Error {
        if error.code == .repeatedKey {
            let request = error.requestDescription.map { " \($0)" } ?? " a page"
            return CLIError.failed(
                "the server answered\(request) with a cursor this export already followed; following it again would loop forever."
            )
        }
        return error.underlyingError ?? error
    }
}
